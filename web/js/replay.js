// A replay: the battle step by step or turn by turn, the map showing what each step changed;
// autoplay at a chosen pace, a jump to any turn, and keys (← → a step, PageUp PageDown a turn,
// Home End, space plays or pauses).

import { el, api, auth, held } from "./util.js";
import { drawMap, movedUnits, withCommanders } from "./map.js";

/**
 * Show the replay of game `id` in `main`; returns the function that stops it. With `play`
 * (`#/replay/<id>/play`: a battle of two computers just begun) it plays from the start at once.
 */
export function showReplay(main, id, { play: playNow = false } = {}) {
  const mapBox = el("div", { class: "mapbox" });
  const changes = el("div", { class: "summary quiet", "aria-live": "polite" });
  const log = el("div", { class: "box" });
  const slider = el("input", { type: "range", min: 0, max: 0, value: 0, "aria-label": "step" });
  const label = el("span", { class: "steplabel" });
  const camera = {};
  let total = 0;
  let at = -1;
  let view = null;
  let lines = 0;
  let timer = null;
  let loading = false;
  let want = null; // the step asked for while another was loading: the latest wins
  let live = false; // the battle goes on (a computers' battle watched at one's own pace)
  const roles = held(id).roles;
  const seat = roles["0"] || roles["1"] || roles.umpire || null;
  const go = async (k) => {
    want = k;
    if (loading) return;
    loading = true;
    try {
      while (want !== null) {
        const next = want;
        want = null;
        await load(next);
      }
    } finally {
      loading = false;
    }
  };
  // (A step is a number; a turn is asked for as {turn}: the server finds its first step.)
  const load = async (k) => {
    // (With this browser's seat, its side's own secret orders are in the replay.)
    const r = await api(`/api/games/${id}/replay?${typeof k === "number" ? `step=${k}` : `turn=${k.turn}`}`, { headers: auth(seat) });
    r.view = withCommanders(r.view);
    live = !r.over;
    total = r.total;
    slider.max = total;
    slider.value = r.step;
    label.textContent = `action ${r.step} of ${total}, turn ${r.view.turn}`;
    // A step forward shows what it changed; a jump shows the position as it is.
    const next = r.step === at + 1;
    const previous = next ? view : null;
    const redraw = () => mapBox.replaceChildren(drawMap(r.view, { camera, previous: null, animate: false, onWings: redraw }).node);
    mapBox.replaceChildren(drawMap(r.view, { camera, previous, onWings: redraw }).node);
    if (next && view) {
      const moved = [...movedUnits(view, r.view).keys()];
      const added = r.log.length - lines;
      changes.textContent = `${moved.length ? `Moved: ${moved.slice(0, 6).join(", ")}${moved.length > 6 ? ` and ${moved.length - 6} more` : ""}. ` : ""}${added > 0 ? `${added} new line${added === 1 ? "" : "s"} (marked).` : ""}`;
    } else changes.textContent = "";
    const from = next ? lines : r.log.length;
    const shown = r.log.slice(-200);
    const offset = r.log.length - shown.length;
    const box = el("div", { class: "log" }, shown.length ? shown.map((l, i) => el("div", { class: `${/^turn \d/i.test(l.text) ? "turn" : ""}${offset + i >= from ? " fresh" : ""}` }, l.text))
      : el("div", { class: "quiet" }, "Nothing yet: the battle stands as it was set up. Step on (→) to see the first action."));
    log.replaceChildren(el("h4", {}, "What happened"), box);
    box.scrollTop = box.scrollHeight;
    at = r.step;
    view = r.view;
    lines = r.log.length;
    if (at >= total && !live) pause();
  };
  const speed = el("select", { "aria-label": "speed" },
    el("option", { value: "1500" }, "slow"), el("option", { value: "700", selected: true }, "steady"), el("option", { value: "250" }, "fast"));
  const playButton = el("button", { class: "plain", "data-play": "1", title: "play or pause (space)" }, "▶ play");
  function pause() {
    if (timer) clearInterval(timer);
    timer = null;
    playButton.textContent = "▶ play";
  }
  function play() {
    if (at >= total) go(0);
    playButton.textContent = "❚❚ pause";
    // (A battle still going on is followed as it goes: at its last step, wait for the next.)
    const tick = () => { if (at < total || live) go(at < total ? at + 1 : total).catch(pause); else pause(); };
    timer = setInterval(tick, Number(speed.value));
  }
  playButton.addEventListener("click", () => (timer ? pause() : play()));
  speed.addEventListener("change", () => { if (timer) { pause(); play(); } });
  slider.addEventListener("change", () => { pause(); go(Number(slider.value)); });
  const step = (d) => { pause(); go(Math.min(total, Math.max(0, at + d))); };
  const turnNow = () => (view ? view.turn : 0);
  const toTurn = (t) => { pause(); go({ turn: Math.max(0, t) }); };
  // Back: to the start of this turn, or if already there, of the turn before.
  const turnBack = async () => {
    const was = at;
    pause();
    await go({ turn: turnNow() });
    if (at === was && at > 0) await go({ turn: Math.max(0, turnNow() - 1) });
  };
  const turnBox = el("input", { type: "number", min: 0, value: "", placeholder: "turn", "aria-label": "jump to turn", class: "turnbox" });
  const jump = el("form", { class: "jump", onsubmit: (e) => { e.preventDefault(); if (turnBox.value !== "") toTurn(Number(turnBox.value)); } },
    turnBox, el("button", { class: "plain", type: "submit" }, "go to turn"));
  const bar = el("div", { class: "replaybar box" },
    el("button", { class: "plain", onclick: () => { pause(); go(0); }, title: "the start (Home)" }, "«"),
    el("button", { class: "plain", "data-turn": "back", onclick: () => turnBack(), title: "the start of this turn, or of the one before (Page Up)" }, "◀◀"),
    el("button", { class: "plain", "data-step": "back", onclick: () => step(-1), title: "a step back (←)" }, "◀"),
    slider,
    el("button", { class: "plain", "data-step": "forward", onclick: () => step(1), title: "a step on (→)" }, "▶"),
    el("button", { class: "plain", "data-turn": "forward", onclick: () => toTurn(turnNow() + 1), title: "the next turn (Page Down)" }, "▶▶"),
    el("button", { class: "plain", onclick: () => { pause(); go(total); }, title: "the end (End)" }, "»"),
    playButton, speed, label, jump);
  const onKey = (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (e.target instanceof HTMLSelectElement) return;
    if (e.key === "ArrowRight") { e.preventDefault(); step(1); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); step(-1); }
    else if (e.key === "PageDown") { e.preventDefault(); toTurn(turnNow() + 1); }
    else if (e.key === "PageUp") { e.preventDefault(); turnBack(); }
    else if (e.key === "Home") { e.preventDefault(); pause(); go(0); }
    else if (e.key === "End") { e.preventDefault(); pause(); go(total); }
    else if (e.key === " ") { e.preventDefault(); if (timer) pause(); else play(); }
  };
  document.addEventListener("keydown", onKey);
  main.replaceChildren(el("div", { class: "game" }, el("div", { class: "left" }, mapBox, changes), el("div", { class: "panel" }, bar,
    el("div", { class: "quiet keys" }, "Keys: ← → a step, Page Up and Page Down a turn, Home and End, space to play or pause."), log,
    el("div", {}, el("a", { href: `#/game/${id}` }, "Back to the game"), " · ", el("a", { href: "#/" }, "All battles")))));
  // A game that is not there has no replay: the error alone, without the controls.
  go(0).then(() => { if (playNow) play(); }).catch((e) => {
    pause();
    document.removeEventListener("keydown", onKey);
    main.replaceChildren(el("div", { class: "box" },
      el("p", { class: "error" }, e.status === 404 ? `There is no game ${id} on this server.` : e.message),
      el("a", { href: "#/" }, "All battles")));
  });
  return () => { pause(); document.removeEventListener("keydown", onKey); };
}

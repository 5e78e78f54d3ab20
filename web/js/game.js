// A game: the map, where the battle stands, the selected unit, the choices, the umpire's
// desk, the notes and the log; kept up to date through a WebSocket.

import { el, api, post, auth, held, roleKey, words, bearing, centre, playerWords, counted } from "./util.js";
import { drawMap, movedUnits, armOf, actionPoints, isGrid, unitPlaces, withCommanders } from "./map.js";
import { formFor } from "./desk.js";

// The action's JSON with its last place (an `[x, y]` pair) put at `point`: a copy.
function withLastPoint(action, point) {
  const copy = JSON.parse(JSON.stringify(action));
  let done = false;
  const walk = (v) => {
    if (done || !v || typeof v !== "object") return;
    const keys = Array.isArray(v) ? [...v.keys()].reverse() : Object.keys(v).reverse();
    for (const k of keys) {
      const w = v[k];
      if (Array.isArray(w) && w.length === 2 && w.every((n) => typeof n === "number")) {
        v[k] = [Math.round(point[0] * 100) / 100, Math.round(point[1] * 100) / 100];
        done = true;
        return;
      }
      walk(w);
      if (done) return;
    }
  };
  walk(copy);
  return done ? copy : null;
}

/** Show game `id` in `main`; returns the function that stops watching it. */
export function showGame(main, id) {
  let selected = null;
  let closed = false;
  let socket = null;
  let retry = 1000;
  let opened = false;
  let polling = null; // asking for news every few seconds while the live channel is down
  let undo = () => {}; // takes back this side's last action (set with each drawing)
  let choiceFilter = ""; // what the choices are filtered by (kept across drawings)
  let wasMyMove = false; // it was this player's move when last drawn
  let lookAgain = null; // asking again while a seat waits for its player
  let busy = false;
  let chosen = null; // a role picked by hand, when this browser holds several
  let viewAs = ""; // the umpire looking as a side sees: "", "0" or "1"
  // Hot seat: the side whose screen this is now (kept for this tab, so that a reload does not
  // skip the hand-over).
  let handedTo = sessionStorage.getItem(`volley:handed:${id}`);
  const handTo = (k) => { handedTo = k; sessionStorage.setItem(`volley:handed:${id}`, k); };
  const camera = {}; // the map's zoom, kept between drawings
  const mapBox = el("div", { class: "mapbox" });
  const summary = el("div", { class: "summary quiet", "aria-live": "polite" });
  const proposalSlot = el("div", { class: "proposalslot" }); // a free move's verdict, under the map
  const status = el("div", { class: "box status" });
  const standing = el("div", { class: "box standing" });
  const unitBox = el("div", { class: "box unitbox" });
  const choices = el("div", { class: "box choicesbox" });
  const umpireBox = el("div", { class: "box umpire" });
  const invitesTop = el("div", { class: "box invitestop", hidden: true });
  const oob = el("details", { class: "box oob" });
  const log = el("div", { role: "log", "aria-live": "polite", "aria-label": "what happened", class: "box" });
  const links = el("div", { class: "box" });
  const notes = el("details", { class: "box notes" });
  main.replaceChildren(el("div", { class: "game" }, el("div", { class: "left" }, mapBox, proposalSlot, summary),
    el("div", { class: "panel" }, invitesTop, status, standing, unitBox, choices, umpireBox, log, oob, notes, links)));

  const roles = () => held(id).roles;
  // The role to look as: one picked by hand; else the side that must act if this browser holds
  // it (hot seat); else a side it holds; else the umpire; else nobody (a spectator).
  const current = (actor) => {
    const r = roles();
    if (chosen && r[chosen]) return chosen;
    if (actor && actor.side !== undefined && r[actor.side]) return String(actor.side);
    const sides = Object.keys(r).filter((k) => k !== "umpire");
    if (sides.length) return sides[0];
    return r.umpire ? "umpire" : null;
  };
  // (A commander who is a figure on the table is made a piece to pick and drag.)
  const look = (key) => api(`/api/games/${id}${key === "umpire" && viewAs !== "" ? `?view_as=${viewAs}` : ""}`,
    { headers: auth(key ? roles()[key] : null) }).then((g) => ({ ...g, view: g.view ? withCommanders(g.view) : g.view }));

  let actor = null;
  let shown = -1; // the number of actions on screen
  let shownHeld = null; // whether results were held for the umpire when it was drawn
  let names = [];
  let last = null; // {g, key}: the game as last fetched
  // What is marked as new: changes since the baseline — for a player, the game as his own last
  // action left it (so that all the other side did since is marked, however many steps it took);
  // for a spectator or the umpire, the game before the last change.
  let before = null; // the baseline view
  let seenLog = -1; // the log's length at the baseline
  let drawnView = null; // the view last drawn (moved units slide from there)
  let fresh = false; // the next drawing shows a change (slide it)
  let lastText = ""; // the game as last drawn, as JSON (the same again is not redrawn)
  let placeChoices = null; // the choices that lead to one place clicked on the map
  let proposal = null; // a free move proposed (a place or a facing) and the rules' verdict
  let pressed = null; // a press on a unit, still held, that selected it (it may become a drag)
  const offsets = new Map(); // a deployment in hand: each unit placed otherwise → how far it was moved
  let deployNote = null; // what the rules said of the last unit placed
  // The umpire's form as he left it (kept across drawings and after an act): its values, with
  // the place and facing he gave by dragging the unit on the map.
  const umpireDraft = { value: undefined, unit: null, at: null, facing: null };
  // The umpire's form about unit `i` starts from the unit as it stands (its present status, say,
  // where the rules give it), keeping the reason he has typed and the kind he has chosen.
  const startFrom = (g, i) => {
    const now = g.umpire_values && g.umpire_values[i];
    if (!now || typeof now !== "object") return;
    const before = umpireDraft.value && typeof umpireDraft.value === "object" ? umpireDraft.value : null;
    if (before && before.kind && now.kind && before.kind !== now.kind) return;
    umpireDraft.value = { ...now, ...(before && typeof before.reason === "string" ? { reason: before.reason } : {}) };
  };
  // `news`: asked for by the live channel — the same game again is not redrawn (a redraw would
  // cut the slide short); asked for by a person (a hand-over, a look as), it always is.
  async function refresh(news = false) {
    try {
      let key = current(actor);
      let g = await look(key);
      const next = current(g.actor);
      if (next !== key) {
        key = next;
        g = await look(key);
      }
      const text = JSON.stringify(g);
      if (news && text === lastText && last && last.key === key) return;
      lastText = text;
      if (last && g.actions !== shown) {
        drawnView = last.g.view;
        if (g.seat === null || g.seat === undefined || before === null) {
          before = last.g.view;
          seenLog = last.g.log.length;
        }
        fresh = true;
        proposal = null;
        placeChoices = null;
      }
      // A player's baseline is the server's word: the pieces as he saw them just after his own
      // last action, and the lines numbered after it (however fast the other side answered).
      if (g.since && g.seat !== null && g.seat !== undefined) {
        before = { ...g.view, pieces: g.since.pieces };
        const i = g.log.findIndex((l) => l.n > g.since.n);
        seenLog = i < 0 ? g.log.length : i;
      }
      actor = g.actor;
      shown = g.actions;
      shownHeld = g.held;
      names = g.view.sides;
      last = { g, key };
      // Hot seat: before the other side's secrets come on screen, the screen is handed over
      // (where the rules keep any: not where every side sees the same).
      if (g.hot_seat && g.secrets !== false && key !== null && key !== "umpire" && !g.outcome && handedTo !== key) {
        if (handedTo === null) handTo(key);
        else return handOver(key);
      }
      main.querySelector(".game")?.classList.remove("handing");
      render(g, key);
    } catch (e) {
      if (e.status === 404) {
        closed = true;
        if (socket) socket.close();
        main.replaceChildren(el("p", { class: "error" }, `There is no game ${id} on this server.`),
          el("p", {}, el("a", { href: "#/" }, "All battles")));
        return;
      }
      status.querySelector(".problem")?.remove();
      status.append(el("div", { class: "error problem" }, e.message));
    }
  }

  function handOver(key) {
    const side = names[Number(key)] || `side ${Number(key) + 1}`;
    mapBox.replaceChildren(el("div", { class: "handover" },
      el("h3", {}, `Hand the screen to the ${side}`),
      el("p", {}, "Their orders and what only they may see come next: the other side should look away."),
      el("button", { "data-handover": key, onclick: () => { handTo(key); refresh(); } }, `I am the ${side}: show my side`)));
    for (const box of [summary, status, standing, unitBox, choices, umpireBox, notes, log, links, oob, invitesTop]) box.replaceChildren();
    // (Nothing but the hand-over while it lasts: no empty boxes beside it.)
    main.querySelector(".game")?.classList.add("handing");
  }

  function render(g, key) {
    const v = g.view;
    const token = key ? roles()[key] : null;
    const err = el("div", { class: "error" });
    const animate = fresh;
    fresh = false;
    // One action at a time: the choices are disabled while one is on its way, and enabled again
    // once its answer is drawn (a click meanwhile waits, it is not lost).
    const enable = (on) => document.querySelectorAll("button.choice, button[data-umpire-act], button[data-release]")
      .forEach((b) => { b.disabled = !on; });
    const send = async (action) => {
      if (busy) return;
      busy = true;
      enable(false);
      try {
        const r = await post(`/api/games/${id}/actions`, { action }, token);
        selected = null;
        if (key !== "umpire") actor = r.actor; // look next through the eyes of whoever acts now (hot seat)
        await refresh();
        // From here on, what the other side does is marked (until this side acts again).
        // (The server says where, once it has it; else the game as this action left it.)
        if (last && !last.g.since) { before = last.g.view; seenLog = last.g.log.length; }
      } catch (e) {
        err.textContent = e.message;
      } finally {
        busy = false;
        enable(true);
      }
    };
    undo = async () => {
      if (busy || !last || !last.g.undo) return;
      busy = true;
      enable(false);
      try {
        await post(`/api/games/${id}/undo`, {}, token);
        selected = null;
        proposal = null;
        await refresh();
      } catch (e) {
        err.textContent = e.message;
      } finally {
        busy = false;
        enable(true);
      }
    };
    // With "ask before sending" on, a choice waits for a second word (there is no taking back).
    const confirmBox = el("div", { class: "confirm" });
    const take = (c) => () => {
      if (localStorage.getItem("volley:confirm") !== "1") return send(c.action);
      confirmBox.replaceChildren(el("span", {}, `Send “${c.text}”? `),
        el("button", { "data-confirm": "yes", onclick: () => { confirmBox.replaceChildren(); send(c.action); } }, "send it"), " ",
        el("button", { class: "plain", "data-confirm": "no", onclick: () => confirmBox.replaceChildren() }, "not that"));
    };
    const unitNames = new Set(v.pieces.map((p) => p.unit).filter(Boolean));
    // Where `text` names unit `name` itself, not as a part of a longer unit's name ("Kreytzen" in
    // "IR Kreytzen", "IR 1" in "IR 12 Botta"): the places it does, from the first.
    const namedAt = (text, name) => {
      const at = [];
      for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
        const inLonger = [...unitNames].some((u) => {
          if (u.length <= name.length) return false;
          for (let j = u.indexOf(name); j >= 0; j = u.indexOf(name, j + 1)) if (text.substr(i - j, u.length) === u) return true;
          return false;
        });
        if (!inLonger) at.push(i);
      }
      return at;
    };
    const names = (text, name) => namedAt(text, name).length > 0;
    const namesFirst = (text, name) => namedAt(text, name)[0] === 0;
    if (selected && !unitNames.has(selected)) selected = null;
    // A unit's choices: those naming it, or its command (an Old Fritz wing, whose orders it obeys).
    // A command (an Old Fritz wing) is its side's: the two sides' wings may share a name ("the
    // centre"), so they are told apart by side as well as by name.
    const selectedPiece = selected ? v.pieces.find((p) => p.unit === selected) : null;
    const selectedGroup = selectedPiece?.group ?? null;
    const selectedSide = selectedPiece?.side;
    const sameCommand = (q) => selectedGroup && q.group === selectedGroup && q.side === selectedSide;
    const actsForIt = !g.actor || g.actor.side === undefined || g.actor.side === selectedSide;
    const list = g.candidates.filter((c) => !selected || names(c.text, selected) || (selectedGroup && actsForIt && c.text.includes(`the ${selectedGroup}`)));
    // A plain move changes nothing but the unit's place: its formation (as the piece's label
    // names it) and its facing stay. Only a plain move is made by a drop; a choice that also
    // changes formation or facing is taken by a click on its words or its dot (issue 29, 1).
    const isPlain = (a) => {
      if (!selectedPiece) return false;
      const label = selectedPiece.label.toLowerCase();
      let plainMove = true;
      const walk = (o) => {
        for (const [k, w] of Object.entries(o)) {
          if (k === "formation" && typeof w === "string" && !label.includes(w.replace(/_/g, " "))) plainMove = false;
          else if ((k === "facing" || k === "pivot") && typeof w === "number" && typeof selectedPiece.facing === "number"
            && Math.abs((((w - selectedPiece.facing) % 360) + 540) % 360 - 180) > 0.5) plainMove = false;
          else if (w && typeof w === "object") walk(w);
        }
      };
      if (a && typeof a === "object") walk(a);
      return plainMove;
    };
    const targets = selected ? list.map((c) => ({ action: c.action, points: c.points, text: c.text, take: take(c), plain: namesFirst(c.text, selected) && isPlain(c.action) })) : [];
    // A unit picked is drawn from the game as last fetched (never an older one).
    const pick = (u, e) => {
      if (selected === u) return;
      selected = u;
      // The umpire's form is about the unit he picks on the map (a new unit: no place or facing yet).
      if (g.role === "umpire" && u && g.umpire_units && g.umpire_units.includes(u)) {
        umpireDraft.unit = g.umpire_units.indexOf(u);
        umpireDraft.at = null;
        umpireDraft.facing = null;
        startFrom(g, umpireDraft.unit);
      }
      proposal = null;
      placeChoices = null;
      pressed = e && e.buttons ? { x: e.clientX, y: e.clientY } : null;
      if (last) render(last.g, last.key);
      pressed = null;
    };
    // Moving the selected unit anywhere (on a measured table). The pattern is one of the unit's
    // own offered moves, of the kind most of them are (a plain move: the same formation, the same
    // facing, no more than a place apart), the nearest to where it is dragged; sent to the place.
    const movable = !isGrid(v) && selected ? list.filter((c) => actionPoints(c.action, false).length === 1) : [];
    const signature = (a) => JSON.stringify(withLastPoint(a, [0, 0]));
    // (Several signatures differ only by the place: the most common kind, by the unit's own
    // moves first, then by the others, such as an Old Fritz wing's orders.)
    const ownMove = (c) => namesFirst(c.text, selected);
    const plain = (() => {
      const ownPlain = movable.filter((c) => ownMove(c) && isPlain(c.action));
      const pool = ownPlain.length ? ownPlain : movable.some(ownMove) ? movable.filter(ownMove) : movable;
      const tally = new Map();
      for (const c of pool) tally.set(signature(c.action), (tally.get(signature(c.action)) || 0) + 1);
      const top = [...tally].sort((x, y) => y[1] - x[1])[0];
      return top ? pool.filter((c) => signature(c.action) === top[0]) : [];
    })();
    const nearest = (pool, point) => {
      let best = null, dist = Infinity;
      for (const c of pool) {
        const [x, y] = actionPoints(c.action, false)[0];
        const d = Math.hypot(x - point[0], y - point[1]);
        if (d < dist) { dist = d; best = c; }
      }
      return best;
    };
    const patternFor = (point) => nearest(plain, point);
    const origin = () => { const p = unitPlaces(v).get(selected); return p ? [p.x, p.y] : null; };
    const check = async (point) => {
      const pattern = patternFor(point);
      if (!pattern) return { legal: false, why: "no move of this unit is offered now" };
      const action = withLastPoint(pattern.action, point);
      const verdict = await post(`/api/games/${id}/check`, { action, from: origin() }, token);
      return { ...verdict, action, own: ownMove(pattern), plain: ownMove(pattern) && isPlain(pattern.action) };
    };
    // Dropped: the unit's own move is made at once if the rules allow it; anything else (an
    // order to its wing) is proposed first.
    const propose = async (point, go) => {
      let verdict;
      try { verdict = await check(point); } catch (e) { err.textContent = e.message; return; }
      if (go && verdict.legal && verdict.plain) return send(verdict.action);
      proposal = { point, verdict, unit: selected };
      showVerdict(point, verdict);
      drawProposal();
    };
    // A unit of the side now acting that has no move to offer says so when dragged, with what it
    // may do instead, rather than staying put without a word.
    const stuck = () => {
      const own = list.filter(ownMove).map((c) => inWords(c.text, facingOf(selected)).replace(`${selected}: `, ""));
      return own.length
        ? `no move of ${selected} is offered now; it may only ${own.slice(0, 3).join("; or ")}${own.length > 3 ? ` (and ${own.length - 3} more)` : ""}`
        : `${selected} has nothing to do now`;
    };
    // (Not while deploying: a unit is then placed by dragging it, not moved.)
    // The selected unit is of the side deciding now; a drop of it where no choice goes is refused
    // in words, at the place (the map's verdict is drawn once the map is: `showVerdict`).
    const itsSideActs = selected && g.candidates.length > 0 && g.actor && g.actor.side === selectedSide;
    const refuseAt = (p, why) => {
      proposal = { point: p, verdict: { legal: false, why }, unit: selected };
      showVerdict(p, proposal.verdict);
      drawProposal();
    };
    const drag = plain.length ? { check, drop: (p) => propose(p, true), click: (p) => propose(p, false) }
      : !isGrid(v) && !v.deploy && itsSideActs ? { check: async () => ({ legal: false, why: stuck() }), drop: (p) => refuseAt(p, stuck()), click: () => {} } : null;
    // Turning: a knob in front of the unit, dragged round; the new facing is put in the move
    // proposed, or in the unit's plain move that keeps it nearest where it stands.
    const facingHolder = (a) => {
      if (!a || typeof a !== "object") return null;
      if ("facing" in a || "pivot" in a) return a;
      for (const w of Object.values(a)) { const h = facingHolder(w); if (h) return h; }
      return null;
    };
    const withFacing = (a, deg) => {
      const copy = JSON.parse(JSON.stringify(a));
      const h = facingHolder(copy);
      h["facing" in h ? "facing" : "pivot"] = deg;
      return copy;
    };
    const here = origin();
    // A turn where it stands, if the unit has one, is what the knob changes (its facing, its
    // place kept); else the unit's plain move nearest where it stands.
    const inPlace = here ? list.filter((c) => ownMove(c) && facingHolder(c.action) && (() => {
      const p = actionPoints(c.action, false);
      return p.length === 1 && Math.hypot(p[0][0] - here[0], p[0][1] - here[1]) < 0.3;
    })()) : [];
    const turnable = [...inPlace, ...plain.filter((c) => ownMove(c) && facingHolder(c.action))];
    const turn = turnable.length && here ? {
      at: here,
      facing: v.pieces.find((p) => p.unit === selected && typeof p.facing === "number")?.facing ?? 0,
      set: async (deg) => {
        const base = proposal && proposal.verdict.legal && facingHolder(proposal.verdict.action) ? proposal.verdict.action
          : inPlace.length ? inPlace[0].action : nearest(turnable, here)?.action;
        if (!base) return;
        const facing = Math.round(((deg % 360) + 360) % 360);
        const action = withFacing(base, facing);
        let verdict;
        try { verdict = await post(`/api/games/${id}/check`, { action }, token); } catch (e) { err.textContent = e.message; return; }
        const point = actionPoints(action, false)[0] || here;
        proposal = { point, unit: selected, verdict: { ...verdict, action, pattern: `facing ${bearing(facing)} (${facing}°)` } };
        showVerdict(point, proposal.verdict);
        drawProposal();
      },
    } : null;
    // A secret deployment to fix: drag units within the zone; each placing is checked with the
    // rules (the whole deployment so far), and the choice that fixes it carries the placings.
    const deployChoice = v.deploy ? g.candidates.find((c) => JSON.stringify(c.action).includes('"placements"')) : null;
    if (!deployChoice) offsets.clear();
    const deployAction = (offs) => {
      const placements = v.deploy.units.filter((u) => offs.has(u.unit)).map((u) => {
        const [dx, dy] = offs.get(u.unit);
        return { ...u.placement, at: [Math.round((u.placement.at[0] + dx) * 100) / 100, Math.round((u.placement.at[1] + dy) * 100) / 100] };
      });
      const action = JSON.parse(JSON.stringify(deployChoice.action));
      const put = (o) => { for (const k of Object.keys(o)) { if (k === "placements") o[k] = placements; else if (o[k] && typeof o[k] === "object") put(o[k]); } };
      put(action);
      return action;
    };
    // Units the scenario itself places beyond the band (a historical set-up): they may stay.
    const inZone = ([x, y]) => {
      const z = v.deploy ? v.deploy.zone : [];
      let inside = false;
      for (let i = 0, j = z.length - 1; i < z.length; j = i++) {
        const [xi, yi] = z[i], [xj, yj] = z[j];
        if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
      return inside;
    };
    const beyond = deployChoice && v.deploy.zone.length ? v.deploy.units.map((u) => u.unit).filter((u) => !offsets.has(u)
      && v.pieces.some((p) => p.unit === u && p.footprint && !inZone(p.footprint.shape === "circle" ? p.footprint.at : p.footprint.points[0]))) : [];
    const deploy = deployChoice ? {
      zone: v.deploy.zone,
      units: new Set(v.deploy.units.map((u) => u.unit)),
      offsets,
      place: async (unit, delta) => {
        const next = new Map(offsets);
        next.set(unit, delta);
        try {
          const verdict = await post(`/api/games/${id}/check`, { action: deployAction(next) }, token);
          if (verdict.legal) { offsets.set(unit, delta); deployNote = { ok: true, text: `${unit} placed: it will stand there.` }; }
          else deployNote = { ok: false, text: `${unit} may not stand there: ${verdict.why}.` };
        } catch (e) { deployNote = { ok: false, text: e.message }; }
        if (last) render(last.g, last.key);
      },
    } : null;
    // The umpire places and turns the unit of his form by dragging it on the map (no typing).
    const umpireMoves = g.role === "umpire" && !g.outcome && g.umpire_schema && selected
      && JSON.stringify(g.umpire_schema).includes('"facing"') && g.umpire_units && g.umpire_units.indexOf(selected) === umpireDraft.unit;
    const umpireAt = umpireMoves ? origin() : null;
    const umpireDrag = umpireMoves ? {
      check: async () => ({ legal: true, text: "the umpire may put it here" }),
      drop: (p) => { umpireDraft.at = p.map((c) => Math.round(c * 100) / 100); if (last) render(last.g, last.key); },
      click: (p) => { umpireDraft.at = p.map((c) => Math.round(c * 100) / 100); if (last) render(last.g, last.key); },
    } : null;
    const umpireTurn = umpireMoves && umpireAt ? {
      at: umpireDraft.at || umpireAt,
      facing: umpireDraft.facing ?? v.pieces.find((p) => p.unit === selected && typeof p.facing === "number")?.facing ?? 0,
      set: (deg) => { umpireDraft.facing = Math.round(((deg % 360) + 360) % 360); if (last) render(last.g, last.key); },
    } : null;
    const onMany = (choices) => { placeChoices = choices.map((c) => c.text); if (last) render(last.g, last.key); };
    // On a grid a unit of the side acting, dropped where none of its choices goes, is told why.
    const refuse = isGrid(v) && itsSideActs ? (p) => refuseAt(p, list.length
      ? "none of its choices now ends in that area (the yellow dots mark where it may go: no unit ends its move in an enemy's area, off the grid or on impassable ground)"
      : stuck()) : null;
    const { node, show, showVerdict } = drawMap(v, { onPick: pick, selected, targets, camera, previous: before, slideFrom: drawnView, animate, drag: drag || umpireDrag, refuse, press: pressed, turn: turn || umpireTurn, deploy, onMany, onWings: () => { if (last) render(last.g, last.key); },
      ghost: umpireMoves ? { unit: selected, at: umpireDraft.at, facing: umpireDraft.facing } : null });
    mapBox.replaceChildren(node);
    const proposalBox = el("div", { class: "proposal" });
    if (proposal && proposal.unit !== selected) proposal = null;
    if (proposal) showVerdict(proposal.point, proposal.verdict);
    proposalSlot.replaceChildren(proposalBox);
    drawProposal();
    function drawProposal() {
      // On a phone the selected unit's choices are a sheet at the bottom, the map above them;
      // it gives way to a proposal (it would cover "go there"), and comes back after it.
      const sheet = !!selected && list.length > 0 && !proposal;
      choices.classList.toggle("sheet", sheet);
      document.body.classList.toggle("sheeted", sheet);
      // (What the rules said of the unit last placed in a deployment shows here too, under the
      // map where it was dragged: on a phone the deployment's help is far below.)
      if (!proposal) {
        proposalBox.replaceChildren(...(deployNote && deployChoice ? [el("div", { class: deployNote.ok ? "legal" : "refused", "data-deploynote": "1" }, deployNote.text)] : []));
        return;
      }
      const { verdict } = proposal;
      const cancel = el("button", { class: "plain", "data-proposal": "cancel", onclick: () => { proposal = null; showVerdict(null); drawProposal(); } }, "cancel");
      proposalBox.replaceChildren(...(verdict.legal
        ? [el("div", { class: "legal" }, `${selected} may go there${verdict.pattern ? ` (as: ${verdict.pattern})` : ""}${verdict.text ? `: ${verdict.text}` : ""}.`),
          el("button", { "data-proposal": "go", onclick: () => send(verdict.action) }, "go there"), " ", cancel]
        : [el("div", { class: "refused" }, `${selected} may not go there${verdict.pattern ? ` (as: ${verdict.pattern})` : ""}: ${String(verdict.why).startsWith(`${selected}: `) ? verdict.why.slice(selected.length + 2) : verdict.why}.`),
          verdict.halt ? el("div", {}, `The rules would halt it at the yellow ring${verdict.halt_text ? ` (${verdict.halt_text})` : ""}. `,
            el("button", { "data-proposal": "halt", onclick: () => send(verdict.halt_action) }, "go as far as allowed")) : null,
          " ", cancel]).filter(Boolean));
    }

    // What changed since the last drawing, in a line.
    if (before) {
      const moved = movedUnits(before, v);
      // A unit the umpire (Game Control) moved or turned since is his, not its side's.
      const fresh = g.log.slice(Math.max(seenLog, 0)).map((l) => l.text).filter((t) => /^(the umpire|game control)\b/i.test(t));
      const byUmpire = [...moved.keys()].filter((u) => fresh.some((t) => t.includes(u)));
      const some = (us) => words(us.length > 4 ? [...us.slice(0, 3), `${us.length - 3} more`] : us);
      const bySide = v.sides.map((s, i) => [...moved.keys()].filter((u) => !byUmpire.includes(u) && v.pieces.find((p) => p.unit === u)?.side === i));
      const parts = [...(byUmpire.length ? [`the umpire moved ${some(byUmpire)}`] : []),
        ...bySide.map((us, i) => (us.length ? `the ${v.sides[i]} moved ${some(us)}` : null)).filter(Boolean)];
      const lines = g.log.length - seenLog;
      summary.textContent = `${parts.length ? `${parts.join("; ")}. ` : ""}${lines > 0 ? `${lines} new line${lines === 1 ? "" : "s"} in the account (marked).` : ""}`;
      summary.textContent = summary.textContent.charAt(0).toUpperCase() + summary.textContent.slice(1);
    } else summary.textContent = "";

    const mine = g.seat !== null && g.seat !== undefined && g.actor && g.actor.side === g.seat;
    // Whose turn, and since when (the last action's time, as the server kept it).
    const since = g.last_action_at ? sinceWords(g.last_action_at) : "";
    const who = g.outcome ? el("div", { class: "outcome" }, g.outcome.winner === null || g.outcome.winner === undefined ? "A draw" : `The ${v.sides[g.outcome.winner]} win`, `: ${g.outcome.reason}.`)
      : g.held ? el("div", { class: "actor" }, g.role === "umpire" ? "The turn's results wait for you: amend them or release them." : "The umpire is looking at the turn's results.")
      : el("div", { class: "actor" }, g.actor && g.actor.side !== undefined ? (mine && g.candidates.length ? "Your move" : `The ${v.sides[g.actor.side]} to act`) : "",
        g.actor && g.actor.side !== undefined && since ? el("span", { class: "quiet since" }, ` (since ${since})`) : "", g.actor && g.actor.side !== undefined ? "." : "",
        g.thinking && !(mine && g.candidates.length) ? " (the computer is thinking…)" : "");
    // The tab says it too, so that a player in another tab sees his turn come; with "tell me"
    // on, a sound and a notification when it comes while the page is hidden.
    const myMove = mine && g.candidates.length > 0 && !g.outcome;
    document.title = `${g.outcome ? "Over" : myMove ? "● Your move" : g.seat !== null && g.seat !== undefined ? "Waiting" : "Watching"} — ${v.title} — volley`;
    if (myMove && !wasMyMove && document.hidden && localStorage.getItem("volley:tell") === "1") tell(v.title);
    wasMyMove = myMove;
    const sideName = (k) => v.sides[Number(k)];
    const me = g.role === "umpire"
      ? `You are the umpire${g.viewing_as && g.viewing_as.side !== undefined ? `, looking as the ${v.sides[g.viewing_as.side]} see it` : ", seeing everything"}.`
      : g.seat !== null && g.seat !== undefined
        ? (g.hot_seat ? `Hot seat: the ${v.sides[g.seat]} have the screen.` : `You play the ${v.sides[g.seat]}.`)
        : "You are watching.";
    const heldRoles = Object.keys(roles());
    const switcher = heldRoles.length > 1 && !g.hot_seat ? el("select", { "aria-label": "look as", onchange: (e) => { chosen = e.target.value; refresh(); } },
      heldRoles.map((k) => el("option", { value: k, selected: k === key }, k === "umpire" ? "the umpire" : `the ${sideName(k)}`))) : null;
    // (Only where there is chance: dice, or cards; a diceless battle says so.)
    const chance = g.chance;
    const seed = !chance ? "No dice and no cards: every result follows from the rules and the players' choices."
      : g.seed.chosen
      ? `Practice game: its creator chose the seed (${g.seed.value}), so its ${chance} could be foreseen.`
      : g.seed.value !== null && g.seed.value !== undefined
        ? `The server's seed, kept secret until now: ${g.seed.value}${g.seed.salt ? `, salt ${g.seed.salt}` : ""} (SHA-256 of "volley seed ${g.seed.value}${g.seed.salt ? ` ${g.seed.salt}` : ""}" was published at the start: ${g.seed.commitment.slice(0, 16)}…).`
        : `The ${chance} come from the server's secret seed; its SHA-256 is ${g.seed.commitment.slice(0, 16)}…, and the seed is shown when the battle ends.`;
    status.replaceChildren(...[
      el("h4", {}, v.title),
      el("div", {}, v.sides.map((s, i) => `${s}: ${playerWords(g.players[i])}`).join("; ")),
      who,
      el("div", { class: "quiet role" }, me, switcher ? " Look as: " : "", switcher),
      el("div", { class: "quiet seed" }, seed),
      g.umpire !== "none" ? el("div", { class: "quiet umpire-seat" }, g.umpire === "seated"
        ? "An umpire is seated: he sees everything, both sides' orders included."
        : "An umpire is invited but not yet seated.",
      // (Who was handed the umpire's invitation, where a side's player made the game: he could
      // have claimed it himself.)
      typeof g.umpire_invited_by === "number" ? el("span", { class: "umpire-by" }, ` The umpire's invitation was handed to the ${v.sides[g.umpire_invited_by]}' player, who made the game${g.seat === g.umpire_invited_by ? "" : ": if you do not know who claimed it, ask"}.`) : null) : null].filter(Boolean));

    // Where the battle stands: the turn, the objectives and their holders, and what the rule set
    // says of each side (break points, exhaustion, turns left).
    standing.replaceChildren(...[
      el("h4", {}, "Where the battle stands"),
      el("div", { class: "turnline" }, `Turn ${v.turn}: ${v.phase}`),
      ...v.objectives.map((o) => el("div", { class: "objline" }, `★ ${o.name}: `,
        o.holder === null || o.holder === undefined ? el("span", { class: "quiet" }, "held by nobody")
          : el("span", { class: `side${o.holder}` }, `the ${v.sides[o.holder]}`))),
      ...(v.standing || []).map((s) => el("div", { class: s.side === null || s.side === undefined ? "" : `side${s.side}` }, s.text)),
    ]);

    // The order of battle: every unit of each side, its state and where it stands; a click
    // selects it (and the map shows it).
    const oobOpen = oob.open;
    const bySide = new Map();
    for (const [u, at] of unitPlaces(v)) {
      const p = v.pieces.find((q) => q.unit === u);
      const k = at.side ?? "none";
      if (!bySide.has(k)) bySide.set(k, []);
      const counters = new Map();
      for (const q of v.pieces.filter((q) => q.unit === u)) for (const c of q.counters || []) counters.set(c.kind, (counters.get(c.kind) || 0) + c.n);
      const count = [...counters].filter(([kind]) => kind !== "green").map(([kind, n]) => counted(n, kind)).join(", ");
      // A unit of many men (Blown Away): how many stand each way ("3 in ranks, 5 running").
      const standing = standingOf(v.pieces.filter((q) => q.unit === u), true) || p?.status;
      bySide.get(k).push(el("li", {}, el("button", { class: `plain oobunit${u === selected ? " sel" : ""}`, "data-oob": u, onclick: () => { selected = u; proposal = null; placeChoices = null; render(g, key); } },
        el("b", {}, u), ` — ${[standing, count].filter(Boolean).join("; ")}; ${whereWords(v, at.x, at.y)}`)));
    }
    oob.replaceChildren(el("summary", {}, "Order of battle"),
      ...[...bySide].map(([k, items]) => el("div", { class: k === "none" ? "" : `side${k}` }, el("h5", {}, k === "none" ? "Others" : `The ${v.sides[k]} (${items.length})`), el("ul", {}, items))));
    oob.open = oobOpen;

    // The selected unit: what it is, how it stands, what it may do.
    if (selected) {
      const pieces = v.pieces.filter((p) => p.unit === selected);
      // (Its facing is its men's in ranks, not a runner's who faces the rear.)
      const p = speaker(pieces);
      const counters = new Map();
      for (const q of pieces) for (const c of q.counters || []) counters.set(c.kind, (counters.get(c.kind) || 0) + c.n);
      unitBox.replaceChildren(...[
        el("h4", {}, "The unit"),
        el("div", { class: "unitname" }, el("strong", {}, selected), p && p.side !== null && p.side !== undefined ? ` (${v.sides[p.side]})` : ""),
        // Its pieces: one piece's description, or a unit of many figures counted by what they are
        // ("11 soldiers and 1 officer", never a bare "soldier").
        pieces.length > 1 && pieces.every((q) => q.label.split(/\s+/).length <= 2)
          ? el("div", { class: "unitlabel" }, `Its men: ${words([...pieces.reduce((m, q) => m.set(q.label, (m.get(q.label) || 0) + 1), new Map())]
            .map(([l, n]) => `${n} ${n === 1 ? l : l.endsWith("s") ? l : l.endsWith("man") ? `${l.slice(0, -3)}men` : `${l}s`}`))}${
            standingOf(pieces) ? `: ${standingOf(pieces)}` : ""}.`)
          : p && p.label !== selected ? el("div", { class: "unitlabel" }, sentence(p.label.startsWith(selected) ? p.label.slice(selected.length).replace(/^[\s:]+/, "") : p.label)) : null,
        p ? el("div", {}, [p.label.toLowerCase().includes(armOf(p)) || (armOf(p) === "general" && /commander|general/i.test(p.label)) ? null : armOf(p),
          // (A unit of many men told how they stand above; one piece, its state here.)
          p.label.toLowerCase().includes(p.status.toLowerCase()) || standingOf(pieces) ? null : p.status,
          typeof p.facing === "number" ? `facing ${bearing(p.facing)}` : null].filter(Boolean).join("; ")) : null,
        selectedGroup ? el("div", { class: "wing" }, `Of the ${selectedGroup}: `,
          words([...new Set(v.pieces.filter((q) => sameCommand(q) && q.unit && q.unit !== selected).map((q) => q.unit))]) || "no other unit", ".") : null,
        ...v.markers.filter((m) => selectedGroup && /order/.test(m.kind) && m.side === selectedSide && m.label.includes(`the ${selectedGroup}`)).map((m) => el("div", { class: "wingorder" }, m.label)),
        ...[...new Set(pieces.flatMap((q) => (q.ranges || []).map((r) => r.label)))].map((r) => el("div", { class: "quiet" }, `reach: ${r}`)),
        el("div", { class: "quiet" }, list.length ? `${list.length} choice${list.length === 1 ? "" : "s"} below (those that go elsewhere have a yellow dot on the map).${plain.length ? (plain.some(ownMove) ? " Or drag it anywhere (the rules say at once whether it may go, and where it would halt), or click a place." : ` Or drag it, or click a place, to order the ${selectedGroup || "command"} there (you are asked first).`) : ""}`
          : g.candidates.length ? "No choice names this unit now." : "It is not your move."),
      ].filter(Boolean));
      unitBox.hidden = false;
    } else {
      const touch = matchMedia("(pointer: coarse)").matches;
      unitBox.replaceChildren(el("h4", {}, "The unit"), el("div", { class: "quiet" }, touch
        ? "Tap a unit on the map to see it and its choices; drag the ground to pan, pinch or the buttons to zoom."
        : "Click a unit on the map to see it and its choices; drag the ground to pan, the wheel or the buttons to zoom."));
    }

    // Choices: all, or those naming the selected unit. The deployment's choice carries the
    // units placed otherwise.
    const shownList = list.map((c) => (c === deployChoice && offsets.size
      ? { ...c, action: deployAction(offsets), text: `fix the deployment, with ${words([...offsets.keys()])} placed otherwise` } : c))
      .filter((c) => !placeChoices || placeChoices.includes(c.text));
    // Choices that read alike (two places named by the same ground) are told apart by a number;
    // pointing at one shows where it goes.
    const seenText = new Map();
    for (const c of shownList) seenText.set(c.text, (seenText.get(c.text) || 0) + 1);
    // Choices that still read alike are told apart by where they end, against each other: the
    // way they lie apart most ("the northern", "the eastern"; with three or more, "the 2nd from
    // the north"); a number only where they end in one place.
    const apart = new Map();
    for (const [text, n] of seenText) {
      if (n < 2) continue;
      const alike = shownList.filter((c) => c.text === text);
      const ends = alike.map((c) => (c.points && c.points.length ? c.points[c.points.length - 1] : null));
      if (ends.some((e) => !e)) continue;
      const spread = (k) => Math.max(...ends.map((e) => e[k])) - Math.min(...ends.map((e) => e[k]));
      const [k, hi, lo] = spread(0) >= spread(1) ? [0, "east", "west"] : [1, "north", "south"];
      if (spread(k) < 1e-6) continue;
      // (Counted from the side the first of them lies towards, so a pair reads "the northern"
      // and "the southern".)
      const order = alike.map((c, i) => [c, ends[i][k]]).sort((a, b) => b[1] - a[1]);
      order.forEach(([c], i) => {
        const fromHi = i, fromLo = order.length - 1 - i;
        const ordinal = (m) => (m === 1 ? "2nd" : m === 2 ? "3rd" : `${m + 1}th`);
        const words = n === 2 ? `the ${i === 0 ? `${hi}ern` : `${lo}ern`} one`
          : fromHi === 0 ? `the ${hi}ernmost` : fromLo === 0 ? `the ${lo}ernmost` : `the ${ordinal(Math.min(fromHi, fromLo))} from the ${fromHi <= fromLo ? hi : lo}`;
        apart.set(c, words);
      });
    }
    const nth = new Map();
    const label = (c) => {
      const n = seenText.get(c.text);
      if (!n || n < 2) return c.text;
      if (apart.has(c)) return `${c.text} (${apart.get(c)})`;
      nth.set(c.text, (nth.get(c.text) || 0) + 1);
      return `${c.text} (${nth.get(c.text)} of ${n} alike: point at it to see where)`;
    };
    // Whole-side actions (ending a phase or a turn, giving the orders, beginning the battle) name
    // no unit or command: they stand apart, below the units' choices; ending a phase or turn
    // while units still have choices asks first, saying what is left (issue 29, item 6).
    const groups = new Set(v.pieces.map((p) => p.group).filter(Boolean));
    const namesNone = (c) => ![...unitNames].some((u) => c.text.includes(u)) && ![...groups].some((w) => c.text.includes(`the ${w}`));
    const ending = (c) => namesNone(c) && /^(end|orders given|done|pass)\b/i.test(c.text);
    const open = g.candidates.filter((c) => !namesNone(c));
    // (What is left that a slip would lose: a combat or a volley the phase offers; orders and
    // cards left as they are, the usual end of an orders phase, are not asked about.)
    const fights = open.filter((c) => /\b(engages|attacks|fires? at|combat)\b/i.test(c.text));
    const takeWhole = (c) => () => {
      if (!ending(c) || !fights.length) return take(c)();
      const fighters = [...new Set(fights.map((f) => [...unitNames].find((u) => f.text.startsWith(u))).filter(Boolean))];
      const left = `${fights.length} combat${fights.length === 1 ? "" : "s"} or volley${fights.length === 1 ? "" : "s"} not made${fighters.length ? ` (${words(fighters.slice(0, 4))}${fighters.length > 4 ? ", …" : ""})` : ""}`;
      confirmBox.replaceChildren(el("span", { class: "leftover" }, `“${c.text}” with ${left}? `),
        el("button", { "data-confirm": "yes", onclick: () => { confirmBox.replaceChildren(); send(c.action); } }, `${c.text} all the same`), " ",
        el("button", { class: "plain", "data-confirm": "no", onclick: () => confirmBox.replaceChildren() }, "not yet"));
    };
    // The unit a choice is about: the unit named first in its words (the longest name where one
    // is part of another).
    const unitOf = (c) => {
      let best = null, at = Infinity;
      for (const u of unitNames) {
        const i = c.text.indexOf(u);
        if (i >= 0 && (i < at || (i === at && u.length > best.length))) { best = u; at = i; }
      }
      return best;
    };
    const facingOf = (u) => speaker(v.pieces.filter((p) => p.unit === u && typeof p.facing === "number"))?.facing;
    // Choices that differ only by a bearing the words round alike ("form line facing north-east",
    // 37° and 30°) keep their numbers beside the words: "north-east (37°)".
    const saidCount = new Map();
    for (const c of shownList) {
      const w = inWords(c.text, facingOf(unitOf(c)));
      if (w !== c.text) saidCount.set(w, (saidCount.get(w) || 0) + 1);
    }
    const button = (c, whole) => {
      const text = label(c);
      const plainSaid = inWords(c.text, facingOf(unitOf(c)));
      const degrees = [...c.text.matchAll(/(\d+(?:\.\d+)?)°(?! off)/g)].map((m) => `${m[1]}°`);
      const said = inWords(text, facingOf(unitOf(c))) + ((saidCount.get(plainSaid) || 0) > 1 && degrees.length ? ` (${degrees.join(", ")})` : "");
      return el("button", {
        class: `choice${whole ? " whole" : ""}`,
        disabled: busy,
        title: said !== text ? text : null,
        "data-text": text,
        onmouseenter: () => show(c), onmouseleave: () => show(null), onfocus: () => show(c), onblur: () => show(null),
        onclick: whole ? takeWhole(c) : take(c),
      }, said);
    };
    const wholeList = g.candidates.filter(namesNone).filter((c) => !placeChoices && c !== deployChoice);
    const unitList = shownList.filter((c) => !wholeList.includes(c));
    // Many choices are grouped so that a person can scan them: by unit (each folded, with what
    // it may do in short), or, for the selected unit, by kind (the first open); a filter box
    // narrows them all as one types.
    const kindOf = (c) => {
      const u = unitOf(c);
      // (An order to a command, "order the left wing: attack …", is of the kind it orders.)
      const ordered = !u && /^order the [^:]+: (.*)$/.exec(c.text);
      if (ordered) return (ordered[1].match(/^[a-z]+(?: (?:to|in))?/i) || ["order"])[0];
      // (A choice that says its verb before the unit, "move General Hart 2 areas north", is of
      // that verb; else of the first word after the unit, an article passed over.)
      const before = u ? c.text.slice(0, c.text.indexOf(u)).trim() : "";
      const rest = before || (u ? c.text.slice(c.text.indexOf(u) + u.length) : c.text).replace(/^[\s:,]+/, "").replace(/^(?:the|a|an) /i, "");
      return (rest.match(/^[a-z]+(?: (?:to|at|up|back|out|in))?/i) || ["other"])[0];
    };
    const groupBy = (cs, keyOf) => {
      const m = new Map();
      for (const c of cs) { const k = keyOf(c); if (!m.has(k)) m.set(k, []); m.get(k).push(c); }
      return [...m];
    };
    let unitButtons;
    const openAll = localStorage.getItem("volley:groups") === "open";
    if (!selected && !placeChoices && unitList.length > 12) {
      // (By the unit a choice names; an order by the command it goes to; the rest together.)
      const groupOf = (c) => unitOf(c) || /^order (the [^:]+):/.exec(c.text)?.[1] || "other choices";
      unitButtons = groupBy(unitList, groupOf).map(([u, cs]) => el("details", { class: "choicegroup", "data-group": u, open: openAll },
        el("summary", {}, el("b", {}, u), ` — ${cs.length} choice${cs.length === 1 ? "" : "s"}: ${words([...new Set(cs.map(kindOf))].slice(0, 5))}`),
        cs.map((c) => button(c, false))));
    } else if (unitList.length > 10) {
      unitButtons = groupBy(unitList, kindOf).map(([k, cs], i) => el("details", { class: "choicegroup", "data-group": k, open: openAll || i === 0 },
        el("summary", {}, el("b", {}, k), ` — ${cs.length}`), cs.map((c) => button(c, false))));
    } else unitButtons = unitList.map((c) => button(c, false));
    const filter = unitList.length > 12 ? el("input", { type: "search", class: "choicefilter", placeholder: "filter the choices (a unit, a word)", "aria-label": "filter the choices",
      value: choiceFilter,
      oninput: (e) => { choiceFilter = e.target.value; applyFilter(); } }) : null;
    const expand = unitButtons.length && unitButtons[0].tagName === "DETAILS" ? el("label", { class: "quiet expand" },
      el("input", { type: "checkbox", "data-expand": "1", checked: openAll, onchange: (e) => { localStorage.setItem("volley:groups", e.target.checked ? "open" : ""); render(g, key); } }),
      " open every group") : null;
    const buttons = [
      filter,
      expand,
      ...unitButtons,
      ...(wholeList.length ? [el("div", { class: "wholeside" }, el("div", { class: "quiet" }, "For your whole side:"), ...wholeList.map((c) => button(c, true)))] : []),
    ].filter(Boolean);
    // (The filter hides what does not match and opens the groups that still hold some.)
    const applyFilter = () => {
      const words = choiceFilter.trim().toLowerCase().split(/\s+/).filter(Boolean);
      for (const b of choices.querySelectorAll("button.choice:not(.whole)")) {
        const t = `${b.textContent} ${b.dataset.text || ""}`.toLowerCase();
        b.hidden = !words.every((w) => t.includes(w));
      }
      for (const d of choices.querySelectorAll("details.choicegroup")) {
        const any = [...d.querySelectorAll("button.choice")].some((b) => !b.hidden);
        d.hidden = !any;
        if (words.length && any) d.open = true;
      }
    };
    const waiting = g.outcome ? "The battle is over."
      : g.held ? (g.role === "umpire" ? "The turn's results are held: the players see the battle as it was before them." : "The umpire is looking at the turn's results.")
        : g.role === "umpire" ? "The sides decide; the umpire may step in below."
          : g.seat === null || g.seat === undefined ? (g.actor && g.actor.side !== undefined ? `You are watching: the ${v.sides[g.actor.side]} decide.` : "You are watching.")
            : mine ? "Nothing to choose just now." : "Waiting for the other side.";
    choices.replaceChildren(...[
      el("h4", {}, g.candidates.length ? `Your choices${selected ? ` for ${selectedGroup ? `the ${selectedGroup}` : selected}` : ""}` : "Choices"),
      placeChoices ? el("div", { class: "manyhere" }, `${shownList.length} choices lead to that place: pick one. `,
        el("button", { class: "plain", "data-many": "all", onclick: () => { placeChoices = null; render(g, key); } }, "show the others too")) : null,
      selected ? el("button", { class: "plain", onclick: () => { selected = null; placeChoices = null; proposal = null; render(g, key); } }, "show every choice") : null,
      deployChoice ? el("div", { class: "deployhelp" }, "Your deployment is secret until both sides have fixed theirs: drag your units within the green band, then fix it.",
        beyond.length ? ` The scenario places ${words(beyond)} beyond the band: ${beyond.length === 1 ? "it stays" : "they stay"} there unless you place ${beyond.length === 1 ? "it" : "them"} within it.` : "",
        deployNote ? el("div", { class: deployNote.ok ? "legal" : "refused" }, deployNote.text) : null,
        offsets.size ? el("button", { class: "plain", "data-deploy": "reset", onclick: () => { offsets.clear(); deployNote = null; render(g, key); } }, "put them back") : null) : null,
      g.candidates.length ? el("div", { class: "choices" }, buttons) : el("div", { class: "quiet waiting" }, waiting),
      // Undo, as Rally the Troops has it: the side's own last action, while nothing was drawn or
      // shown since and the decision is still his (the server says when; Ctrl+Z too).
      g.undo ? el("button", { class: "plain undo", "data-undo": "1", title: "take back your last action (Ctrl+Z): no die was thrown, no card drawn, nothing new shown", onclick: () => undo() }, "↶ take back my last action") : null,
      confirmBox,
      g.candidates.length ? el("label", { class: "quiet asktoggle" }, el("input", { type: "checkbox", "data-ask": "1", checked: localStorage.getItem("volley:confirm") === "1",
        onchange: (e) => localStorage.setItem("volley:confirm", e.target.checked ? "1" : "0") }), " ask before sending a choice") : null,
      err].filter(Boolean));
    if (choiceFilter) applyFilter();
    // On a phone the selected unit's choices are a sheet at the bottom, the map above them.
    // (The sheet, and its folding away while a move proposed on the map waits: `drawProposal`.)
    if (g.role === "umpire") umpireDesk(g, send);
    else umpireBox.replaceChildren();
    umpireBox.hidden = g.role !== "umpire";
    const wasOpen = notes.open;
    notes.replaceChildren(el("summary", {}, "Notes on the scenario and the rules"), ...v.notes.map((n) => el("div", {}, n)));
    notes.open = wasOpen;
    const from = before && seenLog >= 0 ? seenLog : g.log.length;
    const shownLines = g.log.slice(-300);
    const offset = g.log.length - shownLines.length;
    const lines = shownLines.map((l, i) => el("div", { class: `${/^turn \d/i.test(l.text) ? "turn" : ""}${offset + i >= from ? " fresh" : ""}` }, l.text));
    const box = el("div", { class: "log" }, lines);
    log.replaceChildren(el("h4", {}, "What happened"), box);
    box.scrollTop = box.scrollHeight;
    const base = `${location.origin}${location.pathname}`;
    // The invitations, with whether each was claimed and its player is here, and a copy button;
    // those not yet claimed stand at the top of the panel, where the creator looks.
    const seatState = (i) => {
      if (i.role === "umpire") return g.umpire === "seated" ? "claimed" : "not claimed yet";
      const seat = (g.seats || [])[i.role.side];
      if (!seat) return "";
      return !seat.taken ? "not claimed yet" : seat.connected ? "claimed; the player is here" : "claimed; the player is away";
    };
    const copy = (text) => el("button", { class: "plain copy", type: "button", "data-copy": "1", onclick: async (e) => {
      try { await navigator.clipboard.writeText(text); e.target.textContent = "copied"; } catch { e.target.textContent = "select it and copy"; }
    } }, "copy");
    const inviteOf = (i, top = false) => {
      const url = `${base}#/join/${id}/${i.code}`;
      return el("div", { class: "invite", "data-invite-state": seatState(i) },
        i.role === "umpire" ? "Invitation for the umpire" : `Invitation for the ${sideName(i.role.side)}`,
        " (send it to one person: it works once) ", el("span", { class: "quiet" }, `— ${seatState(i)}`), ": ",
        el("div", { class: "link", [top ? "data-invite-top" : "data-invite"]: roleKey(i.role) }, url), copy(url));
    };
    const invites = held(id).invitations.map((i) => inviteOf(i));
    const waitingFor = held(id).invitations.filter((i) => seatState(i) === "not claimed yet");
    invitesTop.replaceChildren(...(waitingFor.length && !g.outcome ? [el("h4", {}, "Waiting for a player"), ...waitingFor.map((i) => inviteOf(i, true))] : []));
    invitesTop.hidden = !invitesTop.childNodes.length;
    // A seat of this browser's, to open on another device: the credential travels in the link's
    // fragment (after #), which a browser never sends to a server.
    const mySeats = Object.entries(roles()).filter(([k]) => k !== "umpire" || g.role === "umpire");
    const personal = mySeats.map(([k, tok]) => {
      const url = `${base}#/seat/${id}/${k}/${tok}`;
      return el("details", { class: "personal" }, el("summary", {}, `Open ${k === "umpire" ? "the umpire's seat" : `your seat (the ${sideName(k)})`} on another device`),
        el("div", { class: "quiet" }, "This link is your seat: whoever opens it plays as you. Keep it to yourself."),
        el("div", { class: "link", "data-personal": k }, url), copy(url));
    });
    // While a seat waits for its player, look again now and then (claims and comings are not news).
    const waitingSeat = (g.seats || []).some((q) => q.player === "human" && (!q.taken || !q.connected)) && !g.outcome;
    if (waitingSeat && !lookAgain) lookAgain = setInterval(() => { if (!closed && !busy) refresh(true); }, 4000);
    if (!waitingSeat && lookAgain) { clearInterval(lookAgain); lookAgain = null; }
    const tellBox = g.seat !== null && g.seat !== undefined && !g.outcome ? el("label", { class: "quiet tell" },
      el("input", { type: "checkbox", "data-tell": "1", checked: localStorage.getItem("volley:tell") === "1", onchange: async (e) => {
        localStorage.setItem("volley:tell", e.target.checked ? "1" : "0");
        if (e.target.checked && "Notification" in window && Notification.permission === "default") { try { await Notification.requestPermission(); } catch { /* refused */ } }
      } }), " tell me when it is my move (a sound, and a notification if allowed)") : null;
    links.replaceChildren(el("h4", {}, "Links"), ...invites, ...personal, ...(tellBox ? [tellBox] : []),
      el("div", {}, g.private ? "A private game: watch it with " : "Watch it with ", el("span", { class: "link" }, `${base}#/game/${id}`)),
      ...(g.outcome ? [el("div", {}, el("a", { href: `/api/games/${id}/log`, download: `volley-${id}.jsonl` }, "The battle's log, signed by the server"),
        " (check it with ", el("code", {}, "volley replay"), ": every die against the seed)")] : []),
      el("div", {}, el("a", { href: `#/replay/${id}` }, "Replay this battle"), " · ", el("a", { href: `#/rules/${g.ruleset}`, "data-rules": g.ruleset }, "How these rules play"), ...(g.players.every((p) => p !== "human") && !g.outcome ? [" · ", el("a", { href: `#/replay/${id}`, "data-pace": "1" }, "watch it at your own pace")] : []), " · ", el("a", { href: "#/" }, "All battles")));
  }

  // The umpire's desk in a live game: look as either side, and (where the rules give the
  // umpire actions) grant a tactical advantage or adjust, move or turn a unit, with a reason.
  function umpireDesk(g, send) {
    const v = g.view;
    const looking = el("select", { "aria-label": "view as", onchange: (e) => { viewAs = e.target.value; refresh(); } },
      el("option", { value: "", selected: viewAs === "" }, "everything"),
      ...v.sides.map((s, i) => el("option", { value: String(i), selected: viewAs === String(i) }, `as the ${s} see it`)));
    const problem = el("div", { class: "error" });
    const parts = [el("h4", {}, "The umpire"), el("div", {}, "Look at the battle: ", looking), problem];
    if (g.held) {
      parts.push(el("div", { class: "held" }, "The players wait for this turn's results. Amend them below if need be, then ",
        el("button", { "data-release": "1", onclick: async () => {
          try { await post(`/api/games/${id}/release`, {}, roles().umpire); await refresh(); } catch (e) { problem.textContent = e.message; }
        } }, "release the results")));
    }
    if (g.umpire_units && g.umpire_schema && !g.outcome) {
      // The form from the rule set's own description of the umpire's actions: the unit picked on
      // the map (or from the list, by side), placed and turned by dragging it there.
      const sideOf = new Map(v.pieces.filter((p) => p.unit).map((p) => [p.unit, p.side]));
      // A field the unit's own values leave out does not apply to it (a second line's status
      // to a unit of one line): the form does not ask for it.
      // (The unit is the form's first field: by the others, it is chosen.)
      const applies = (name) => {
        const values = g.umpire_values && umpireDraft.unit !== null ? g.umpire_values[umpireDraft.unit] : null;
        if (!values || typeof values !== "object" || !values.kind || name in values) return true;
        const own = (g.umpire_schema.oneOf || []).map((o) => (o.$ref ? g.umpire_schema.$defs[o.$ref.split("/").pop()] : o))
          .find((d) => d?.properties?.kind?.const === values.kind);
        return !own || !(name in own.properties);
      };
      const field = (name) => {
        if (!applies(name)) return { node: null, get: () => null };
        if (name === "unit") {
          const groups = [...v.sides.map((s, i) => [`The ${s}`, i]), ["Off the table", null]].map(([label, side]) => {
            const units = g.umpire_units.map((n, i) => [n, i]).filter(([n]) => (side === null ? !sideOf.has(n) : sideOf.get(n) === side));
            return units.length ? el("optgroup", { label }, units.map(([n, i]) => el("option", { value: String(i), selected: i === umpireDraft.unit }, n))) : null;
          }).filter(Boolean);
          const sel = el("select", { "aria-label": "unit", name: "unit" }, groups);
          if (umpireDraft.unit === null) umpireDraft.unit = Number(sel.value);
          sel.addEventListener("change", () => {
            umpireDraft.unit = Number(sel.value);
            umpireDraft.at = null;
            umpireDraft.facing = null;
            startFrom(g, umpireDraft.unit);
            selected = g.umpire_units[umpireDraft.unit];
            if (last) render(last.g, last.key);
          });
          return { node: el("span", {}, sel, el("span", { class: "quiet" }, " (or click it on the map)")), get: () => Number(sel.value) };
        }
        // Where the umpire put it, in words: how far and which way from where it stands, and
        // where that is (the place by the ground; the coordinates on hover).
        const movedWords = (to) => {
          const at = selected ? unitPlaces(v).get(selected) : null;
          const here = at ? [at.x, at.y] : null;
          const unitWord = { cm: "cm", inch: "\"", area: " areas", mm: "mm" }[v.unit] ?? "";
          const d = here ? Math.hypot(to[0] - here[0], to[1] - here[1]) : 0;
          const way = here && d > 0.05 ? `${d.toFixed(1)}${unitWord} ${bearing((Math.atan2(to[0] - here[0], to[1] - here[1]) * 180) / Math.PI)}, ` : "";
          return `moved ${way}${whereWords(v, to[0], to[1])} (the dashed outline)`;
        };
        if (name === "at" || name === "facing") {
          const val = umpireDraft[name];
          const words = val === null ? (name === "at" ? "where it stands (drag it on the map to move it)" : "as it faces (turn it by the knob on the map)")
            : name === "at" ? movedWords(val) : `facing ${bearing(val)} (${val}°)`;
          const clear = val === null ? null : el("button", { class: "plain", type: "button", onclick: () => { umpireDraft[name] = null; if (last) render(last.g, last.key); } }, "undo");
          return { node: el("span", { class: `umpire-${name}`, "data-umpire-field": name, title: name === "at" && val ? `to (${val[0].toFixed(1)}, ${val[1].toFixed(1)}) on the table` : null }, words, " ", clear), get: () => umpireDraft[name] };
        }
        return null;
      };
      const form = formFor(g.umpire_schema, g.umpire_schema, "", "", umpireDraft.value, field);
      // What he types is kept across drawings (the map's news redraws the page).
      const keep = () => { try { umpireDraft.value = form.get(); } catch { /* half filled */ } };
      form.node.addEventListener("input", keep);
      form.node.addEventListener("change", keep);
      // (After the act, the place and facing given are spent: a second act does not move it twice.)
      const go = el("button", { "data-umpire-act": "1", onclick: async () => { keep(); await send(form.get()); umpireDraft.at = null; umpireDraft.facing = null; if (last) render(last.g, last.key); } }, "Act as the umpire");
      parts.push(el("div", { class: "umpireform" }, form.node), el("div", {}, go));
    } else if (!g.outcome) {
      parts.push(el("div", { class: "quiet" }, "These rules give the umpire no actions of his own: he watches, with every secret in view."));
    }
    // What the sides tried and the rules refused, with the rule: the players read only words.
    if (g.refusals && g.refusals.length) {
      parts.push(el("details", { class: "refusals" }, el("summary", {}, `Refused (${g.refusals.length})`),
        el("ul", {}, ...g.refusals.slice().reverse().map((r) =>
          el("li", {}, el("b", {}, `${v.sides[r.side]}: `), `${r.action} — ${r.reason}`)))));
    }
    umpireBox.replaceChildren(...parts);
  }

  // Keys: Escape clears the selection.
  const onKey = (e) => {
    if (e.key === "Escape" && selected && last) { selected = null; render(last.g, last.key); }
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z" && !(e.target instanceof HTMLInputElement)) { e.preventDefault(); undo(); }
  };
  document.addEventListener("keydown", onKey);

  function connect() {
    if (closed) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${proto}://${location.host}/api/games/${id}/ws`);
    // Say who watches: the count it tells is of the actions this role may know of.
    socket.onopen = () => {
      retry = 1000;
      if (polling) { clearInterval(polling); polling = null; }
      const again = opened;
      opened = true;
      const key = current(actor);
      socket.send(JSON.stringify(key ? { token: roles()[key] } : {}));
      // Back after a break: what happened meanwhile (and the old error goes).
      if (again) refresh(true);
    };
    socket.onmessage = (m) => {
      // Only news: our own action is already drawn when its answer comes back.
      let n = -1, heldNow = null;
      try { ({ actions: n, held: heldNow } = JSON.parse(m.data)); } catch { /* refresh anyway */ }
      if (n !== shown || heldNow !== shownHeld) refresh(true);
    };
    // Lost (or refused: too many watchers from one address): try again, waiting longer each
    // time (up to half a minute), and meanwhile ask for news every few seconds.
    socket.onclose = () => {
      if (closed) return;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
      polling ||= setInterval(() => { if (!closed) refresh(true); }, 3000);
    };
  }
  // Watch for news once the game is known to be there.
  refresh().then(() => connect());
  return () => { closed = true; document.body.classList.remove("sheeted"); if (polling) clearInterval(polling); if (lookAgain) clearInterval(lookAgain); document.title = "volley"; document.removeEventListener("keydown", onKey); if (socket) socket.close(); };
}

/**
 * How the men of a unit of many pieces stand: "3 in ranks, 5 running, 2 fallen" (with `always`,
 * "12 in ranks" too); `null` for one piece, or when they all stand alike and not `always`.
 */
/** The piece that speaks for a unit: one still in its ranks (not running, fallen or routed), else the first. */
export function speaker(pieces) {
  return pieces.find((q) => !/running|fallen|routed|dead|gone/i.test(q.status || "")) || pieces[0];
}

function standingOf(pieces, always = false) {
  if (pieces.length < 2 || (!always && new Set(pieces.map((q) => q.status)).size < 2)) return null;
  const n = pieces.reduce((m, q) => m.set(q.status, (m.get(q.status) || 0) + 1), new Map());
  return [...n].map(([st, k]) => `${k} ${st}`).join(", ");
}

/**
 * A choice's words with its bearings said as a wargamer says them: "to 306°" for a unit facing
 * north is "half left"; other bearings by the compass. (The numbers show on hover.)
 */
export function inWords(text, facing) {
  const turnWords = (deg) => {
    if (typeof facing !== "number") return bearingWord(deg);
    const d = ((((deg - facing) % 360) + 540) % 360) - 180; // -180..180, + to the right
    const a = Math.abs(d), side = d > 0 ? "right" : "left";
    if (a < 10) return "straight ahead";
    if (a < 30) return `a little ${side}`;
    if (a < 67.5) return `half ${side}`;
    if (a < 112.5) return `${side}`;
    if (a < 170) return `back to the ${side}`;
    return "about";
  };
  const bearingWord = (deg) => `towards the ${bearing(deg)}`;
  // (Only a facing to take, "to 306°", is a bearing: an angle "30° off the front" is relative
  // already and stays as it is.)
  // (A bearing the rules' account gives by the compass and in degrees, "to face east (90°)", is
  // said as any other: by the turn it is.)
  return text
    .replace(/\b(?:north|south|east|west|north-east|north-west|south-east|south-west) \((\d+(?:\.\d+)?)°\)/g, (m, deg) => `${deg}°`)
    .replace(/\b(pivot|wheel|turn|face|facing)s? to (\d+(?:\.\d+)?)°(?! off)/gi, (m, verb, deg) => `${verb} ${turnWords(Number(deg))}`)
    .replace(/\bto face (\d+(?:\.\d+)?)°(?! off)/g, (m, deg) => `to face ${turnWords(Number(deg))}`)
    .replace(/\bto (\d+(?:\.\d+)?)°(?! off)/g, (m, deg) => turnWords(Number(deg)))
    .replace(/\bfacing (\d+(?:\.\d+)?)°(?! off)/g, (m, deg) => `facing ${bearing(Number(deg))}`);
}

/** "14:02, 3 minutes ago" for a time in seconds since 1970. */
function sinceWords(at) {
  const d = new Date(at * 1000);
  const mins = Math.max(0, Math.round((Date.now() - d.getTime()) / 60000));
  const clock = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const ago = mins < 1 ? "just now" : mins < 60 ? `${mins} minute${mins === 1 ? "" : "s"} ago` : mins < 48 * 60 ? `${Math.round(mins / 60)} hours ago` : `${Math.round(mins / 1440)} days ago`;
  return `${mins >= 24 * 60 ? d.toLocaleDateString() + " " : ""}${clock}, ${ago}`;
}

/** A sound and, if allowed, a notification: it is the player's move in `title`. */
function tell(title) {
  try {
    const a = new AudioContext();
    const o = a.createOscillator(), gain = a.createGain();
    o.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, a.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, a.currentTime + 0.4);
    o.connect(gain).connect(a.destination);
    o.start();
    o.stop(a.currentTime + 0.4);
  } catch { /* no sound here */ }
  try { if ("Notification" in window && Notification.permission === "granted") new Notification("Your move", { body: title }); } catch { /* none */ }
}

/** Where a point of the table is, in words: in a named piece of ground, near an objective, or a part of the table. */
export function whereWords(view, x, y) {
  const inside = (pts) => {
    let c = false;
    for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
      const [xi, yi] = pts[i], [xj, yj] = pts[j];
      if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
    }
    return c;
  };
  const grid = /^\[[\d\s,.-]+\]$/;
  const ground = view.terrain.find((f) => f.closed && f.name && !grid.test(f.name) && f.kind !== "open" && inside(f.points));
  // (A proper name, "Lobositz", takes no article; "the vineyards" has its own.)
  const the = (name) => (/^the /i.test(name) || /^[A-Z]/.test(name) ? name : `the ${name}`);
  if (ground) return `${/hill|ridge|berg/i.test(`${ground.kind} ${ground.name}`) ? "on" : "in"} ${the(ground.name)}`;
  const size = Math.max(view.width, view.depth);
  const near = view.objectives.map((o) => {
    const [cx, cy] = centre({ shape: "polygon", points: o.points });
    return { o, d: Math.hypot(cx - x, cy - y) };
  }).sort((a, b) => a.d - b.d)[0];
  if (near && near.d < size / 8) return `near ${the(near.o.name)}`;
  const ns = y > (view.depth * 2) / 3 ? "north" : y < view.depth / 3 ? "south" : "";
  const ew = x > (view.width * 2) / 3 ? "east" : x < view.width / 3 ? "west" : "";
  return ns || ew ? `in the ${[ns, ew].filter(Boolean).join("-")} of the table` : "in the middle of the table";
}

/** A piece's description as a sentence: "(line infantry, quality C): 8 figures" reads "Line infantry, quality C: 8 figures". */
function sentence(text) {
  const t = text.replace(/^\(([^)]*)\)/, "$1").trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// The first page: the battles (each with a picture of its table and its armies named: the
// bundled ones and the server's folder's), a scenario file of your own (checked by the server,
// its problems shown at their line and column, a good one played like the others), the umpire's
// desks, and the games on this server, yours marked.

import { el, api, post, held, keep, roleKey, words, rulesetNames, playerWords } from "./util.js";

// The rule sets' names, by id, from the server's catalog (set as the page is shown).
let RULESETS = {};
// Games a page of the list of games.
const PAGE = 50;
import { drawMap } from "./map.js";

/** Show the first page in `main`. */
export async function showHome(main) {
  main.replaceChildren(el("p", { class: "quiet" }, "Loading…"));
  let scenarios, games, lobby, calculators;
  try {
    // (The games a page at a time, the newest first; the lobby from its own list, of the games
    // with a seat open to anyone.)
    [scenarios, games, lobby, calculators, RULESETS] = await Promise.all([api("/api/scenarios"), api(`/api/games?per_page=${PAGE}`),
      api("/api/games?open=true&per_page=100"), api("/api/desk"), rulesetNames()]);
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, `The server did not answer: ${e.message}`),
      el("button", { onclick: () => showHome(main) }, "Try again"));
    return;
  }
  const titles = new Map(scenarios.map((s) => [s.name, s]));
  // The battles by rule set, each with its guide; the smallest battle of each first, to start with.
  const size = (s) => (s.units ? s.units[0] + s.units[1] : 1e9);
  const byRuleset = new Map();
  for (const s of scenarios) {
    if (!byRuleset.has(s.ruleset)) byRuleset.set(s.ruleset, []);
    byRuleset.get(s.ruleset).push(s);
  }
  const cards = [...byRuleset].map(([rs, list]) => {
    const bundled = list.filter((s) => !s.file);
    const first = bundled.length ? bundled.reduce((a, b) => (size(b) < size(a) ? b : a)) : null;
    const ordered = first ? [first, ...list.filter((s) => s !== first)] : list;
    return el("section", { class: "ruleset", "data-ruleset": rs },
      el("h3", {}, RULESETS[rs] || rs, " ", el("a", { href: `#/rules/${rs}`, class: "howto" }, "how it plays")),
      // (On a phone a rule set's battles lie side by side, to swipe through.)
      ordered.length > 1 ? el("div", { class: "swipe quiet" }, `${ordered.length} battles: swipe sideways for the others ›`) : null,
      el("div", { class: "cards" }, ordered.map((s) => card(s, null, s === first))));
  });
  const when = (t) => {
    if (!t) return "";
    const d = new Date(t * 1000);
    return d.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  };
  const sorted = [...games].sort((x, y) => (y.created || 0) - (x.created || 0));
  const row = (g) => {
    const mine = Object.keys(held(g.id).roles);
    const s = titles.get(g.scenario_name);
    const sides = s && s.sides && s.sides.length === 2 ? s.sides : null;
    const yours = mine.length ? (mine.includes("umpire") ? "you umpire" : `yours (${words(mine.filter((k) => k !== "umpire").map((k) => (sides ? `the ${sides[Number(k)]}` : `side ${Number(k) + 1}`)))})`) : "";
    return el("tr", { class: mine.length ? "yours" : "" },
      el("td", {}, when(g.created)),
      el("td", {}, s ? s.title : g.scenario_name, el("div", { class: "quiet" }, RULESETS[g.ruleset] || g.ruleset)),
      el("td", {}, g.players.map((p, i) => `${sides ? `${sides[i]}: ` : ""}${playerWords(p)}`).join("; ")),
      el("td", {}, (g.status || `${g.actions} actions`) + (g.hot_seat ? " (hot seat)" : "")),
      el("td", { class: "mine" }, yours),
      el("td", {}, el("a", { href: `#/game/${g.id}` }, mine.length ? "play" : "watch"), " · ", el("a", { href: `#/replay/${g.id}` }, "replay")));
  };
  const rows = sorted.map(row);
  // Older games, a page at a time.
  let shownPages = 1;
  const older = el("button", { class: "plain", "data-older": "1", onclick: async () => {
    older.disabled = true;
    try {
      const more = await api(`/api/games?per_page=${PAGE}&page=${shownPages + 1}`);
      shownPages += 1;
      table.append(...more.map(row));
      older.disabled = false;
      if (more.length < PAGE) older.remove();
    } catch (e) { older.textContent = `older games: ${e.message}`; }
  } }, "older games");
  const table = el("table", { class: "games" }, el("tr", {}, el("th", {}, "begun"), el("th", {}, "battle"), el("th", {}, "players"), el("th", {}, "where it stands"), el("th", {}, ""), el("th", {}, "")), rows);
  // The lobby: seats of games open to anyone, not yet taken.
  const openSeats = [...lobby].sort((x, y) => (y.created || 0) - (x.created || 0)).filter((g) => (g.open_seats || []).length && !Object.keys(held(g.id).roles).length).flatMap((g) => {
    const sc = titles.get(g.scenario_name);
    return g.open_seats.map((seat) => el("li", {}, el("b", {}, sc ? sc.title : g.scenario_name), ` (${RULESETS[g.ruleset] || g.ruleset}): `,
      `the ${sc && sc.sides && sc.sides[seat.side] ? sc.sides[seat.side] : `side ${seat.side + 1}`}, against ${playerWords(g.players[1 - seat.side])} `,
      el("button", { "data-take": `${g.id}/${seat.side}`, onclick: () => { location.hash = `#/join/${g.id}/${seat.invitation}`; } }, "take this seat")));
  });
  // Your games first: those this browser holds a seat or the umpire's place in; those waiting
  // for your move first (marked), then the newest. Twelve at most here; the rest are in the list
  // of games below, marked as yours.
  const myMove = (g) => {
    const roles = Object.keys(held(g.id).roles).filter((k) => k !== "umpire").map(Number);
    return !g.over && typeof g.to_act === "number" && roles.includes(g.to_act);
  };
  const mineAll = sorted.filter((g) => Object.keys(held(g.id).roles).length);
  const mineSorted = [...mineAll.filter(myMove), ...mineAll.filter((g) => !myMove(g))];
  const YOURS_SHOWN = 12;
  const yoursNow = mineSorted.slice(0, YOURS_SHOWN).map((g) => {
    const s = titles.get(g.scenario_name);
    return el("li", { class: myMove(g) ? "yourmove" : "" }, myMove(g) ? el("b", { class: "yourmove" }, "● your move: ") : null,
      el("a", { href: `#/game/${g.id}` }, s ? s.title : g.scenario_name), ` (${RULESETS[g.ruleset] || g.ruleset}): ${g.status || `${g.actions} actions`} · begun ${when(g.created)}`);
  });
  if (mineSorted.length > YOURS_SHOWN) yoursNow.push(el("li", { class: "quiet" }, `and ${mineSorted.length - YOURS_SHOWN} more in the list of games below (marked “yours”)`));
  const desks = calculators.map((rs) => el("a", { href: `#/desk/${rs}`, class: "desk-link" }, RULESETS[rs] || rs));
  main.replaceChildren(
    ...(yoursNow.length ? [el("h2", {}, "Your games"), el("ul", { class: "yourgames" }, yoursNow)] : []),
    ...(openSeats.length ? [el("h2", {}, "Open seats"), el("p", { class: "quiet" }, "Games open to anyone, waiting for a player: one click takes the seat."), el("ul", { class: "openseats" }, openSeats)] : []),
    el("h2", {}, "Battles"), ...cards,
    el("h2", {}, "Your own battle"), ownBattle(),
    el("h2", {}, "The umpire's desk"),
    el("p", {}, "Describe a combat, get the exact odds of every outcome, or resolve it with the dice or cards rolled on the table: ",
      desks.flatMap((d, i) => (i ? [" · ", d] : [d]))),
    el("h2", {}, "Games"),
    rows.length ? table : el("p", { class: "quiet" }, "No games yet."),
    rows.length >= PAGE ? older : null);
  // The tables' pictures, as they come.
  for (const s of scenarios) {
    api(`/api/scenarios/${encodeURIComponent(s.name)}/view`).then((v) => {
      const box = main.querySelector(`[data-thumb="${CSS.escape(s.name)}"]`);
      if (box) box.replaceChildren(drawMap(v, { thumbnail: true }).node);
    }).catch(() => { /* no picture: the card says it all */ });
  }
}

/**
 * A scenario's card: its picture, title, rule set, armies and description, who plays each side,
 * and Play. `own` is a scenario sent from this computer: its text (played as it is) and its
 * table before the battle (as the server's check gave it).
 */
function card(s, own = null, startHere = false) {
  const sides = s.sides && s.sides.length === 2 ? s.sides : ["First side", "Second side"];
  const pick = (side) => el("select", { "data-side": side, "aria-label": `who plays the ${sides[side]}` },
    el("option", { value: "human", selected: side === 0 }, "a person"),
    el("option", { value: "heuristic", selected: side === 1 }, "the computer (heuristic)"),
    el("option", { value: "random" }, "the computer (random)"),
    el("option", { value: "mcts" }, "the computer (searching: stronger, thinks 0.2 s a move)"));
  const a = pick(0), b = pick(1);
  const me = el("select", { "data-me": s.name, "aria-label": "you are" },
    el("option", { value: "auto" }, "the first side a person plays"),
    el("option", { value: "hot_seat" }, "both sides, taking turns at this screen (hot seat)"),
    el("option", { value: "umpire" }, "the umpire (players join by invitation)"),
    el("option", { value: "spectator" }, "nobody: send every invitation"));
  // Both sides at one screen are both people: choosing the hot seat says so at once.
  me.addEventListener("change", () => { if (me.value === "hot_seat") { a.value = "human"; b.value = "human"; } });
  const hidden = el("input", { type: "checkbox", "data-private": s.name });
  const holdResults = el("input", { type: "checkbox", "data-hold": s.name });
  const openToAll = el("input", { type: "checkbox", "data-open": s.name });
  const withUmpire = el("input", { type: "checkbox", "data-umpire": s.name });
  // En Avant's Game Control keeps the rules from the players; a game may show them instead.
  const rulesShown = s.ruleset === "en-avant" ? el("input", { type: "checkbox", "data-rules-shown": s.name }) : null;
  const err = el("div", { class: "error" });
  const start = el("button", {
    "data-scenario": own ? null : s.name,
    "data-own": own ? s.file || s.name : null,
    onclick: async () => {
      start.disabled = true;
      try {
        const players = [a.value, b.value];
        const req = { scenario: s.name, players, private: hidden.checked, open: openToAll.checked && !hidden.checked, hold_results: holdResults.checked, umpire: withUmpire.checked };
        // A file of this computer's is sent whole, under its file's name.
        if (own) Object.assign(req, { scenario: s.file || "", scenario_text: own.text });
        if (me.value !== "auto") req.creator = me.value;
        if (rulesShown?.checked) req.rules_shown = true;
        const g = await post("/api/games", req);
        keep(g.id, (h) => {
          for (const c of g.credentials) h.roles[roleKey(c.role)] = c.token;
          h.invitations = g.invitations;
        });
        // Two computers fight it out in a moment: it is watched from its start, step by step.
        location.hash = players.every((p) => p !== "human") ? `#/replay/${g.id}/play` : `#/game/${g.id}`;
      } catch (e) {
        err.textContent = e.message;
        start.disabled = false;
      }
    },
  }, "Play");
  const picture = el("div", { class: "thumbbox", "data-thumb": own ? null : s.name });
  if (own) picture.append(drawMap(own.view, { thumbnail: true }).node);
  const origin = !s.file ? null
    : el("div", { class: "rs" }, own ? `your file ${s.file}` : `from the server's folder (${s.file})`);
  return el("div", { class: "card" },
    picture,
    startHere ? el("div", { class: "starthere" }, "Start here") : null,
    el("h3", {}, s.title),
    el("div", { class: "rs" }, `${RULESETS[s.ruleset] || s.ruleset}${s.variant ? ` (${s.variant.replaceAll("-", " ")})` : ""}`),
    s.turns || s.units ? el("div", { class: "rs size" }, [s.turns ? `up to ${s.turns} turns` : null,
      s.units ? `${s.units[0]} against ${s.units[1]} units` : null].filter(Boolean).join(" · ")) : null,
    origin,
    s.sides && s.sides.length === 2 ? el("div", { class: "armies" }, el("span", { class: "side0" }, s.sides[0]), " against ", el("span", { class: "side1" }, s.sides[1])) : null,
    el("p", {}, s.description),
    el("div", { class: "field" }, el("span", {}, `The ${sides[0]}: `), a),
    el("div", { class: "field" }, el("span", {}, `The ${sides[1]}: `), b),
    el("div", { class: "field" }, el("span", {}, "You are: "), me),
    el("details", { class: "options" }, el("summary", {}, "More options"),
      el("label", {}, hidden, " private (not listed; watched only with its link)"),
      el("label", {}, withUmpire, " with an umpire (you are the umpire and invite both sides, unless you choose to be a side above; he sees everything, and every player is told he is there and who was handed his invitation)"),
      el("label", {}, holdResults, " the umpire releases results (he sees each turn's outcome first, and may amend it)"),
      el("label", {}, openToAll, " open to anyone (the other seats are listed on the first page: the first to click takes one)"),
      rulesShown ? el("label", {}, rulesShown, " show the players the rules' reasons (the tables and numbers behind each result, which the rules leave to Game Control: for a game against the computer, or to learn the rules)") : null),
    el("div", {}, start), err);
}

/** The largest request the server takes (64 KiB): a scenario's text travels in one. */
const BODY_LIMIT = 65536;

/**
 * "Your own battle": a scenario file opened from this computer, checked by the server; its
 * problems shown at their line and column (with the line itself), or its card, to play it.
 */
function ownBattle() {
  const result = el("div", { class: "own-result" });
  const input = el("input", {
    type: "file", accept: ".toml,text/plain,application/toml", "data-own-file": "", "aria-label": "a scenario file (TOML)",
    onchange: async () => {
      const file = input.files && input.files[0];
      if (!file) return;
      result.replaceChildren(el("p", { class: "quiet" }, `Checking ${file.name}…`));
      let text, r;
      try {
        text = await file.text();
        const size = new Blob([JSON.stringify({ text, name: file.name })]).size;
        if (size > BODY_LIMIT) {
          result.replaceChildren(el("p", { class: "error" },
            `${file.name} is too big to send: ${size} bytes as a request, and the server takes at most ${BODY_LIMIT} (64 KiB). `,
            "Check it on your computer with `volley check`, and play it there with `volley play FILE --agents person,heuristic`, ",
            "or put it in a folder the server offers (`volley serve --scenarios DIR`)."));
          return;
        }
        r = await post("/api/scenarios/check", { text, name: file.name });
      } catch (e) {
        result.replaceChildren(el("p", { class: "error" }, `${file.name} could not be checked: ${e.message}`));
        return;
      }
      if (!r.ok) {
        const lines = text.split(/\r?\n/);
        result.replaceChildren(
          el("p", { class: "error" }, `${file.name} does not load: ${r.diagnostics.length === 1 ? "one problem" : `${r.diagnostics.length} problems`}, each at its line and column.`),
          el("ul", { class: "diagnostics" }, r.diagnostics.map((d) => {
            const line = Array.from(lines[d.line - 1] ?? "");
            // A caret under the column (counted in characters; a tab kept as a tab, so that it lines up).
            const under = line.slice(0, Math.max(0, d.col - 1)).map((c) => (c === "\t" ? "\t" : " ")).join("");
            return el("li", { class: "diagnostic" },
              el("code", { class: "where" }, `${d.file}:${d.line}:${d.col}`), `: ${d.message}`,
              line.length || d.line <= lines.length ? el("pre", { class: "source" }, `${line.join("")}\n${under}^`) : null);
          })));
        return;
      }
      result.replaceChildren(el("div", { class: "cards" }, card(r.scenario, { text, view: r.view })));
    },
  });
  return el("div", { class: "own" },
    el("p", {}, "Open a scenario file (TOML) from your computer: the server checks it as ",
      el("code", {}, "volley check"), " does, says where any problem is, and a good one is played like the battles above. ",
      "How to write one: docs/scenarios.md in volley's repository."),
    el("label", {}, "Scenario file: ", input),
    result);
}

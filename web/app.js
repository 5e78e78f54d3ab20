// volley in the browser: the scenario list, a game (map, choices, log), and replays.
// Plain ES module, no build step. Everything is drawn from the server's JSON: a rule set's
// `view` (terrain, objectives, pieces, markers, notes) and the actions it offers.

const main = document.getElementById("main");
const SVG = "http://www.w3.org/2000/svg";

// ----- small helpers -----

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

async function api(path, options = {}) {
  const r = await fetch(path, options);
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw Object.assign(new Error(body.error || `HTTP ${r.status}`), { status: r.status });
  return body;
}

// A credential travels in the Authorization header, never in an address.
const auth = (token) => (token ? { authorization: `Bearer ${token}` } : {});

function post(path, data, token) {
  return api(path, { method: "POST", headers: { "content-type": "application/json", ...auth(token) }, body: JSON.stringify(data) });
}

// What this browser holds for a game: its credentials by role ("0", "1", "umpire") and, for
// the game's creator, the invitations to hand on (codes, each claimed once by whoever opens it).
function held(id) {
  try {
    const h = JSON.parse(localStorage.getItem(`volley:${id}`) || "{}");
    return { roles: h.roles || {}, invitations: h.invitations || [] };
  } catch { return { roles: {}, invitations: [] }; }
}
function keep(id, change) {
  const h = held(id);
  change(h);
  localStorage.setItem(`volley:${id}`, JSON.stringify(h));
}
const roleKey = (role) => (role === "umpire" ? "umpire" : String(role.side));

// ----- routes -----

let stop = () => {};

function route() {
  stop();
  stop = () => {};
  const hash = location.hash || "#/";
  const [path] = hash.slice(1).split("?");
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "game" && parts[1]) {
    showGame(parts[1]);
  } else if (parts[0] === "join" && parts[1] && parts[2]) {
    join(parts[1], parts[2]);
  } else if (parts[0] === "replay" && parts[1]) {
    showReplay(parts[1]);
  } else if (parts[0] === "desk" && parts[1]) {
    showDesk(parts[1]);
  } else {
    showHome();
  }
}
window.addEventListener("hashchange", route);

// An invitation opened: claim it (once; the seat is this browser's from now on) and play.
async function join(id, code) {
  main.replaceChildren(el("p", { class: "quiet" }, "Taking your seat…"));
  try {
    const c = await post(`/api/games/${id}/claim`, { invitation: code });
    keep(id, (h) => { h.roles[roleKey(c.role)] = c.token; });
    location.replace(`#/game/${id}`);
  } catch (e) {
    const mine = Object.keys(held(id).roles).length > 0;
    main.replaceChildren(el("p", { class: "error" }, e.status === 409
      ? "This invitation has been used already: a seat is taken by whoever opened it first."
      : `The invitation did not work: ${e.message}`),
    el("p", {}, el("a", { href: `#/game/${id}` }, mine ? "Go to the game" : "Watch the game"), " · ", el("a", { href: "#/" }, "All battles")));
  }
}

// ----- the home page -----

async function showHome() {
  main.replaceChildren(el("p", { class: "quiet" }, "Loading…"));
  let scenarios, games, calculators;
  try {
    [scenarios, games, calculators] = await Promise.all([api("/api/scenarios"), api("/api/games"), api("/api/desk")]);
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, `The server did not answer: ${e.message}`));
    return;
  }
  const cards = scenarios.map((s) => {
    const pick = (side) => el("select", { "data-side": side, "aria-label": `side ${side + 1}` },
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
    const hidden = el("input", { type: "checkbox", "data-private": s.name });
    const holdResults = el("input", { type: "checkbox", "data-hold": s.name });
    const withUmpire = el("input", { type: "checkbox", "data-umpire": s.name });
    const err = el("div", { class: "error" });
    const start = el("button", {
      "data-scenario": s.name,
      onclick: async () => {
        start.disabled = true;
        try {
          const players = [a.value, b.value];
          const req = { scenario: s.name, players, private: hidden.checked, hold_results: holdResults.checked, umpire: withUmpire.checked };
          if (me.value !== "auto") req.creator = me.value;
          const g = await post("/api/games", req);
          keep(g.id, (h) => {
            for (const c of g.credentials) h.roles[roleKey(c.role)] = c.token;
            h.invitations = g.invitations;
          });
          location.hash = `#/game/${g.id}`;
        } catch (e) {
          err.textContent = e.message;
          start.disabled = false;
        }
      },
    }, "Play");
    return el("div", { class: "card" },
      el("h3", {}, s.title),
      el("div", { class: "rs" }, `${s.ruleset}${s.variant ? ` (${s.variant})` : ""} · ${s.name}`),
      el("p", {}, s.description),
      el("div", {}, "First side: ", a), el("div", {}, "Second side: ", b),
      el("div", {}, "You are: ", me),
      el("label", {}, hidden, " private (not listed; watched only with its link)"),
      el("label", {}, withUmpire, " with an umpire (by invitation; he sees everything, and every player is told he is there)"),
      el("label", {}, holdResults, " the umpire releases results (he sees each turn's outcome first, and may amend it)"),
      el("div", {}, start), err);
  });
  const rows = games.map((g) => el("tr", {},
    el("td", {}, g.scenario_name), el("td", {}, g.ruleset), el("td", {}, g.players.join(" against ")),
    el("td", {}, (g.status || `${g.actions} actions`) + (g.hot_seat ? " (hot seat)" : "")),
    el("td", {}, el("a", { href: `#/game/${g.id}` }, Object.keys(held(g.id).roles).length ? "play" : "watch"), " · ",
      el("a", { href: `#/replay/${g.id}` }, "replay"))));
  const desks = calculators.map((rs) => el("a", { href: `#/desk/${rs}`, class: "desk-link" }, rs));
  main.replaceChildren(
    el("h2", {}, "Battles"), el("div", { class: "cards" }, cards),
    el("h2", {}, "The umpire's desk"),
    el("p", {}, "Describe a combat, get the exact odds of every outcome, or resolve it with the dice or cards rolled on the table: ",
      desks.flatMap((d, i) => (i ? [" · ", d] : [d]))),
    el("h2", {}, "Games"),
    rows.length ? el("table", {}, el("tr", {}, el("th", {}, "scenario"), el("th", {}, "rules"), el("th", {}, "players"), el("th", {}, ""), el("th", {}, "")), rows)
      : el("p", { class: "quiet" }, "No games yet."));
}

// ----- the map -----

const TERRAIN = {
  woods: ["#9fbf8a", "#6f8f5a"], town: ["#c9b59a", "#8a7560"], hill: ["#e2d6aa", "#b9a97a"],
  river: ["#9cc4e4", "#6f9cc4"], bridge: ["#b08f6a", "#7a5f40"], impassable: ["#9a9a9a", "#666"],
  field: ["#efe7bf", "#cdbf8a"], softground: ["#cfdcb6", "#9fb08a"], builtup: ["#c9b59a", "#8a7560"],
  open: ["none", "none"],
};
const LINES = { wall: ["#6b5b4b", 0.35, ""], hedge: ["#4f7040", 0.35, "0.6 0.3"], road: ["#bba27a", 0.6, ""],
  redoubt: ["#5b4b3b", 0.5, ""], trench: ["#5b4b3b", 0.4, "0.4 0.2"] };
const SIDES = ["#35588f", "#a8432f"];

// Draw `view` into an SVG; `onPick(unitName)` when a piece is clicked. Returns the SVG and a
// function that shows the points of an action (a proposed move) over the map.
function drawMap(view, { onPick, selected, targets } = {}) {
  const W = view.width, D = view.depth;
  const fy = (y) => D - y; // the table's y runs north; the screen's down
  const pts = (ps) => ps.map(([x, y]) => `${x},${fy(y)}`).join(" ");
  const map = svg("svg", { viewBox: `0 0 ${W} ${D}`, class: "map", role: "img", "aria-label": view.title });
  const grid = view.pieces.some((p) => p.footprint.shape === "polygon") && W <= 40 && Number.isInteger(W);
  const ground = svg("rect", { x: 0, y: 0, width: W, height: D, fill: "#f1ead4" });
  if (onPick) ground.addEventListener("click", () => onPick(null));
  map.append(ground);
  for (const f of view.terrain.filter((t) => t.closed)) {
    const [fill, stroke] = TERRAIN[f.kind] || ["#ddd", "#aaa"];
    const p = svg("polygon", { points: pts(f.points), fill, stroke, "stroke-width": 0.15 });
    p.append(svg("title")); p.lastChild.textContent = f.name;
    map.append(p);
  }
  for (const f of view.terrain.filter((t) => !t.closed)) {
    const [stroke, w, dash] = LINES[f.kind] || ["#555", 0.3, ""];
    map.append(svg("polyline", { points: pts(f.points), fill: "none", stroke, "stroke-width": w, "stroke-dasharray": dash }));
  }
  if (grid) {
    for (let x = 0; x <= W; x++) map.append(svg("line", { x1: x, y1: 0, x2: x, y2: D, stroke: "#d6cdb5", "stroke-width": 0.03 }));
    for (let y = 0; y <= D; y++) map.append(svg("line", { x1: 0, y1: y, x2: W, y2: y, stroke: "#d6cdb5", "stroke-width": 0.03 }));
  }
  for (const o of view.objectives) {
    const colour = o.holder === null || o.holder === undefined ? "#777" : SIDES[o.holder];
    map.append(svg("polygon", { points: pts(o.points), fill: "none", stroke: colour, "stroke-width": W / 300, "stroke-dasharray": `${W / 100} ${W / 200}` }));
    const [cx, cy] = o.points.reduce(([a, b], [x, y]) => [a + x / o.points.length, b + y / o.points.length], [0, 0]);
    const t = svg("text", { x: cx, y: fy(cy), "font-size": W / 70, "text-anchor": "middle", fill: colour });
    t.textContent = `★ ${o.name}`;
    map.append(t);
  }
  const size = Math.max(W, D);
  for (const p of view.pieces) {
    const colour = SIDES[p.side ?? 0];
    const faint = p.status === "running" || p.status === "fallen" || p.status === "rallying";
    let shape;
    if (p.footprint.shape === "circle") {
      const [x, y] = p.footprint.at;
      shape = svg("circle", { cx: x, cy: fy(y), r: p.footprint.r });
    } else {
      shape = svg("polygon", { points: pts(p.footprint.points) });
    }
    shape.setAttribute("fill", colour);
    shape.setAttribute("fill-opacity", faint ? 0.35 : 0.85);
    shape.setAttribute("stroke", faint ? colour : "#1d1d1d");
    shape.setAttribute("stroke-width", size / 600);
    if (faint) shape.setAttribute("stroke-dasharray", `${size / 300}`);
    shape.setAttribute("class", `piece${selected && p.unit === selected ? " selected" : ""}`);
    if (p.unit) shape.setAttribute("data-unit", p.unit);
    const title = svg("title");
    title.textContent = `${p.unit ? `${p.unit}: ` : ""}${p.label} (${p.status})`;
    shape.append(title);
    // Pressing a piece selects its unit; releasing over one of its places takes that choice,
    // so a unit is moved by a click on it and a click on the place, or by dragging it there.
    if (onPick && p.unit) shape.addEventListener("pointerdown", () => onPick(p.unit));
    map.append(shape);
    // Facing: a short stroke from the middle of the piece towards its front.
    if (typeof p.facing === "number" && p.footprint.shape === "polygon") {
      const ps = p.footprint.points;
      const [cx, cy] = ps.reduce(([a, b], [x, y]) => [a + x / ps.length, b + y / ps.length], [0, 0]);
      const len = size / 110, rad = (p.facing * Math.PI) / 180;
      map.append(svg("line", { x1: cx, y1: fy(cy), x2: cx + Math.sin(rad) * len, y2: fy(cy + Math.cos(rad) * len), stroke: "#1d1d1d", "stroke-width": size / 700, class: "facing" }));
    }
    // Counters: green counters as green dots beside the piece, numbers (strength, figures) in it.
    const counters = p.counters || [];
    if (counters.length) {
      const c = p.footprint.shape === "circle" ? p.footprint.at
        : p.footprint.points.reduce(([a, b], [x, y]) => [a + x / p.footprint.points.length, b + y / p.footprint.points.length], [0, 0]);
      const r = size / 320;
      let dx = 0;
      for (const k of counters) {
        if (k.kind === "green") {
          for (let i = 0; i < Math.min(k.n, 6); i++) {
            map.append(svg("circle", { cx: c[0] + dx + r * 2.4 * i, cy: fy(c[1]) + size / 90, r, fill: "#3f9a3f", stroke: "#1d5a1d", "stroke-width": r / 4, class: "counter green" }));
          }
        } else {
          const t = svg("text", { x: c[0] + dx, y: fy(c[1]) + size / 300, "font-size": size / 150, "text-anchor": "middle", fill: "#fff", class: `counter ${k.kind}` });
          t.textContent = String(k.n);
          map.append(t);
          dx += size / 80;
        }
      }
    }
  }
  // Unit names once per unit, at the middle of its pieces.
  const centres = new Map();
  for (const p of view.pieces) {
    if (!p.unit) continue;
    const c = p.footprint.shape === "circle" ? p.footprint.at
      : p.footprint.points.reduce(([a, b], [x, y]) => [a + x / p.footprint.points.length, b + y / p.footprint.points.length], [0, 0]);
    const e = centres.get(p.unit) || { x: 0, y: 0, n: 0, side: p.side };
    e.x += c[0]; e.y += c[1]; e.n += 1;
    centres.set(p.unit, e);
  }
  // Names where they do not overlap one another (the rest show on hover and in the lists).
  const fs = size / 120;
  const placed = [];
  for (const [name, c] of centres) {
    const x = c.x / c.n, y = fy(c.y / c.n) - fs * 1.2;
    const w = name.length * fs * 0.5, h = fs;
    if (placed.some((b) => Math.abs(b.x - x) < (b.w + w) / 2 && Math.abs(b.y - y) < h)) continue;
    placed.push({ x, y, w });
    const t = svg("text", { x, y, "font-size": fs, "text-anchor": "middle", fill: "#222" });
    t.textContent = name;
    map.append(t);
  }
  for (const m of view.markers) {
    const [x, y] = m.at;
    const g = svg("g", {});
    g.append(svg("circle", { cx: x, cy: fy(y), r: size / 250, fill: m.side === null || m.side === undefined ? "#555" : SIDES[m.side], stroke: "#fff", "stroke-width": size / 1500 }));
    const t = svg("title"); t.textContent = `${m.kind}: ${m.label}`; g.append(t);
    map.append(g);
  }
  // The selected unit's reach: weapon ranges within their arcs.
  for (const p of view.pieces.filter((q) => selected && q.unit === selected)) {
    for (const r of p.ranges || []) {
      const poly = svg("polygon", { points: pts(r.points), fill: "#e0b000", "fill-opacity": 0.12, stroke: "#b08a00", "stroke-width": size / 900, class: "range" });
      const t = svg("title"); t.textContent = r.label; poly.append(t);
      map.append(poly);
    }
  }
  const overlay = svg("g", {});
  map.append(overlay);
  // `c` is a choice: its places if the rule set gave them, else those found in its JSON.
  const placesOf = (c) => (c.points && c.points.length ? c.points : actionPoints(c.action, grid));
  const show = (c) => {
    overlay.replaceChildren();
    if (!c) return;
    const ps = placesOf(c);
    if (ps.length > 1) overlay.append(svg("polyline", { points: pts(ps), fill: "none", stroke: "#e0b000", "stroke-width": size / 300 }));
    for (const [x, y] of ps) overlay.append(svg("circle", { cx: x, cy: fy(y), r: size / 150, fill: "#e0b000" }));
  };
  // Where the selected unit's choices lead: a dot each, to click.
  for (const t of targets || []) {
    const ps = placesOf(t);
    if (!ps.length) continue;
    const [x, y] = ps[ps.length - 1];
    const dot = svg("circle", { cx: x, cy: fy(y), r: size / 160, fill: "#e0b000", "fill-opacity": 0.75, stroke: "#7a5f00", "stroke-width": size / 1500, class: "target" });
    const title = svg("title"); title.textContent = t.text; dot.append(title);
    dot.style.cursor = "pointer";
    dot.addEventListener("pointerup", () => t.take());
    dot.addEventListener("mouseenter", () => show(t));
    dot.addEventListener("mouseleave", () => show(null));
    map.append(dot);
  }
  return { map, show };
}

// The places an action names, in order: [x, y] pairs, and grid areas ({col, row}) at their
// centres; on a grid, whole-number pairs are areas too.
function actionPoints(action, grid) {
  const points = [];
  const walk = (v) => {
    if (Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === "number")) points.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      if (typeof v.col === "number" && typeof v.row === "number") points.push([v.col + 0.5, v.row + 0.5]);
      else Object.values(v).forEach(walk);
    }
  };
  walk(action);
  return grid ? points.map(([x, y]) => (Number.isInteger(x) && Number.isInteger(y) ? [x + 0.5, y + 0.5] : [x, y])) : points;
}

// ----- a game -----

function showGame(id) {
  let selected = null;
  let closed = false;
  let socket = null;
  let busy = false;
  let chosen = null; // a role picked by hand, when this browser holds several
  let viewAs = ""; // the umpire looking as a side sees: "", "0" or "1"
  let handedTo = null; // hot seat: the side whose screen this is now
  const mapBox = el("div", {});
  const status = el("div", { class: "box" });
  const choices = el("div", { class: "box" });
  const umpireBox = el("div", { class: "box umpire" });
  const log = el("div", { class: "box" });
  const links = el("div", { class: "box" });
  const notes = el("div", { class: "box notes" });
  main.replaceChildren(el("div", { class: "game" }, mapBox, el("div", { class: "panel" }, status, choices, umpireBox, notes, log, links)));

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
  const look = (key) => api(`/api/games/${id}${key === "umpire" && viewAs !== "" ? `?view_as=${viewAs}` : ""}`,
    { headers: auth(key ? roles()[key] : null) });

  let actor = null;
  let shown = -1; // the number of actions on screen
  let shownHeld = null; // whether results were held for the umpire when it was drawn
  let names = [];
  async function refresh() {
    try {
      let key = current(actor);
      let g = await look(key);
      const next = current(g.actor);
      if (next !== key) {
        key = next;
        g = await look(key);
      }
      actor = g.actor;
      shown = g.actions;
      shownHeld = g.held;
      names = g.view.sides;
      // Hot seat: before the other side's secrets come on screen, the screen is handed over.
      if (g.hot_seat && key !== null && key !== "umpire" && !g.outcome && handedTo !== key) {
        if (handedTo === null) handedTo = key;
        else return handOver(key);
      }
      render(g, key);
    } catch (e) {
      status.replaceChildren(el("div", { class: "error" }, e.message));
    }
  }

  function handOver(key) {
    const side = names[Number(key)] || `side ${Number(key) + 1}`;
    mapBox.replaceChildren(el("div", { class: "handover" },
      el("h3", {}, `Hand the screen to the ${side}`),
      el("p", {}, "Their orders and what only they may see come next: the other side should look away."),
      el("button", { "data-handover": key, onclick: () => { handedTo = key; refresh(); } }, `I am the ${side}: show my side`)));
    for (const box of [status, choices, umpireBox, notes, log, links]) box.replaceChildren();
  }

  function render(g, key) {
    const v = g.view;
    const token = key ? roles()[key] : null;
    const err = el("div", { class: "error" });
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
      } catch (e) {
        err.textContent = e.message;
      } finally {
        busy = false;
        enable(true);
      }
    };
    const take = (c) => () => send(c.action);
    const list = g.candidates.filter((c) => !selected || c.text.includes(selected));
    const targets = selected ? list.map((c) => ({ action: c.action, points: c.points, text: c.text, take: take(c) })) : [];
    const pick = (u) => { if (selected !== u) { selected = u; render(g, key); } };
    const { map, show } = drawMap(v, { onPick: pick, selected, targets });
    mapBox.replaceChildren(map);
    const who = g.outcome ? el("div", { class: "outcome" }, g.outcome.winner === null || g.outcome.winner === undefined ? "A draw" : `${v.sides[g.outcome.winner]} win`, `: ${g.outcome.reason}.`)
      : el("div", {}, g.actor.side !== undefined ? `${v.sides[g.actor.side]} to act` : "", g.thinking ? " (the computer is thinking…)" : "");
    const sideName = (k) => v.sides[Number(k)];
    const me = g.role === "umpire"
      ? `You are the umpire${g.viewing_as && g.viewing_as.side !== undefined ? `, looking as the ${v.sides[g.viewing_as.side]} see it` : ", seeing everything"}.`
      : g.seat !== null && g.seat !== undefined
        ? (g.hot_seat ? `Hot seat: the ${v.sides[g.seat]} have the screen.` : `You play the ${v.sides[g.seat]}.`)
        : "You are watching.";
    const held_ = Object.keys(roles());
    const switcher = held_.length > 1 && !g.hot_seat ? el("select", { "aria-label": "look as", onchange: (e) => { chosen = e.target.value; refresh(); } },
      held_.map((k) => el("option", { value: k, selected: k === key }, k === "umpire" ? "the umpire" : `the ${sideName(k)}`))) : null;
    const seed = g.seed.chosen
      ? `Practice game: its creator chose the seed (${g.seed.value}), so its dice could be foreseen.`
      : g.seed.value !== null && g.seed.value !== undefined
        ? `The server's seed, kept secret until now: ${g.seed.value}${g.seed.salt ? `, salt ${g.seed.salt}` : ""} (SHA-256 of "volley seed ${g.seed.value}${g.seed.salt ? ` ${g.seed.salt}` : ""}" was published at the start: ${g.seed.commitment.slice(0, 16)}…).`
        : `The dice come from the server's secret seed; its SHA-256 is ${g.seed.commitment.slice(0, 16)}…, and the seed is shown when the battle ends.`;
    status.replaceChildren(...[
      el("h4", {}, v.title),
      el("div", {}, `Turn ${v.turn}, ${v.phase}`),
      el("div", {}, v.sides.map((s, i) => `${s}: ${g.players[i] === "human" ? "a person" : `the computer (${g.players[i]})`}`).join("; ")),
      who,
      el("div", { class: "quiet role" }, me, switcher ? " Look as: " : "", switcher),
      el("div", { class: "quiet seed" }, seed),
      g.umpire !== "none" ? el("div", { class: "quiet umpire-seat" }, g.umpire === "seated"
        ? "An umpire is seated: he sees everything, both sides' orders included."
        : "An umpire is invited but not yet seated.") : null].filter(Boolean));
    // Choices: all, or those naming the selected unit.
    const buttons = list.map((c) => el("button", {
      class: "choice",
      disabled: busy,
      onmouseenter: () => show(c), onmouseleave: () => show(null),
      onclick: take(c),
    }, c.text));
    const waiting = g.outcome ? "The battle is over."
      : g.held ? (g.role === "umpire" ? "The turn's results are held: the players see the battle as it was before them." : "The umpire is looking at the turn's results.")
        : g.role === "umpire" ? "The sides decide; the umpire may step in below." : "Waiting for the other side.";
    choices.replaceChildren(...[
      el("h4", {}, g.candidates.length ? `Your choices${selected ? ` for ${selected}` : ""}` : "Choices"),
      selected ? el("button", { class: "plain", onclick: () => { selected = null; render(g, key); } }, "show every choice") : null,
      g.candidates.length ? el("div", { class: "choices" }, buttons) : el("div", { class: "quiet" }, waiting),
      err].filter(Boolean));
    if (g.role === "umpire") umpireDesk(g, send);
    else umpireBox.replaceChildren();
    umpireBox.hidden = g.role !== "umpire";
    notes.replaceChildren(el("h4", {}, "Notes"), ...v.notes.map((n) => el("div", {}, n)));
    const lines = g.log.slice(-300).map((l) => el("div", { class: /^Turn \d/.test(l.text) ? "turn" : "" }, l.text));
    const box = el("div", { class: "log" }, lines);
    log.replaceChildren(el("h4", {}, "What happened"), box);
    box.scrollTop = box.scrollHeight;
    const base = `${location.origin}${location.pathname}`;
    const invites = held(id).invitations.map((i) => el("div", {},
      i.role === "umpire" ? "Invitation for the umpire" : `Invitation for the ${sideName(i.role.side)}`,
      " (send it to one person: it works once): ",
      el("div", { class: "link", "data-invite": roleKey(i.role) }, `${base}#/join/${id}/${i.code}`)));
    links.replaceChildren(el("h4", {}, "Links"), ...invites,
      el("div", {}, g.private ? "A private game: watch it with " : "Watch it with ", el("span", { class: "link" }, `${base}#/game/${id}`)),
      g.outcome ? el("div", {}, el("a", { href: `/api/games/${id}/log`, download: `volley-${id}.jsonl` }, "The battle's log, signed by the server"),
        " (check it with ", el("code", {}, "volley replay"), ": every die against the seed)") : null,
      el("div", {}, el("a", { href: `#/replay/${id}` }, "Replay this battle"), " · ", el("a", { href: "#/" }, "All battles")));
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
    if (g.umpire_units && !g.outcome) {
      const unit = el("select", { "aria-label": "unit" }, g.umpire_units.map((n, i) => el("option", { value: String(i) }, n)));
      const kind = el("select", { "aria-label": "umpire action" },
        el("option", { value: "advantage" }, "grant a tactical advantage"),
        el("option", { value: "adjust" }, "adjust, move or turn the unit"));
      const num = (label, attrs = {}) => el("input", { type: "number", "aria-label": label, placeholder: label, ...attrs });
      const value = num("advantage (0 to 3)", { min: 0, max: 3, value: 1 });
      const figures = num("figures"), greens = num("green counters", { min: 0 });
      const x = num("x"), y = num("y"), facing = num("facing (°)");
      const steady = el("input", { type: "checkbox", "aria-label": "back in good order" });
      const reason = el("input", { type: "text", "aria-label": "reason", placeholder: "why (every player reads it)", size: 30 });
      const adv = el("div", {}, "Advantage: ", value);
      const adj = el("div", { hidden: true }, figures, greens, el("label", {}, steady, " back in good order"), el("div", {}, "Put at ", x, y, " facing ", facing));
      kind.addEventListener("change", () => { adv.hidden = kind.value !== "advantage"; adj.hidden = kind.value !== "adjust"; });
      const opt = (input) => (input.value === "" ? undefined : Number(input.value));
      const go = el("button", { "data-umpire-act": "1", onclick: () => {
        const u = Number(unit.value);
        if (kind.value === "advantage") return send({ advantage: { unit: u, value: Number(value.value), reason: reason.value } });
        const a = { unit: u, figures: opt(figures), greens: opt(greens), steady: steady.checked, reason: reason.value };
        if (x.value !== "" || y.value !== "") a.at = [opt(x), opt(y)];
        if (facing.value !== "") a.facing = opt(facing);
        return send({ adjust: a });
      } }, "Act as the umpire");
      parts.push(el("div", {}, unit, " ", kind), adv, adj, el("div", {}, reason, " ", go));
    } else if (!g.outcome) {
      parts.push(el("div", { class: "quiet" }, "These rules give the umpire no actions of his own: he watches, with every secret in view."));
    }
    umpireBox.replaceChildren(...parts);
  }

  function connect() {
    if (closed) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${proto}://${location.host}/api/games/${id}/ws`);
    // Say who watches: the count it tells is of the actions this role may know of.
    socket.onopen = () => {
      const key = current(actor);
      socket.send(JSON.stringify(key ? { token: roles()[key] } : {}));
    };
    socket.onmessage = (m) => {
      // Only news: our own action is already drawn when its answer comes back.
      let n = -1, held = null;
      try { ({ actions: n, held } = JSON.parse(m.data)); } catch { /* refresh anyway */ }
      if (n !== shown || held !== shownHeld) refresh();
    };
    socket.onclose = () => { if (!closed) setTimeout(connect, 1000); };
  }
  stop = () => { closed = true; if (socket) socket.close(); };
  refresh();
  connect();
}

// ----- a replay -----

async function showReplay(id) {
  const mapBox = el("div", {});
  const log = el("div", { class: "box" });
  const slider = el("input", { type: "range", min: 0, max: 0, value: 0, "aria-label": "step" });
  const label = el("span", {});
  let total = 0;
  const go = async (k) => {
    const r = await api(`/api/games/${id}/replay?step=${k}`);
    total = r.total;
    slider.max = total;
    slider.value = r.step;
    label.textContent = `action ${r.step} of ${total}, turn ${r.view.turn}`;
    mapBox.replaceChildren(drawMap(r.view).map);
    const box = el("div", { class: "log" }, r.log.slice(-200).map((l) => el("div", { class: /^Turn \d/.test(l.text) ? "turn" : "" }, l.text)));
    log.replaceChildren(el("h4", {}, "What happened"), box);
    box.scrollTop = box.scrollHeight;
  };
  slider.addEventListener("change", () => go(Number(slider.value)));
  const bar = el("div", { class: "replaybar box" },
    el("button", { class: "plain", onclick: () => go(0), title: "the start" }, "«"),
    el("button", { class: "plain", "data-step": "back", onclick: () => go(Math.max(0, Number(slider.value) - 1)) }, "◀"),
    slider,
    el("button", { class: "plain", "data-step": "forward", onclick: () => go(Math.min(total, Number(slider.value) + 1)) }, "▶"),
    el("button", { class: "plain", onclick: () => go(total), title: "the end" }, "»"), label);
  main.replaceChildren(el("div", { class: "game" }, mapBox, el("div", { class: "panel" }, bar, log,
    el("div", {}, el("a", { href: `#/game/${id}` }, "Back to the game"), " · ", el("a", { href: "#/" }, "All battles")))));
  try {
    await go(0);
  } catch (e) {
    mapBox.replaceChildren(el("p", { class: "error" }, e.message));
  }
}

// ----- the umpire's desk -----

// A form for `schema` (JSON Schema, as schemars writes it): returns the element and a function
// that reads the value back. Objects become fieldsets, enumerations selects, optional values a
// checkbox that opens their form.
function formFor(schema, root, name = "") {
  const deref = (s) => (s && s.$ref ? root.$defs[s.$ref.split("/").pop()] : s);
  schema = deref(schema);
  const optionalOf = (s) => {
    if (s.anyOf && s.anyOf.length === 2) return s.anyOf.find((x) => x.type !== "null");
    if (Array.isArray(s.type) && s.type.includes("null")) return { ...s, type: s.type.find((t) => t !== "null"), default: undefined };
    return null;
  };
  const inner = optionalOf(schema);
  if (inner) {
    const sub = formFor(inner, root, name);
    const on = el("input", { type: "checkbox", "aria-label": `give ${name}` });
    const box = el("span", { class: "optional" }, on, " ", sub.node);
    sub.node.style.display = "none";
    on.addEventListener("change", () => { sub.node.style.display = on.checked ? "" : "none"; });
    return { node: box, get: () => (on.checked ? sub.get() : null) };
  }
  // One of several kinds, each an object of one key (a volley, a rally, a charge): a choice of
  // kind, and the chosen kind's own form.
  const kinds = schema.oneOf && schema.oneOf.every((o) => {
    const d = deref(o);
    return d && d.type === "object" && d.properties && Object.keys(d.properties).length === 1;
  }) ? schema.oneOf.map((o) => {
      const d = deref(o);
      const k = Object.keys(d.properties)[0];
      return { k, form: formFor(d.properties[k], root, k), what: d.description };
    }) : null;
  if (kinds) {
    const sel = el("select", { name: name || "kind", "aria-label": "what to work out" },
      kinds.map(({ k, what }) => el("option", { value: k }, what ? `${k} — ${what}` : k)));
    const show = () => kinds.forEach(({ k, form }) => { form.node.style.display = sel.value === k ? "" : "none"; });
    sel.addEventListener("change", show);
    show();
    return {
      node: el("div", {}, sel, kinds.map(({ form }) => form.node)),
      get: () => { const c = kinds.find(({ k }) => k === sel.value); return { [c.k]: c.form.get() }; },
    };
  }
  const choices = schema.oneOf && schema.oneOf.every((o) => "const" in o) ? schema.oneOf.map((o) => [o.const, o.description || o.const])
    : schema.enum ? schema.enum.map((v) => [v, v]) : null;
  if (choices) {
    const sel = el("select", { name }, choices.map(([v, d]) => el("option", { value: v, selected: v === schema.default }, `${v}${d !== v ? ` — ${d}` : ""}`)));
    return { node: sel, get: () => sel.value };
  }
  if (schema.type === "object" && schema.properties) {
    const fields = Object.entries(schema.properties).map(([k, sub]) => {
      const f = formFor(sub, root, k);
      const d = deref(sub) || {};
      const nested = (d.type === "object" && d.properties) || f.node.tagName === "FIELDSET";
      const row = nested ? f.node
        : el("label", { class: "field", title: sub.description || d.description || "" }, el("span", { class: "fname" }, k.replaceAll("_", " ")), f.node);
      return { k, f, row };
    });
    const node = el("fieldset", {}, name ? el("legend", {}, name) : null, fields.map((x) => x.row));
    return { node, get: () => Object.fromEntries(fields.map(({ k, f }) => [k, f.get()]).filter(([, v]) => v !== null && v !== "")) };
  }
  if (schema.type === "boolean") {
    const c = el("input", { type: "checkbox", name, checked: schema.default === true });
    return { node: c, get: () => c.checked };
  }
  if (schema.type === "integer" || schema.type === "number") {
    const i = el("input", { type: "number", name, value: schema.default ?? schema.examples?.[0] ?? schema.minimum ?? 0, min: schema.minimum, max: schema.maximum, step: schema.type === "integer" ? 1 : "any" });
    return { node: i, get: () => (i.value === "" ? null : Number(i.value)) };
  }
  const t = el("input", { type: "text", name, value: schema.default ?? "" });
  return { node: t, get: () => { try { return JSON.parse(t.value); } catch { return t.value; } } };
}

async function showDesk(ruleset) {
  main.replaceChildren(el("p", { class: "quiet" }, "Loading…"));
  let schema;
  try {
    schema = await api(`/api/desk/${ruleset}/schema`);
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, e.message));
    return;
  }
  const form = formFor(schema, schema);
  const out = el("div", { class: "box" });
  const draws = el("input", { type: "text", placeholder: "as rolled: 7 3, or Q 7 (empty: the computer rolls)", size: 40, "aria-label": "draws" });
  const err = el("div", { class: "error" });
  const odds = async () => {
    err.textContent = "";
    try {
      const r = await post(`/api/desk/${ruleset}/odds`, { situation: form.get() });
      out.replaceChildren(...[el("h4", {}, "Exact odds"), ...r.outcomes.slice(0, 40).map((o) => el("div", { class: "bar" },
        el("span", { class: "barfill", style: `width: ${Math.max(0.5, o.probability * 100)}%` }),
        el("span", { class: "bartext" }, `${(o.probability * 100).toFixed(2)}%  ${o.outcome}`))),
      r.outcomes.length > 40 ? el("div", { class: "quiet" }, `and ${r.outcomes.length - 40} less likely outcomes`) : null].filter(Boolean));
    } catch (e) { err.textContent = e.message; }
  };
  const resolve = async () => {
    err.textContent = "";
    try {
      const r = await post(`/api/desk/${ruleset}/resolve`, { situation: form.get(), draws: draws.value, seed: Math.floor(Math.random() * 1e9) });
      out.replaceChildren(el("h4", {}, "Result"), el("pre", { class: "resolution" }, r.text));
    } catch (e) { err.textContent = e.message; }
  };
  main.replaceChildren(el("h2", {}, `The umpire's desk: ${ruleset}`),
    el("div", { class: "game" },
      el("div", { class: "box desk" }, schema.description ? el("p", { class: "quiet" }, schema.description) : null, form.node),
      el("div", { class: "panel" },
        el("div", { class: "box" }, el("button", { onclick: odds }, "Exact odds"), " ",
          el("div", {}, draws, " ", el("button", { onclick: resolve }, "Resolve")), err),
        out, el("a", { href: "#/" }, "All battles"))));
}

route();

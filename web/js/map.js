// The map: a rule set's `view` drawn as SVG — terrain, objectives, pieces by arm with their
// facing, readable names, the selected unit's reach, and the places its choices lead — with
// zoom and pan (wheel, pinch, drag, buttons), a scale bar and a legend. What moved since the
// last drawing is highlighted and slides to its new place.

import { el, svg, centre, words, counted } from "./util.js";

const TERRAIN = {
  woods: ["#9fbf8a", "#6f8f5a"], town: ["#c9b59a", "#8a7560"], hill: ["#e2d6aa", "#b9a97a"],
  river: ["#9cc4e4", "#6f9cc4"], bridge: ["#b08f6a", "#7a5f40"], impassable: ["#9a9a9a", "#666"],
  field: ["#efe7bf", "#cdbf8a"], softground: ["#cfdcb6", "#9fb08a"], builtup: ["#c9b59a", "#8a7560"],
  farm: ["#c9b59a", "#8a7560"], village: ["#c9b59a", "#8a7560"], marsh: ["#b9d2c0", "#7f9f8a"],
  open: ["none", "none"],
};
// A terrain kind in words, where its name is not one ("softground").
const KIND_WORDS = { softground: "soft ground", builtup: "built-up ground" };
const LINES = {
  wall: ["#6b5b4b", 0.35, ""], hedge: ["#4f7040", 0.35, "0.6 0.3"], road: ["#bba27a", 0.6, ""],
  redoubt: ["#5b4b3b", 0.5, ""], trench: ["#5b4b3b", 0.4, "0.4 0.2"], stream: ["#6f9cc4", 0.4, ""],
};
export const SIDES = ["#35588f", "#a8432f"];

/** The arm of a piece: the view's word, else one guessed from its label. */
export function armOf(p) {
  if (p.arm) return p.arm;
  const l = `${p.label} ${p.unit || ""}`.toLowerCase();
  if (/general|commander|officer|\bgen\.|brigadier|colonel/.test(l)) return "general";
  if (/gun|battery|artillery|howitzer/.test(l)) return "artillery";
  if (/cav|hussar|dragoon|cuirass|kürass|uhlan|horse|chasseur à cheval|lancer/.test(l)) return "cavalry";
  if (/wagon|train|transport|baggage/.test(l)) return "transport";
  return "infantry";
}

// The sign of each arm, drawn at a piece's middle in a box `s` wide: the soldier's usual map
// signs (a cross for foot, a slash for horse, a ball for guns, a flag for a general).
function armSign(arm, [x, y], s, fy) {
  const g = svg("g", { class: `sign ${arm}` });
  const X = x, Y = fy(y), h = s * 0.6;
  const box = () => g.append(svg("rect", { x: X - s / 2, y: Y - h / 2, width: s, height: h, fill: "none", stroke: "#fff", "stroke-width": s / 14 }));
  const line = (x1, y1, x2, y2) => g.append(svg("line", { x1, y1, x2, y2, stroke: "#fff", "stroke-width": s / 14 }));
  if (arm === "infantry") { box(); line(X - s / 2, Y - h / 2, X + s / 2, Y + h / 2); line(X - s / 2, Y + h / 2, X + s / 2, Y - h / 2); }
  else if (arm === "cavalry") { box(); line(X - s / 2, Y + h / 2, X + s / 2, Y - h / 2); }
  else if (arm === "artillery") { box(); g.append(svg("circle", { cx: X, cy: Y, r: h / 5, fill: "#fff" })); }
  else if (arm === "transport") { box(); line(X - s / 2, Y, X + s / 2, Y); g.append(svg("circle", { cx: X - s / 4, cy: Y + h / 2, r: h / 8, fill: "#fff" })); g.append(svg("circle", { cx: X + s / 4, cy: Y + h / 2, r: h / 8, fill: "#fff" })); }
  else if (arm === "general") { line(X - s / 4, Y + h / 2, X - s / 4, Y - h / 2); g.append(svg("polygon", { points: `${X - s / 4},${Y - h / 2} ${X + s / 3},${Y - h / 4} ${X - s / 4},${Y}`, fill: "#fff" })); }
  return g;
}

// The places an action names, in order: [x, y] pairs, and grid areas ({col, row}) at their
// centres; on a grid, whole-number pairs are areas too.
export function actionPoints(action, grid) {
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

/** Whether a view is drawn on a grid of areas (Itchy and Scratchy). */
export const isGrid = (view) => view.pieces.some((p) => p.footprint.shape === "polygon") && view.width <= 40 && Number.isInteger(view.width)
  && (view.unit === undefined || view.unit === "area");

/** Where each unit stands: its name → the middle of its pieces and its side. */
/**
 * The view with each commander who is a unit of his own (a marker of kind `commander` with its
 * ground, whose `unit` is his own name: Blown Away's) made a piece, by his name, to be picked and
 * dragged like a unit; the rest as it is.
 */
export function withCommanders(view) {
  // (A commander who is a unit of his own says so: his `unit` is his name. Officers with a unit,
  // or who ride only from unit to unit, stay marks.)
  const figures = view.markers.filter((m) => m.kind === "commander" && m.footprint && m.label && m.unit === m.label
    && !view.pieces.some((p) => p.unit === m.label));
  if (!figures.length) return view;
  return {
    ...view,
    // (First, so that he is drawn under the units.)
    pieces: [...figures.map((m) => ({ side: m.side, unit: m.label, label: "commander", footprint: m.footprint, facing: null, status: "commander", counters: [], ranges: [], arm: "general" })), ...view.pieces],
    markers: view.markers.filter((m) => !figures.includes(m)),
  };
}

/** The states that mark a unit with an amber triangle: shaken, or not far from it. */
const TROUBLED = /shaken|wavering|frightened|nervous|withdrawing|disordered/i;

export function unitPlaces(view) {
  const places = new Map();
  for (const p of view.pieces) {
    if (!p.unit) continue;
    const c = centre(p.footprint);
    const e = places.get(p.unit) || { x: 0, y: 0, n: 0, side: p.side, facing: p.facing };
    e.x += c[0]; e.y += c[1]; e.n += 1;
    places.set(p.unit, e);
  }
  for (const e of places.values()) { e.x /= e.n; e.y /= e.n; }
  return places;
}

/** The units that moved or turned between two views: name → [dx, dy] (table units). */
export function movedUnits(before, after) {
  const moved = new Map();
  if (!before) return moved;
  const a = unitPlaces(before), b = unitPlaces(after);
  const eps = Math.max(after.width, after.depth) / 2000;
  // Where each unit's pieces stood: a unit moved if one of its pieces now stands where none
  // stood (men fallen or taken off leave the others where they were: no move).
  const stood = new Map();
  for (const p of before.pieces) {
    if (!p.unit) continue;
    if (!stood.has(p.unit)) stood.set(p.unit, []);
    stood.get(p.unit).push(centre(p.footprint));
  }
  for (const [name, q] of b) {
    const p = a.get(name);
    if (!p) continue;
    const turned = typeof p.facing === "number" && typeof q.facing === "number" && Math.abs(p.facing - q.facing) > 0.5;
    const old = stood.get(name) || [];
    const shifted = after.pieces.some((x) => x.unit === name && !old.some((o) => { const c = centre(x.footprint); return Math.hypot(c[0] - o[0], c[1] - o[1]) <= eps; }));
    if (shifted || turned) moved.set(name, [q.x - p.x, q.y - p.y]);
  }
  return moved;
}

/** A footprint's two side lengths (a rectangle's; a circle's diameter twice; else its box). */
function sides(f) {
  if (f.shape === "circle") return [f.r * 2, f.r * 2];
  const ps = f.points;
  if (ps.length === 4) return [Math.hypot(ps[1][0] - ps[0][0], ps[1][1] - ps[0][1]), Math.hypot(ps[2][0] - ps[1][0], ps[2][1] - ps[1][1])];
  return [0, 1].map((i) => { const vs = ps.map((q) => q[i]); return Math.max(...vs) - Math.min(...vs); });
}

/** A footprint scaled by `s` about `c`, then shifted by `off`. */
function moveFootprint(f, c, s, off) {
  const at = ([x, y]) => [c[0] + (x - c[0]) * s + off[0], c[1] + (y - c[1]) * s + off[1]];
  return f.shape === "circle" ? { ...f, at: at(f.at), r: f.r * s } : { ...f, points: f.points.map(at) };
}

/** A "nice" length for a scale bar about `target` units long: 1, 2 or 5 times a power of ten. */
function niceLength(target) {
  const p = 10 ** Math.floor(Math.log10(target));
  return [5, 2, 1].map((m) => m * p).find((v) => v <= target) || p;
}

const UNIT_WORDS = { cm: ["cm", "cm"], inch: ["inch", "inches"], area: ["area", "areas"], mm: ["mm", "mm"] };

/**
 * Draw `view`. Options: `onPick(unit|null)` when a piece (or the ground) is clicked;
 * `selected` the selected unit; `targets` the places its choices lead ({points|action, text,
 * take}); `camera` an object keeping the zoom between drawings ({x, y, w, h}, changed in
 * place); `previous` the view to mark changes against (what moved since is marked, and slides
 * unless `animate` is false); `slideFrom` the view last drawn, if the slide is from there rather
 * than from `previous`; `thumbnail`
 * for a small picture without controls or names; `drag` to move the selected unit anywhere:
 * `{check(point) → Promise<verdict>, drop(point, verdict), click(point)}` — while the unit is
 * dragged each place is checked and the verdict drawn (`{legal, why, halt}`), on release
 * `drop`, and a click on the ground with the unit selected is `click` (points in table units);
 * `press` the screen place of a press still held (the one that selected the unit); `turn` a
 * handle to set the selected unit's facing: `{at, facing, set(degrees)}`; `deploy` a
 * deployment to fix: `{zone, units: Set of names, offsets: Map name → [dx, dy], place(unit,
 * [dx, dy])}` — the zone is drawn, the units drawn moved by their offsets, and dragging one
 * calls `place` with how far it was dragged (table units); `onMany(choices)` when a place that
 * several choices lead to is clicked.
 * Returns `{node, map, show}`: the element to place, the SVG, and `show(choice)` which draws a
 * choice's places over the map (null hides them).
 */
export function drawMap(view, { onPick, selected, targets, camera, previous, slideFrom, animate = true, thumbnail, drag, refuse, press, turn, deploy, onMany, onWings, ghost: pending } = {}) {
  const W = view.width, D = view.depth;
  const fy = (y) => D - y; // the table's y runs north; the screen's down
  const pts = (ps) => ps.map(([x, y]) => `${x},${fy(y)}`).join(" ");
  const size = Math.max(W, D);
  const grid = isGrid(view);
  // A unit that has the keyboard's focus keeps it through the new drawing.
  const focused = document.activeElement?.closest?.("svg.map g.unit[tabindex]")?.dataset?.unitGroup;
  if (focused && !refocus) refocus = focused;
  if (ruler.title !== view.title) Object.assign(ruler, { title: view.title, on: false, a: null, b: null, ua: null, ub: null });
  const map = svg("svg", { viewBox: `0 0 ${W} ${D}`, class: thumbnail ? "map thumb" : "map", role: "img", "aria-label": view.title });
  const ground = thumbnail ? svg("g", {}) : svg("rect", { x: -W, y: -D, width: 3 * W, height: 3 * D, fill: "#e4dcc6", class: "ground" });
  map.append(ground, svg("rect", { x: 0, y: 0, width: W, height: D, fill: "#f1ead4", class: "table" }));
  const labels = []; // {node, x, y, chars, priority}
  // (Water is drawn as water whatever the rules count it as: a brook that is soft ground is a brook.)
  const watery = (f) => /\b(brook|river|stream|pond|lake|water|ford|bach)\b/i.test(f.name || "");
  for (const f of view.terrain.filter((t) => t.closed)) {
    const [fill, stroke] = f.kind !== "bridge" && watery(f) ? TERRAIN.river : TERRAIN[f.kind] || ["#ddd", "#aaa"];
    map.append(svg("polygon", { points: pts(f.points), fill, stroke, "stroke-width": size / 600, class: "terrain", "data-kind": f.kind }, `${f.name} (${f.kind})`));
  }
  for (const f of view.terrain.filter((t) => !t.closed)) {
    const [stroke, w, dash] = watery(f) && !LINES[f.kind] ? LINES.stream : LINES[f.kind] || ["#555", 0.3, ""];
    map.append(svg("polyline", { points: pts(f.points), fill: "none", stroke, "stroke-width": (w * size) / 120, "stroke-dasharray": dash ? dash.split(" ").map((d) => (d * size) / 120).join(" ") : null, class: "terrain", "data-kind": f.kind }, `${f.name} (${f.kind})`));
  }
  if (grid) {
    for (let x = 0; x <= W; x++) map.append(svg("line", { x1: x, y1: 0, x2: x, y2: D, stroke: "#d6cdb5", "stroke-width": 0.03 }));
    for (let y = 0; y <= D; y++) map.append(svg("line", { x1: 0, y1: y, x2: W, y2: y, stroke: "#d6cdb5", "stroke-width": 0.03 }));
  }
  // Terrain named on the map (after the units' names, where there is room).
  const named = new Set();
  for (const f of view.terrain) {
    // (Not the grid's areas, named by their column and row: the grid says that.)
    // (Nor one an objective is named after: the objective's name says it.)
    if (!f.name || named.has(f.name) || /^\[[\d\s,.-]+\]$/.test(f.name) || view.objectives.some((o) => bare(o.name) === bare(f.name))) continue;
    named.add(f.name);
    const [x, y] = f.closed ? centre({ shape: "polygon", points: f.points }) : f.points[Math.floor(f.points.length / 2)];
    const t = svg("text", { x, y: fy(y), class: "label tlabel", "text-anchor": "middle" });
    t.textContent = f.name;
    labels.push({ node: t, x, y: fy(y), texts: [f.name], kind: "terrain", priority: 2 });
  }
  if (deploy && deploy.zone.length) {
    map.append(svg("polygon", { points: pts(deploy.zone), fill: "#3f9a3f", "fill-opacity": 0.08, stroke: "#3f9a3f", "stroke-width": size / 500, "stroke-dasharray": `${size / 100} ${size / 200}`, class: "zone" }, "where your units may deploy"));
  }
  for (const o of view.objectives) {
    const colour = o.holder === null || o.holder === undefined ? "#777" : SIDES[o.holder];
    map.append(svg("polygon", { points: pts(o.points), fill: "none", stroke: colour, "stroke-width": W / 300, "stroke-dasharray": `${W / 100} ${W / 200}`, class: "objective" },
      `${o.name}: ${o.holder === null || o.holder === undefined ? "held by nobody" : `held by the ${view.sides[o.holder]}`}`));
    const [cx, cy] = centre({ shape: "polygon", points: o.points });
    const t = svg("text", { x: cx, y: fy(cy), class: "label olabel", "text-anchor": "middle", fill: colour });
    t.textContent = `★ ${o.name}`;
    t.append(svg("title"));
    t.lastChild.textContent = `${o.name} (an objective)`;
    labels.push({ node: t, x: cx, y: fy(cy), texts: [`★ ${o.name}`, `★ ${shortName(o.name)}`], kind: "objective", priority: 1 });
  }
  // The commands (an Old Fritz wing), when asked for: each side's outlined around its units, in
  // its side's colour, and named where there is room.
  const commands = [...new Set(view.pieces.filter((p) => p.group && p.side !== null && p.side !== undefined).map((p) => `${p.side}|${p.group}`))];
  if (wings.on && !thumbnail) {
    for (const key of commands) {
      const [side, name] = [Number(key.split("|")[0]), key.slice(key.indexOf("|") + 1)];
      const corners = view.pieces.filter((p) => p.group === name && p.side === side)
        .flatMap((p) => (p.footprint.shape === "circle" ? [[p.footprint.at[0], p.footprint.at[1]]] : p.footprint.points));
      const pad = size / 150;
      const padded = corners.flatMap(([x, y]) => [[x - pad, y - pad], [x + pad, y - pad], [x + pad, y + pad], [x - pad, y + pad]]);
      const outline = hull(padded);
      if (outline.length < 3) continue;
      map.append(svg("polygon", { points: pts(outline), fill: SIDES[side], "fill-opacity": 0.06, stroke: SIDES[side], "stroke-width": size / 700, "stroke-dasharray": `${size / 150} ${size / 300}`, class: "wing", "data-wing": name, "data-side": side }, `the ${view.sides[side]}' ${name}`));
      const top = outline.reduce((a, b) => (b[1] > a[1] ? b : a));
      const t = svg("text", { x: top[0], y: fy(top[1]) - size / 120, class: "label tlabel wlabel", "text-anchor": "middle", fill: SIDES[side] });
      t.textContent = name;
      labels.push({ node: t, x: top[0], y: fy(top[1]) - size / 120, texts: [name], kind: "terrain", priority: 2 });
    }
  }
  // The pieces, each unit's in a group of its own (so that a move slides it as one).
  const moved = movedUnits(previous, view);
  const groups = new Map();
  const groupOf = (p) => {
    const key = p.unit || `#${groups.size}`;
    if (!groups.has(key)) {
      const g = svg("g", { class: `unit${p.unit && moved.has(p.unit) ? " moved" : ""}${selected && p.unit === selected ? " selected" : ""}`, "data-unit-group": p.unit || null });
      // By keyboard: Tab goes from unit to unit, Enter or Space selects.
      if (onPick && p.unit && !thumbnail) {
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.setAttribute("aria-label", `${p.unit}${p.side === null || p.side === undefined ? "" : ` (${view.sides[p.side]})`}${p.unit === selected ? ", selected" : ""}`);
        g.addEventListener("keydown", (e) => {
          if (e.key !== "Enter" && e.key !== " ") return;
          e.preventDefault();
          refocus = p.unit;
          onPick(p.unit);
        });
      }
      groups.set(key, g);
      map.append(g);
    }
    return groups.get(key);
  };
  const arms = new Set();
  const counterBoxes = [];
  const unitCount = new Set(view.pieces.map((p) => p.unit).filter(Boolean)).size;
  // Pieces on one place (a General with a unit in its area) are drawn so that each shows and
  // each can be clicked: the General small in a corner, the others side by side.
  // (A commander's flag on a measured table stands where he is, under the units.)
  const stacks = new Map();
  for (const p of view.pieces) {
    if (p.footprint.shape === "circle" && armOf(p) === "general") continue;
    const c = centre(p.footprint);
    const key = `${Math.round(c[0] * 200 / size)},${Math.round(c[1] * 200 / size)}`;
    if (!stacks.has(key)) stacks.set(key, []);
    stacks.get(key).push(p);
  }
  const placed = new Map();
  for (const stack of stacks.values()) {
    if (stack.length < 2) continue;
    const ordered = [...stack.filter((p) => armOf(p) !== "general"), ...stack.filter((p) => armOf(p) === "general")];
    const others = ordered.filter((p) => armOf(p) !== "general").length;
    ordered.forEach((p, i) => {
      const general = armOf(p) === "general" && others > 0;
      const c = centre(p.footprint);
      const [w, h] = sides(p.footprint);
      // (Units sharing a place stand side by side in it, each its share of the width, so that
      // none hides under another.)
      const s2 = general ? 0.45 : others > 1 ? 1 / others : 1;
      const off = general ? [w * 0.27, h * 0.27] : others > 1 ? [(i - (others - 1) / 2) * w * s2, 0] : [0, 0];
      placed.set(p, moveFootprint(p.footprint, c, s2, off));
    });
  }
  // (A General stacked with a unit is drawn after it, on top.)
  const onTop = (p) => (placed.has(p) && armOf(p) === "general" ? 1 : 0);
  const drawn = [...view.pieces].sort((a, b) => onTop(a) - onTop(b)).map((p) => (placed.has(p) ? { ...p, footprint: placed.get(p) } : p));
  for (const p of drawn) {
    const g = groupOf(p);
    const colour = p.side === null || p.side === undefined ? "#555" : SIDES[p.side];
    // Fallen men lie grey (the dead, not the running); running and routed ones are faint.
    const fallen = /fallen/.test(p.status);
    const faint = !fallen && /running|rallying|routed|broken|gone/.test(p.status);
    // A figure on foot is a disc; on horseback, a diamond (so horse and foot tell apart).
    const mounted = p.footprint.shape === "circle" && armOf(p) === "cavalry";
    // A general on his own (Blown Away's commander): a flag on its pole, standing at his place.
    const flag = p.footprint.shape === "circle" && armOf(p) === "general";
    const shape = p.footprint.shape === "circle"
      ? flag ? svg("polygon", { points: (() => {
        const [x, y0] = p.footprint.at, y = fy(y0), r = p.footprint.r * 1.6, w = r * 0.18;
        return [[x - w, y + r], [x - w, y - 2.2 * r], [x + 1.8 * r, y - 1.5 * r], [x + w, y - 0.8 * r], [x + w, y + r]].map(([a, b]) => `${a},${b}`).join(" ");
      })() }) : (mounted
        ? svg("polygon", { points: (() => { const [x, y] = p.footprint.at, r = p.footprint.r * 1.25; return `${x},${fy(y) - r} ${x + r},${fy(y)} ${x},${fy(y) + r} ${x - r},${fy(y)}`; })() })
        : svg("circle", { cx: p.footprint.at[0], cy: fy(p.footprint.at[1]), r: p.footprint.r }))
      : svg("polygon", { points: pts(p.footprint.points) });
    shape.setAttribute("fill", fallen ? "#8a8a8a" : colour);
    shape.setAttribute("fill-opacity", faint ? 0.35 : fallen ? 0.6 : 0.85);
    shape.setAttribute("stroke", faint ? colour : fallen ? "#8a8a8a" : "#1d1d1d");
    shape.setAttribute("stroke-width", size / 600);
    if (faint) shape.setAttribute("stroke-dasharray", `${size / 300}`);
    shape.setAttribute("class", `piece${selected && p.unit === selected ? " selected" : ""}`);
    if (selected && p.unit === selected) shape.setAttribute("stroke-width", size / 250);
    if (p.unit) shape.setAttribute("data-unit", p.unit);
    const arm = armOf(p);
    shape.setAttribute("data-arm", arm);
    shape.append(svg("title"));
    const counts = (p.counters || []).map((c) => counted(c.n, c.kind)).join(", ");
    shape.lastChild.textContent = `${p.unit ? `${p.unit}: ` : ""}${p.label} (${p.status})${counts ? ` — ${counts}` : ""}`;
    // Pressing a piece selects its unit; releasing over one of its places takes that choice,
    // so a unit is moved by a click on it and a click on the place, or by dragging it there.
    if (onPick && p.unit) shape.addEventListener("pointerdown", (e) => { e.stopPropagation(); pressUnit(p.unit, e); });
    g.append(shape);
    const c = centre(p.footprint);
    // The sign of its arm, turned with the piece, where the piece is big enough to hold one.
    const [long, short] = sides(p.footprint).sort((a, b) => b - a);
    if (!thumbnail && long >= size / 60 && p.footprint.shape !== "circle") {
      arms.add(arm);
      const sign = armSign(arm, c, Math.min(long * 0.5, short * 1.2), fy);
      if (typeof p.facing === "number" && !grid) sign.setAttribute("transform", `rotate(${p.facing} ${c[0]} ${fy(c[1])})`);
      g.append(sign);
    }
    // Facing: a short stroke from the middle of the piece out past its front.
    if (typeof p.facing === "number") {
      const len = short / 2 + size / 120, rad = (p.facing * Math.PI) / 180;
      g.append(svg("line", { x1: c[0], y1: fy(c[1]), x2: c[0] + Math.sin(rad) * len, y2: fy(c[1] + Math.cos(rad) * len), stroke: "#1d1d1d", "stroke-width": size / 500, class: "facing" }));
    }
    // Counters: green counters as green dots beside the piece, numbers (strength, figures) in it.
    let dx = 0;
    const r = size / 300;
    for (const k of p.counters || []) {
      if (k.kind === "green") {
        for (let i = 0; i < Math.min(k.n, 6); i++) {
          g.append(svg("circle", { cx: c[0] + r * 2.4 * i, cy: fy(c[1]) + size / 80, r, fill: "#3f9a3f", stroke: "#1d5a1d", "stroke-width": r / 4, class: "counter green" }));
        }
      } else if (!thumbnail && !k.detail) {
        // (Big enough to read at the whole table's view: 0.9 of a name's size.)
        const fsz = size / 80, cx = c[0] + dx + size / 70, cy = fy(c[1]) - size / 120;
        const t = svg("text", { x: cx, y: cy, "font-size": fsz, "stroke-width": size / 600, "text-anchor": "start", class: `counter ${k.kind}` });
        t.textContent = String(k.n);
        g.append(t);
        // (A name keeps clear of the numbers too.)
        counterBoxes.push({ unit: "#counter", x0: cx, x1: cx + fsz * 0.6 * String(k.n).length, y0: cy - fsz * 0.8, y1: cy + fsz * 0.2 });
        dx += fsz * 0.6 * String(k.n).length + size / 200;
      }
    }
  }
  // A place and facing given but not yet sent (the umpire's form): the unit's outline drawn
  // there, dashed, as it would stand.
  if (pending && (pending.at || typeof pending.facing === "number")) {
    const own = view.pieces.filter((p) => p.unit === pending.unit);
    const from = unitPlaces({ ...view, pieces: own }).get(pending.unit);
    if (from) {
      const [tx, ty] = pending.at || [from.x, from.y];
      const turnBy = typeof pending.facing === "number" && typeof from.facing === "number" ? pending.facing - from.facing : 0;
      const rad = (turnBy * Math.PI) / 180;
      // (Clockwise from north on the table: x east, y north.)
      const move = ([x, y]) => {
        const dx = x - from.x, dy = y - from.y;
        return [tx + dx * Math.cos(rad) + dy * Math.sin(rad), ty - dx * Math.sin(rad) + dy * Math.cos(rad)];
      };
      for (const p of own) {
        const colour = p.side === null || p.side === undefined ? "#555" : SIDES[p.side];
        const shape = p.footprint.shape === "circle"
          ? (() => { const [x, y] = move(p.footprint.at); return svg("circle", { cx: x, cy: fy(y), r: p.footprint.r }); })()
          : svg("polygon", { points: pts(p.footprint.points.map(move)) });
        shape.setAttribute("fill", colour);
        shape.setAttribute("fill-opacity", 0.25);
        shape.setAttribute("stroke", colour);
        shape.setAttribute("stroke-width", size / 400);
        shape.setAttribute("stroke-dasharray", `${size / 250} ${size / 400}`);
        shape.setAttribute("class", "pending");
        shape.setAttribute("pointer-events", "none");
        map.append(shape);
      }
    }
  }
  // A deployment in hand: units placed otherwise are drawn where they will stand.
  if (deploy) {
    for (const [name, [dx, dy]] of deploy.offsets) {
      groups.get(name)?.setAttribute("transform", `translate(${dx} ${-dy})`);
    }
    for (const name of deploy.units) {
      for (const shape of groups.get(name)?.querySelectorAll(".piece") || []) shape.style.cursor = "grab";
    }
  }
  // A touch target of at least 24 screen pixels for each unit, whatever the zoom (a circle under
  // its pieces, sized by the zoom through --k).
  if (onPick && !thumbnail) {
    for (const [name, c] of unitPlaces({ ...view, pieces: drawn })) {
      const g = groups.get(name);
      if (!g) continue;
      const hit = svg("circle", { cx: c.x, cy: fy(c.y), class: "hit", "data-unit": name, fill: "transparent" });
      hit.addEventListener("pointerdown", (e) => { e.stopPropagation(); pressUnit(name, e); });
      g.prepend(hit);
    }
  }
  // A unit shaken, wavering, frightened, nervous or withdrawing: an amber triangle at the
  // corner of its pieces (its state on hover, and said in the legend).
  if (!thumbnail) {
    for (const [name] of unitPlaces({ ...view, pieces: drawn })) {
      const own = drawn.filter((p) => p.unit === name);
      const state = own.map((p) => p.status).find((st) => TROUBLED.test(st || ""));
      if (!state) continue;
      const box = own.map((p) => boxOf(p.footprint, fy, [0, 0])).reduce((a, b) => ({ x0: Math.min(a.x0, b.x0), x1: Math.max(a.x1, b.x1), y0: Math.min(a.y0, b.y0), y1: Math.max(a.y1, b.y1) }));
      const r = size / 110, x = box.x1 + r * 0.6, y = box.y0 - r * 0.2;
      const mark = svg("polygon", { points: `${x},${y - r} ${x + r},${y + r * 0.7} ${x - r},${y + r * 0.7}`, fill: "#c96f00", stroke: "#fff", "stroke-width": size / 1500, class: "statemark", "data-state": state, "data-unit-state": name }, `${name}: ${state}`);
      (groups.get(name) || map).append(mark);
    }
  }
  // The units' names, once per unit, above the middle of its pieces.
  const unitNames = [...new Set(view.pieces.map((p) => p.unit).filter(Boolean))];
  for (const [name, c] of unitPlaces({ ...view, pieces: drawn })) {
    if (deploy && deploy.offsets.has(name)) { c.x += deploy.offsets.get(name)[0]; c.y += deploy.offsets.get(name)[1]; }
    const t = svg("text", { x: c.x, y: fy(c.y), class: `label ulabel${name === selected ? " sel" : ""}`, "text-anchor": "middle", "data-label": name });
    t.textContent = name;
    const off = deploy && deploy.offsets.has(name) ? deploy.offsets.get(name) : [0, 0];
    const own = drawn.filter((p) => p.unit === name).map((p) => boxOf(p.footprint, fy, off));
    const unit = own.reduce((a, b) => ({ x0: Math.min(a.x0, b.x0), x1: Math.max(a.x1, b.x1), y0: Math.min(a.y0, b.y0), y1: Math.max(a.y1, b.y1) }));
    const variants = labelVariants(name, unitNames);
    labels.push({ node: t, x: c.x, y: fy(c.y), texts: variants, kind: "unit", name, unit, bold: name === selected, priority: name === selected ? -1 : 0 });
  }
  // Where the moved units came from: a faint trail.
  const places = unitPlaces(view);
  for (const [name, [dx, dy]] of moved) {
    const q = places.get(name);
    if (!q || Math.hypot(dx, dy) < size / 400) continue;
    map.append(svg("line", { x1: q.x - dx, y1: fy(q.y - dy), x2: q.x, y2: fy(q.y), class: "trail", stroke: SIDES[q.side ?? 0], "stroke-width": size / 500, "stroke-dasharray": `${size / 200} ${size / 300}` }));
  }
  // The selected unit's command (an Old Fritz wing): its other units marked, and its orders'
  // places joined to it.
  // (A command is its side's: two sides' wings may share a name.)
  const chosen = selected ? view.pieces.find((p) => p.unit === selected) : null;
  const group = chosen?.group ?? null;
  const ours = (p) => p.group === group && p.side === chosen?.side;
  if (group) {
    for (const g of map.querySelectorAll("g.unit")) {
      const u = g.getAttribute("data-unit-group");
      if (u && u !== selected && view.pieces.some((p) => p.unit === u && ours(p))) g.classList.add("wingmate");
    }
  }
  for (const m of view.markers) {
    const [x, y] = m.at;
    if (/order/.test(m.kind)) {
      // An order: a diamond where it sends the wing (dashed while it is on its way).
      const r = size / 110, colour = m.side === null || m.side === undefined ? "#555" : SIDES[m.side];
      const mine = group && m.side === chosen?.side && m.label.includes(`the ${group}`);
      if (mine) {
        const c = unitPlaces({ ...view, pieces: view.pieces.filter(ours) });
        const pts2 = [...c.values()];
        if (pts2.length) {
          const cx = pts2.reduce((a, q) => a + q.x, 0) / pts2.length, cy = pts2.reduce((a, q) => a + q.y, 0) / pts2.length;
          map.append(svg("line", { x1: cx, y1: fy(cy), x2: x, y2: fy(y), stroke: colour, "stroke-width": size / 500, "stroke-dasharray": `${size / 120} ${size / 240}`, class: "orderline" }));
        }
      }
      map.append(svg("polygon", { points: `${x},${fy(y) - r} ${x + r},${fy(y)} ${x},${fy(y) + r} ${x - r},${fy(y)}`, fill: "#fff", "fill-opacity": 0.8, stroke: colour, "stroke-width": size / (mine ? 300 : 600), "stroke-dasharray": m.kind === "order" ? null : `${r / 2} ${r / 3}`, class: `order${mine ? " mine" : ""}` }, m.label));
      continue;
    }
    const dot = svg("circle", { cx: x, cy: fy(y), r: size / 250, fill: m.side === null || m.side === undefined ? "#555" : SIDES[m.side], stroke: "#fff", "stroke-width": size / 1500, class: "marker" }, `${m.kind}: ${m.label}`);
    // A marker over a piece (an officer with his unit) passes a press on to the piece.
    if (onPick) {
      dot.addEventListener("pointerdown", (e) => {
        const under = document.elementsFromPoint(e.clientX, e.clientY).find((n) => n.classList && n.classList.contains("piece") && n.dataset.unit);
        if (under) { e.stopPropagation(); pressUnit(under.dataset.unit, e); }
      });
    }
    map.append(dot);
  }
  // The selected unit's reach: weapon ranges within their arcs (moved with it where a
  // deployment in hand places it otherwise).
  for (const p of view.pieces.filter((q) => selected && q.unit === selected)) {
    const [ox, oy] = deploy && deploy.offsets.has(p.unit) ? deploy.offsets.get(p.unit) : [0, 0];
    for (const r of p.ranges || []) {
      map.append(svg("polygon", { points: pts(r.points.map(([x, y]) => [x + ox, y + oy])), fill: "#e0b000", "fill-opacity": 0.12, stroke: "#b08a00", "stroke-width": size / 900, class: "range" }, r.label));
    }
  }
  const overlay = svg("g", { class: "overlay" });
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
  // Where the selected unit's choices lead: a dot for each place, to click. Not for choices that
  // leave the unit where it stands (a halt, a change of formation, a card): those are in the
  // list. Several choices to one place share a dot, which asks which (`onMany`).
  let pressedDot = null;
  const own = drawn.filter((p) => selected && p.unit === selected);
  const inside = ([x, y]) => own.some((p) => {
    if (p.footprint.shape === "circle") return Math.hypot(x - p.footprint.at[0], y - p.footprint.at[1]) <= p.footprint.r + size / 200;
    // Within the polygon (or on its edge), counting crossings of a ray to the east.
    const ps = p.footprint.points;
    let hit = false;
    for (let i = 0, j = ps.length - 1; i < ps.length; j = i++) {
      const [xi, yi] = ps[i], [xj, yj] = ps[j];
      if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
    }
    return hit || Math.hypot(x - centre(p.footprint)[0], y - centre(p.footprint)[1]) <= size / 200;
  });
  const byPlace = new Map();
  for (const t of targets || []) {
    const ps = placesOf(t);
    if (!ps.length) continue;
    const [x, y] = ps[ps.length - 1];
    if (inside([x, y])) continue;
    const k = `${Math.round(x * 20)},${Math.round(y * 20)}`;
    if (!byPlace.has(k)) byPlace.set(k, { x, y, choices: [] });
    byPlace.get(k).choices.push(t);
  }
  const coarse = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
  for (const { x, y, choices } of byPlace.values()) {
    const t = choices[0];
    const many = choices.length > 1;
    const dot = svg("circle", { cx: x, cy: fy(y), r: size / (coarse ? 90 : 160), fill: "#e0b000", "fill-opacity": 0.75, stroke: "#7a5f00", "stroke-width": size / (many ? 500 : 1500), class: `target${many ? " many" : ""}` },
      many ? `${choices.length} choices lead here: ${choices.map((c) => c.text).join("; ")}` : t.text);
    dot.style.cursor = "pointer";
    const take = () => (many && onMany ? onMany(choices) : t.take());
    // Taken by a click on it, or by a unit dragged onto it; never by the release of the press
    // that selected the unit.
    dot.addEventListener("pointerdown", (e) => { e.stopPropagation(); pressedDot = dot; });
    // A unit dropped on a dot takes its choice only if that is a plain move (the same formation
    // and facing); anything else is left to the drop, which proposes in words (issue 29, 1).
    dot.addEventListener("pointerup", () => {
      // (On a grid, where a unit is not dragged anywhere, a drop on a dot is its choice.)
      if (pressedDot === dot || (dragging && dragging.moved && !many && (t.plain || !drag))) take();
      pressedDot = null;
    });
    dot.dataset.plain = !many && t.plain ? "1" : "0";
    dot.addEventListener("mouseenter", () => show(t));
    dot.addEventListener("mouseleave", () => show(null));
    map.append(dot);
  }
  if (thumbnail) return { node: map, map, show };
  const labelLayer = svg("g", { class: "labels" });
  labels.sort((a, b) => a.priority - b.priority);
  for (const l of labels) {
    if (l.kind === "unit") {
      l.leader = svg("line", { class: "leader", stroke: "#5a5346", "stroke-width": size / 1500 });
      labelLayer.append(l.leader);
    }
  }
  for (const l of labels) labelLayer.append(l.node);
  map.append(labelLayer);
  // Every piece's box, as the labels must keep clear of them (named by unit).
  const pieceBoxes = [...drawn.map((p) => ({ unit: p.unit, ...boxOf(p.footprint, fy, deploy && p.unit && deploy.offsets.has(p.unit) ? deploy.offsets.get(p.unit) : [0, 0]) })), ...counterBoxes];

  // ----- moving the selected unit anywhere: drag it, or click a place -----
  // A press on a unit: the selected one begins a drag; another is selected.
  function pressUnit(unit, e) {
    // With the ruler out, a unit is a place to measure from or to (where it was pressed).
    if (ruler.on) { measureAt(tableAt(e), unit); return; }
    if (deploy && deploy.units.has(unit)) {
      placing = { unit, x: e.clientX, y: e.clientY, from: tableAt(e), base: deploy.offsets.get(unit) || [0, 0] };
      return;
    }
    if (unit === selected) dragging = { x: e.clientX, y: e.clientY, moved: false };
    else if (onPick) onPick(unit, e);
  }
  const ghost = svg("g", { class: "ghost" });
  map.append(ghost);
  const from = selected ? unitPlaces({ ...view, pieces: drawn }).get(selected) : null;
  /** Draw a proposed place and the rules' verdict on it (null clears). */
  const showVerdict = (point, verdict) => {
    ghost.replaceChildren();
    if (!point || !from) return;
    const colour = !verdict ? "#888" : verdict.legal ? "#3f9a3f" : "#b03a2e";
    ghost.append(svg("line", { x1: from.x, y1: fy(from.y), x2: point[0], y2: fy(point[1]), stroke: colour, "stroke-width": size / 400, "stroke-dasharray": `${size / 150} ${size / 300}` }));
    ghost.append(svg("circle", { cx: point[0], cy: fy(point[1]), r: size / 120, fill: colour, "fill-opacity": 0.5, stroke: colour, "stroke-width": size / 600, class: `proposed ${verdict ? (verdict.legal ? "legal" : "refused") : "asking"}` }));
    if (verdict && verdict.halt) {
      ghost.append(svg("circle", { cx: verdict.halt[0], cy: fy(verdict.halt[1]), r: size / 100, fill: "none", stroke: "#e0b000", "stroke-width": size / 300, class: "halt" }, "where the rules halt it"));
    }
  };
  // Deploying: a unit dragged by the same offset as the pointer; placed on release.
  let placing = null;
  map.addEventListener("pointermove", (e) => {
    if (!placing) return;
    const [x, y] = tableAt(e);
    const [dx, dy] = [placing.base[0] + x - placing.from[0], placing.base[1] + y - placing.from[1]];
    groups.get(placing.unit)?.setAttribute("transform", `translate(${dx} ${-dy})`);
  });
  map.addEventListener("pointerup", (e) => {
    if (!placing) return;
    const p = placing;
    placing = null;
    const [x, y] = tableAt(e);
    // Not moved: a click, which selects the unit (its panel).
    if (Math.hypot(x - p.from[0], y - p.from[1]) < size / 400) { if (onPick) onPick(p.unit); return; }
    deploy.place(p.unit, [p.base[0] + x - p.from[0], p.base[1] + y - p.from[1]]);
  });
  // (A press that selected the unit, drawing this map, may go on into a drag.)
  let dragging = press && selected ? { x: press.x, y: press.y, moved: false } : null; // where the press began (screen)
  // A screen point in the SVG's user units (the middle of the map while it is not on screen).
  const toUserPoint = (e) => {
    const m = map.getScreenCTM();
    if (!m) return [W / 2, D / 2];
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  };
  const tableAt = (e) => { const [ux, uy] = toUserPoint(e); return [ux, D - uy]; };
  if (drag && selected) {
    for (const shape of map.querySelectorAll(".piece")) {
      if (shape.dataset.unit === selected) shape.style.cursor = "grab";
    }
  }
  // Ask the rules about a place, one question on its way at a time (the latest place wins).
  const ask = (pt) => {
    if (dragging.busy) { dragging.want = pt; return; }
    dragging.busy = true;
    drag.check(pt).then((v) => {
      if (dragging && !dragging.want) showVerdict(pt, v);
    }).catch(() => {}).finally(() => {
      if (!dragging) return;
      dragging.busy = false;
      if (dragging.want) { const w = dragging.want; dragging.want = null; ask(w); }
    });
  };
  map.addEventListener("pointermove", (e) => {
    if (!dragging) return;
    if (!dragging.moved && Math.abs(e.clientX - dragging.x) + Math.abs(e.clientY - dragging.y) < 5) return;
    dragging.moved = true;
    if (!drag) return;
    const point = tableAt(e);
    if (!dragging.busy) showVerdict(point, null);
    ask(point);
  });
  map.addEventListener("pointerup", (e) => {
    const d = dragging;
    dragging = null;
    // On a grid a unit goes only where its choices' dots are: a drop anywhere else is refused
    // in words (`refuse`), never ignored.
    if (d && d.moved && !drag && refuse && !(e.target.classList && e.target.classList.contains("target"))) refuse(tableAt(e));
    if (!d || !d.moved || !drag) return;
    if (e.target.classList && e.target.classList.contains("target") && e.target.dataset.plain === "1") return; // a plain move's own place: taken
    drag.drop(tableAt(e));
  });

  // The turning handle: a knob in front of the unit; dragged round, it sets the facing.
  if (turn) {
    const reach = size / 25;
    const knobAt = (deg) => [turn.at[0] + Math.sin((deg * Math.PI) / 180) * reach, turn.at[1] + Math.cos((deg * Math.PI) / 180) * reach];
    const [kx, ky] = knobAt(turn.facing);
    const arm = svg("line", { x1: turn.at[0], y1: fy(turn.at[1]), x2: kx, y2: fy(ky), stroke: "#7a5f00", "stroke-width": size / 700, class: "turnarm", "pointer-events": "none" });
    const knob = svg("circle", { cx: kx, cy: fy(ky), r: size / 140, fill: "#fff", stroke: "#7a5f00", "stroke-width": size / 500, class: "turnknob" }, "drag round to face another way");
    knob.style.cursor = "grab";
    let turning = null;
    const angle = (e) => { const [x, y] = tableAt(e); return ((Math.atan2(x - turn.at[0], y - turn.at[1]) * 180) / Math.PI + 360) % 360; };
    knob.addEventListener("pointerdown", (e) => { e.stopPropagation(); turning = turn.facing; map.setPointerCapture?.(e.pointerId); });
    map.addEventListener("pointermove", (e) => {
      if (turning === null) return;
      turning = angle(e);
      const [x, y] = knobAt(turning);
      knob.setAttribute("cx", x); knob.setAttribute("cy", fy(y));
      arm.setAttribute("x2", x); arm.setAttribute("y2", fy(y));
    });
    map.addEventListener("pointerup", () => {
      if (turning === null) return;
      const deg = turning;
      turning = null;
      turn.set(deg);
    });
    map.append(arm, knob);
  }

  // ----- zoom and pan -----
  const cam = camera || {};
  if (!(cam.w > 0)) Object.assign(cam, { x: 0, y: 0, w: W, h: D });
  const scale = el("div", { class: "scalebar" });
  const unitWords = UNIT_WORDS[view.unit] || (grid ? UNIT_WORDS.area : null);
  const apply = () => {
    map.setAttribute("viewBox", `${cam.x} ${cam.y} ${cam.w} ${cam.h}`);
    const px = map.clientWidth || 800;
    // The SVG keeps the aspect: one user unit is this many screen pixels.
    const perUnit = Math.min(px / cam.w, (map.clientHeight || px * (cam.h / cam.w)) / cam.h);
    const k = 1 / perUnit;
    map.style.setProperty("--k", k);
    placeLabels(labels, pieceBoxes, k, { x0: cam.x, x1: cam.x + cam.w, y0: cam.y, y1: cam.y + cam.h });
    // The numbers on the pieces (figures, strength) where they can be read: zoomed in, or on a
    // table of few units; else on hover and in the order of battle.
    map.classList.toggle("close", cam.w <= W * 0.7 || unitCount <= 20);
    const len = niceLength((cam.w / 5));
    scale.replaceChildren(el("span", { class: "scaleline", style: `width: ${len * perUnit}px` }),
      ` ${len} ${unitWords ? unitWords[len === 1 ? 0 : 1] : "table units"}`);
  };
  const zoomAt = (factor, ux, uy) => {
    const w = Math.min(Math.max(cam.w * factor, size / 40), W * 1.6);
    const f = w / cam.w;
    cam.x = ux - (ux - cam.x) * f;
    cam.y = uy - (uy - cam.y) * f;
    cam.w = w;
    cam.h = (w * D) / W;
    apply();
  };
  const fit = () => { Object.assign(cam, { x: 0, y: 0, w: W, h: D }); apply(); };
  const toUser = toUserPoint;
  map.addEventListener("wheel", (e) => {
    e.preventDefault();
    const [ux, uy] = toUser(e);
    zoomAt(e.deltaY > 0 ? 1.2 : 1 / 1.2, ux, uy);
  }, { passive: false });
  // Dragging the ground pans; two fingers pinch; a click on the ground clears the selection.
  const pointers = new Map();
  let panned = false, pinch = null, stretch = null;
  ground.parentNode.addEventListener("pointerdown", (e) => {
    // (Pieces, the choices' places and the turning knob have presses of their own.)
    if (e.target.closest && e.target.closest(".piece, .target, .turnknob")) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    panned = false;
    // With the ruler out, a press on the ground may be stretched to where it is let go.
    stretch = ruler.on && pointers.size === 1 ? { from: tableAt(e), moved: false } : null;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]), w: cam.w };
    }
    map.setPointerCapture?.(e.pointerId);
  });
  map.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId)) return;
    const [lx, ly] = pointers.get(e.pointerId);
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      const [ux, uy] = toUser({ clientX: (a[0] + b[0]) / 2, clientY: (a[1] + b[1]) / 2 });
      zoomAt((pinch.w * (pinch.d / Math.max(d, 1))) / cam.w, ux, uy);
      panned = true;
      return;
    }
    if (stretch && pointers.size === 1) {
      // (A few pixels' wobble is still a click.)
      const [sx, sy] = pointers.get(e.pointerId);
      if (!stretch.moved && Math.hypot(e.clientX - sx, e.clientY - sy) < 1 && Math.hypot(e.clientX - lx, e.clientY - ly) < 4) return;
      if (!stretch.moved) { stretch.moved = true; Object.assign(ruler, { a: stretch.from, b: null, ua: null, ub: null }); }
      ruler.b = tableAt(e);
      drawRuler();
      rulerOut.textContent = `Measured: ${measureWords(ruler.a, ruler.b)}.`;
      return;
    }
    const k = cam.w / (map.clientWidth || 800);
    if (Math.abs(e.clientX - lx) + Math.abs(e.clientY - ly) > 0) {
      cam.x -= (e.clientX - lx) * k;
      cam.y -= (e.clientY - ly) * k;
      if (!panned) panned = true;
      apply();
    }
  });
  const release = (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (stretch && stretch.moved) { stretch = null; return; }
    stretch = null;
    if (!panned && pointers.size === 0) {
      if (ruler.on) measureAt(tableAt(e));
      else if (drag && selected) drag.click(tableAt(e));
      else if (onPick) onPick(null);
    }
  };
  // The ruler: two clicks on the table, and the distance between them in the table's measure
  // (areas counted as the grid counts them: the most of the two differences).
  const rulerLayer = svg("g", { class: "ruler" });
  map.append(rulerLayer);
  const measureWords = (a, b) => {
    const d = grid ? Math.max(Math.abs(Math.floor(a[0]) - Math.floor(b[0])), Math.abs(Math.floor(a[1]) - Math.floor(b[1]))) : Math.hypot(a[0] - b[0], a[1] - b[1]);
    const w = unitWords ? unitWords[d === 1 ? 0 : 1] : "table units";
    const said = `${grid ? d : d.toFixed(1)} ${w}`;
    // From one unit to another: also the gap between their bodies at the nearest (front to
    // front, or wherever they are nearest), as a player lays a ruler between two stands.
    if (grid || !ruler.ua || !ruler.ub || ruler.ua === ruler.ub) return said;
    const gap = bodyGap(view.pieces, ruler.ua, ruler.ub);
    return gap === null ? said : `${said} between the two places; ${ruler.ua} to ${ruler.ub} at the nearest: ${gap.toFixed(1)} ${unitWords ? unitWords[1] : "table units"}`;
  };
  const drawRuler = () => {
    rulerLayer.replaceChildren();
    if (!ruler.on || !ruler.a) return;
    const [a, b] = [ruler.a, ruler.b || ruler.a];
    rulerLayer.append(svg("line", { x1: a[0], y1: fy(a[1]), x2: b[0], y2: fy(b[1]), stroke: "#111", "stroke-width": size / 400, "stroke-dasharray": `${size / 150} ${size / 300}` }),
      svg("circle", { cx: a[0], cy: fy(a[1]), r: size / 250, fill: "#111" }));
    if (ruler.b) {
      rulerLayer.append(svg("circle", { cx: b[0], cy: fy(b[1]), r: size / 250, fill: "#111" }));
      const t = svg("text", { x: (a[0] + b[0]) / 2, y: fy((a[1] + b[1]) / 2), class: "label rulerlabel", "text-anchor": "middle", "data-measure": "1" });
      t.textContent = measureWords(a, b);
      rulerLayer.append(t);
    }
  };
  const measureAt = (p, unit = null) => {
    if (!ruler.a || ruler.b) { ruler.a = p; ruler.b = null; ruler.ua = unit; ruler.ub = null; } else { ruler.b = p; ruler.ub = unit; }
    drawRuler();
    rulerOut.textContent = ruler.b ? `Measured: ${measureWords(ruler.a, ruler.b)}.` : "Click where to measure to.";
  };
  const rulerOut = el("div", { class: "rulerout", "aria-live": "polite" }, ruler.on ? (ruler.b ? `Measured: ${measureWords(ruler.a, ruler.b)}.` : "Click two places on the table, or drag from one to the other, to measure between them.") : "");
  drawRuler();
  map.addEventListener("pointerup", release);
  map.addEventListener("pointercancel", release);
  const button = (text, title, act, data) => el("button", { class: "plain", title, "aria-label": title, "data-zoom": data, onclick: act }, text);
  const controls = el("div", { class: "mapcontrols" },
    button("+", "zoom in", () => zoomAt(1 / 1.5, cam.x + cam.w / 2, cam.y + cam.h / 2), "in"),
    button("−", "zoom out", () => zoomAt(1.5, cam.x + cam.w / 2, cam.y + cam.h / 2), "out"),
    button("⤢", "fit the table to the screen", fit, "fit"),
    button("↔", "measure between two places (a ruler)", (e) => {
      ruler.on = !ruler.on;
      ruler.a = ruler.b = ruler.ua = ruler.ub = null;
      e.currentTarget.classList.toggle("on", ruler.on);
      rulerOut.textContent = ruler.on ? "Click two places on the table, or drag from one to the other, to measure between them." : "";
      drawRuler();
    }, "ruler"),
    commands.length ? button("⚑", "outline each side's wings", (e) => {
      wings.on = !wings.on;
      e.currentTarget.classList.toggle("on", wings.on);
      onWings?.();
    }, "wings") : null);
  if (ruler.on) controls.querySelector('[data-zoom="ruler"]').classList.add("on");
  if (wings.on) controls.querySelector('[data-zoom="wings"]')?.classList.add("on");
  const legend = mapLegend(view, arms);
  const node = el("div", { class: "mapwrap" }, map, controls, scale, legend, rulerOut);
  // Draw the zoom once the map has its size on screen, and again whenever that size changes.
  new ResizeObserver(() => apply()).observe(map);
  requestAnimationFrame(apply);
  // The moved units slide from where they were (after the map is on screen).
  const slides = slideFrom ? movedUnits(slideFrom, view) : moved;
  if (slides.size && animate) {
    requestAnimationFrame(() => {
      for (const [name, [dx, dy]] of slides) {
        const g = groups.get(name);
        if (!g || typeof g.animate !== "function") continue;
        g.animate([{ transform: `translate(${-dx}px, ${dy}px)` }, { transform: "translate(0px, 0px)" }], { duration: 600, easing: "ease-out" });
      }
    });
  }
  // (A unit chosen by keyboard keeps the focus through the new drawing.)
  if (refocus && groups.has(refocus)) {
    const g = groups.get(refocus);
    requestAnimationFrame(() => g.focus({ preventScroll: true }));
  }
  refocus = null;
  return { node, map, show, showVerdict };
}

let refocus = null; // the unit last chosen by keyboard
const ruler = { on: false, a: null, b: null, ua: null, ub: null }; // the ruler, kept through new drawings (ua, ub: the units measured from and to)

/**
 * The gap between two units' bodies where they are nearest, in table units (0 where they touch or
 * overlap), from their pieces' footprints; `null` if either has none.
 */
export function bodyGap(pieces, ua, ub) {
  const shapes = (u) => pieces.filter((p) => p.unit === u && p.footprint).map((p) => p.footprint);
  const [A, B] = [shapes(ua), shapes(ub)];
  if (!A.length || !B.length) return null;
  const segs = (f) => (f.shape === "circle" ? [[f.at, f.at, f.r]] : f.points.map((q, i) => [q, f.points[(i + 1) % f.points.length], 0]));
  const toSeg = (p, [a, b]) => {
    const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
    const l = dx * dx + dy * dy;
    const t = l ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l)) : 0;
    return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
  };
  const within = (p, f) => {
    if (f.shape === "circle") return Math.hypot(p[0] - f.at[0], p[1] - f.at[1]) <= f.r;
    let inside = false;
    for (let i = 0, j = f.points.length - 1; i < f.points.length; j = i++) {
      const [xi, yi] = f.points[i], [xj, yj] = f.points[j];
      if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  };
  let best = Infinity;
  for (const fa of A) for (const fb of B) {
    // (Segments that cross, or a corner inside the other, touch: no gap.)
    const corners = (f) => (f.shape === "circle" ? [f.at] : f.points);
    if (corners(fa).some((p) => within(p, fb)) || corners(fb).some((p) => within(p, fa))) return 0;
    for (const sa of segs(fa)) for (const sb of segs(fb)) {
      const side = (a, b, c) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
      if (!sa[2] && !sb[2] && side(sa[0], sa[1], sb[0]) * side(sa[0], sa[1], sb[1]) < 0 && side(sb[0], sb[1], sa[0]) * side(sb[0], sb[1], sa[1]) < 0) return 0;
      const d = Math.min(toSeg(sa[0], sb), toSeg(sa[1], sb), toSeg(sb[0], sa), toSeg(sb[1], sa)) - sa[2] - sb[2];
      best = Math.min(best, Math.max(0, d));
    }
  }
  return best;
}
const wings = { on: false }; // the commands (Old Fritz's wings) outlined, kept through new drawings

/** The convex hull of points (x, y), counter-clockwise. */
function hull(points) {
  const ps = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (ps.length < 3) return ps;
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list) => {
    const h = [];
    for (const p of list) {
      while (h.length >= 2 && cross(h[h.length - 2], h[h.length - 1], p) <= 0) h.pop();
      h.push(p);
    }
    h.pop();
    return h;
  };
  return [...half(ps), ...half([...ps].reverse())];
}

// What the colours and signs on this map mean.
function mapLegend(view, arms) {
  const markerKinds = [...new Set(view.markers.filter((m) => !/order/.test(m.kind)).map((m) => m.kind))];
  const kinds = [...new Set(view.terrain.map((t) => t.kind))].filter((k) => k !== "open");
  const swatch = (kind) => {
    const [fill, stroke] = TERRAIN[kind] || (LINES[kind] ? [LINES[kind][0], LINES[kind][0]] : ["#ddd", "#aaa"]);
    return el("span", { class: "swatch", style: `background: ${fill === "none" ? "transparent" : fill}; border-color: ${stroke}` });
  };
  const items = [
    ...view.sides.map((s, i) => el("span", { class: "item" }, el("span", { class: "swatch", style: `background: ${SIDES[i]}` }), s)),
    ...kinds.map((k) => el("span", { class: "item" }, swatch(k), KIND_WORDS[k] || k)),
    view.objectives.length ? el("span", { class: "item" }, "★ objective (dashed: its holder's colour)") : null,
    arms.size === 0 ? el("span", { class: "item" }, "a stroke shows each piece's front") : el("span", { class: "item" }, `signs: ${words([...arms].map((a) => ({ infantry: "⊠ infantry", cavalry: "◩ cavalry", artillery: "⊡ artillery", general: "⚑ general", transport: "transport" }[a] || a)))}; a stroke shows the front`),
    view.pieces.some((p) => (p.counters || []).some((c) => c.kind === "green")) ? el("span", { class: "item" }, el("span", { class: "swatch dot" }), "green counters") : null,
    markerKinds.length ? el("span", { class: "item" }, `small dots: ${words(markerKinds)} (point at one to read it)`) : null,
    el("span", { class: "item" }, el("span", { class: "swatch", style: "border: 2px solid #e0b000" }), "outlined in gold: moved since you last acted (a faint line shows where from)"),
    view.pieces.some((p) => /running|rallying|routed|broken|gone/.test(p.status)) ? el("span", { class: "item" }, el("span", { class: "swatch", style: "border: 1px dashed #555; opacity: 0.5" }), "faint and dashed: running or routed") : null,
    view.pieces.some((p) => /fallen/.test(p.status)) ? el("span", { class: "item" }, el("span", { class: "swatch", style: "background: #8a8a8a; opacity: 0.6" }), "grey: fallen") : null,
    view.pieces.some((p) => TROUBLED.test(p.status || "")) ? el("span", { class: "item" }, el("span", { style: "color: #c96f00" }, "▲"), ` ${words([...new Set(view.pieces.map((p) => (p.status || "").match(TROUBLED)?.[0]).filter(Boolean).map((w) => w.toLowerCase()))])} (point at the unit to read it)`) : null,
    view.pieces.some((p) => (p.counters || []).some((c) => c.kind !== "green")) ? el("span", { class: "item" }, "numbers: figures or strength (zoom in to read them, or point at a unit)") : null,
    view.pieces.some((p) => p.footprint.shape === "circle" && armOf(p) === "cavalry") ? el("span", { class: "item" }, "◆ a horseman, ● a man on foot") : null,
    view.pieces.some((p) => p.footprint.shape === "circle" && armOf(p) === "general") ? el("span", { class: "item" }, "⚑ a commander (pick him and drag him to ride)") : null,
    view.markers.some((m) => /order/.test(m.kind)) ? el("span", { class: "item" }, "◇ where an order sends a wing (dashed: the order is on its way)") : null,
    wings.on && view.pieces.some((p) => p.group) ? el("span", { class: "item" }, "dashed outlines in a side's colour: its wings (⚑ hides them)") : null,
  ];
  return el("details", { class: "legend" }, el("summary", {}, "Legend"), el("div", {}, items));
}

// ----- the names on the map -----

/** A place's name without its article, to tell "the bridge" and "bridge" as one. */
const bare = (name) => name.toLowerCase().replace(/^the\s+/, "");

// Words shortened in a name that has no room (the full name shows on hover).
const SHORT = {
  grenadier: "Gren.", grenadiers: "Gren.", battalion: "bn", bataillon: "bn", battery: "Bty", heavy: "Hvy",
  regiment: "Regt", hussars: "Huss.", hussar: "Huss.", cuirassiers: "Cuir.", dragoons: "Drag.",
  freibataillon: "Frbn", infantry: "Inf.", cavalry: "Cav.", artillery: "Art.", brigade: "Bde",
  division: "Div.", company: "Coy", squadron: "Sqn", light: "Lt", horse: "H.", foot: "Ft",
  generalleutnant: "GL", generalmajor: "GM", general: "Gen.", field: "F.", marshal: "M.",
};

/** A name with its common words shortened ("Grenadier battalion Kleist" → "Gren. bn Kleist"). */
export function shortName(name) {
  return name.split(/\s+/).filter((w) => !/^(the|of|von|de|la|le)$/i.test(w)).map((w) => SHORT[w.toLowerCase().replace(/[.,]$/, "")] || w).join(" ");
}

/** A name at its shortest: up to its number ("IR 25 Kalckstein" → "IR 25"), else its last word. */
export function shortest(name) {
  const w = name.split(/\s+/);
  const n = w.findIndex((x) => /\d/.test(x));
  if (n >= 0) return w.slice(0, n + 1).join(" ");
  const last = w[w.length - 1];
  // (A last word in brackets, "Austrian battery (centre)", says which of several: it keeps the word before.)
  return (last.length < 3 || last.startsWith("(")) && w.length > 1 ? w.slice(-2).join(" ") : last;
}

/**
 * The forms a unit's name may take on the map, longest first: the name, shortened, at its
 * shortest; a short form another of `names` shares ("IR 12" for IR 12 Botta and IR 12 Erbprinz)
 * is not used, and each is told by the first letters of its next word instead ("IR 12 Bot.").
 */
export function labelVariants(name, names) {
  const shorts = (n) => new Set([shortName(n), shortest(n)].filter((t) => t !== n));
  const others = names.filter((n) => n !== name).flatMap((n) => [...shorts(n)]);
  const shared = new Set([...shorts(name)].filter((t) => others.includes(t) || names.includes(t) && t !== name));
  const variants = [...new Set([name, shortName(name), shortest(name)])].filter((t) => t === name || !shared.has(t));
  if (shared.has(shortest(name))) variants.push(distinctShort(name));
  return [...new Set(variants)];
}

/** A short name told apart from another's: up to its number and the first letters of the next word ("IR 12 Bot."). */
export function distinctShort(name) {
  const w = name.split(/\s+/);
  const n = w.findIndex((x) => /\d/.test(x));
  const next = w[n >= 0 ? n + 1 : 1];
  if (!next) return name;
  return [...w.slice(0, n >= 0 ? n + 1 : 1), next.length > 4 ? `${next.slice(0, 3)}.` : next].join(" ");
}

// The width of a text at 12 px, measured once (a canvas measures without laying out the page).
const widths = new Map();
let pen = null;
function textWidth(text, font) {
  const key = `${font}|${text}`;
  if (!widths.has(key)) {
    pen ||= document.createElement("canvas").getContext("2d");
    pen.font = font;
    widths.set(key, pen.measureText(text).width);
  }
  return widths.get(key);
}
const FONT = 'Georgia, "Iowan Old Style", "Palatino Linotype", serif';

/** The box of a footprint on screen axes (y down), moved by `off` (table units). */
function boxOf(f, fy, off = [0, 0]) {
  const ps = f.shape === "circle" ? [[f.at[0] - f.r, f.at[1] - f.r], [f.at[0] + f.r, f.at[1] + f.r]] : f.points;
  const xs = ps.map((q) => q[0] + off[0]), ys = ps.map((q) => fy(q[1] + off[1]));
  return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
}

const hits = (b, list, skip) => list.some((o) => (skip === undefined || o.unit !== skip) && b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1);

// Where a unit's name may go around it, nearest first: over its middle as before, above, below,
// beside, then further out in rings (drawn with a leader line to the unit).
const RINGS = (() => {
  const out = [];
  for (let d = 1; d <= 7; d++) {
    for (let i = 0; i < 12; i++) {
      const a = (i * Math.PI) / 6 - Math.PI / 2;
      out.push([Math.cos(a) * d, Math.sin(a) * d]);
    }
  }
  return out;
})();

/**
 * Places the names at scale `k` (table units a screen pixel): every unit's name is shown,
 * clear of the other names and, where there is room, of the other units' pieces: beside its
 * unit, shortened (the full name on hover), or further out with a leader line. An objective's
 * name never covers a piece or a unit's name; terrain names show where there is room.
 */
function placeLabels(labels, pieceBoxes, k, seen) {
  const placed = [];
  // (A name stays on the part of the table in view, where its unit is.)
  const inView = (b) => b.x0 >= seen.x0 && b.x1 <= seen.x1 && b.y0 >= seen.y0 && b.y1 <= seen.y1;
  for (const l of labels) {
    const fs = 12 * k * (l.kind === "terrain" ? 11 / 12 : 1);
    const h = fs * 1.2, pad = fs * 0.8; // (a clear gap between two names on one line)
    const font = `${l.kind === "terrain" ? "italic " : ""}${l.bold || l.kind === "objective" ? "bold " : ""}12px ${FONT}`;
    const boxAt = (text, cx, cy) => {
      const w = textWidth(text, font) * (fs / 12) + pad;
      return { x0: cx - w / 2, x1: cx + w / 2, y0: cy - h / 2, y1: cy + h / 2, text, cx, cy };
    };
    let found = null;
    if (l.kind === "unit") {
      const u = l.unit;
      const mx = (u.x0 + u.x1) / 2, my = (u.y0 + u.y1) / 2;
      const seenUnit = mx >= seen.x0 && mx <= seen.x1 && my >= seen.y0 && my <= seen.y1;
      const near = (text) => {
        const w = textWidth(text, font) * (fs / 12) + pad;
        return [[l.x, l.y - fs * 1.3], [mx, u.y0 - h / 2], [mx, u.y1 + h / 2], [u.x1 + w / 2, my], [u.x0 - w / 2, my],
          // (A second line above or below, straight over or under its unit with a short leader:
          // a row of units side by side names them alternately, each over its own.)
          [mx, u.y0 - h * 1.5], [mx, u.y1 + h * 1.5]];
      };
      // First clear of names and pieces, then clear of names only.
      for (const strict of [true, false]) {
        for (const text of l.texts) {
          for (const [i, [cx, cy]] of near(text).entries()) {
            const b = boxAt(text, cx, cy);
            if ((inView(b) || !seenUnit) && !hits(b, placed) && (!strict || !hits(b, pieceBoxes, l.name))) { found = b; found.far = i >= 5; break; }
          }
          if (found) break;
        }
        if (found) break;
        for (const [dx, dy] of RINGS) {
          for (const text of l.texts) {
            const w = textWidth(text, font) * (fs / 12) + pad;
            const b = boxAt(text, mx + dx * (w / 2 + (u.x1 - u.x0) / 2 + fs), my + dy * (h + (u.y1 - u.y0) / 2 + fs * 0.5));
            if ((inView(b) || !seenUnit) && !hits(b, placed) && (!strict || !hits(b, pieceBoxes, l.name))) { found = b; found.far = true; break; }
          }
          if (found) break;
        }
        if (found) break;
      }
      // (Nowhere clear at all: over its middle, as before.)
      found ||= boxAt(l.texts[l.texts.length - 1], l.x, l.y - fs * 1.3);
    } else {
      for (const [dx, dy] of [[0, 0], ...RINGS.slice(0, 24)]) {
        for (const text of l.texts) {
          const b = boxAt(text, l.x + dx * fs * 3, l.y + dy * h);
          if (inView(b) && !hits(b, placed) && !hits(b, pieceBoxes)) { found = b; break; }
        }
        if (found) break;
      }
    }
    if (!found) { l.node.style.display = "none"; continue; }
    l.node.style.display = "";
    if (l.node.firstChild?.nodeType !== 3 || l.node.firstChild.data !== found.text) {
      const title = l.node.querySelector("title");
      l.node.textContent = found.text;
      if (found.text !== l.texts[0] && l.kind === "unit") {
        const t = svg("title");
        t.textContent = l.texts[0];
        l.node.append(t);
      } else if (title) l.node.append(title);
    }
    l.node.setAttribute("x", found.cx);
    l.node.setAttribute("y", found.cy + h * 0.3);
    if (l.leader) {
      if (found.far) {
        const u = l.unit;
        const ux = Math.min(Math.max((u.x0 + u.x1) / 2, u.x0), u.x1), uy = (u.y0 + u.y1) / 2;
        const ex = Math.min(Math.max(ux, found.x0), found.x1), ey = Math.min(Math.max(uy, found.y0), found.y1);
        Object.entries({ x1: ux, y1: uy, x2: ex, y2: ey }).forEach(([a, v]) => l.leader.setAttribute(a, v));
        l.leader.style.display = "";
      } else l.leader.style.display = "none";
    }
    placed.push(found);
  }
}

// Small helpers every part of the page uses: building elements, talking to the server, and
// what this browser holds for each game.

const SVGNS = "http://www.w3.org/2000/svg";

/** An HTML element: attributes (`on…` are listeners) and children (nodes or text). */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** An SVG element with its attributes, and (optionally) a tooltip. */
export function svg(tag, attrs = {}, title = null) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  if (title) {
    const t = document.createElementNS(SVGNS, "title");
    t.textContent = title;
    e.append(t);
  }
  return e;
}

/**
 * A request to the API: its JSON, or an Error with the server's message and `status`. A server
 * too busy to take the request in hand answers 503 with `Retry-After` before doing anything: the
 * request is sent again after that wait (a little more, so that many pages do not come back at
 * once), up to three times, and then the server's message is shown.
 */
export async function api(path, options = {}) {
  let r;
  for (let tries = 0; ; tries++) {
    try {
      r = await fetch(path, options);
    } catch {
      throw Object.assign(new Error("The server does not answer (is it running? is the network up?)"), { status: 0 });
    }
    const wait = Number(r.headers.get("retry-after"));
    if (r.status !== 503 || !(wait >= 0) || !r.headers.has("retry-after") || tries >= 3) break;
    await new Promise((done) => setTimeout(done, (wait + Math.random()) * 1000));
  }
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw Object.assign(new Error(body.error || `HTTP ${r.status}`), { status: r.status });
  return body;
}

/** A credential travels in the Authorization header, never in an address. */
export const auth = (token) => (token ? { authorization: `Bearer ${token}` } : {});

/** POST `data` as JSON, with a credential if there is one. */
export function post(path, data, token) {
  return api(path, { method: "POST", headers: { "content-type": "application/json", ...auth(token) }, body: JSON.stringify(data) });
}

/**
 * What this browser holds for a game: its credentials by role ("0", "1", "umpire") and, for the
 * game's creator, the invitations to hand on (codes, each claimed once by whoever opens it).
 */
export function held(id) {
  try {
    const h = JSON.parse(localStorage.getItem(`volley:${id}`) || "{}");
    return { roles: h.roles || {}, invitations: h.invitations || [] };
  } catch { return { roles: {}, invitations: [] }; }
}

/** Change what this browser holds for game `id`. */
export function keep(id, change) {
  const h = held(id);
  change(h);
  localStorage.setItem(`volley:${id}`, JSON.stringify(h));
}

/** The key a role is held under. */
export const roleKey = (role) => (role === "umpire" ? "umpire" : String(role.side));

/** A list in words: "a", "a and b", "a, b and c". */
export function words(list) {
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** The middle of a piece's footprint, in table units. */
export function centre(footprint) {
  if (footprint.shape === "circle") return footprint.at;
  const ps = footprint.points;
  return ps.reduce(([a, b], [x, y]) => [a + x / ps.length, b + y / ps.length], [0, 0]);
}

/** A compass bearing in words (0° is north, the table's far edge). */
export function bearing(degrees) {
  const names = ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"];
  const d = ((degrees % 360) + 360) % 360;
  return names[Math.round(d / 45) % 8];
}

/** The rule sets' names, by id: from the server's one catalog (GET /api/rulesets), asked once. */
let catalog = null;
const rulesets = () => (catalog ||= api("/api/rulesets").catch(() => []));
export async function rulesetNames() {
  return Object.fromEntries((await rulesets()).map((r) => [r.id, r.name]));
}
/** Whether a rule set's calculator ever draws (dice or cards). */
export async function rulesetDraws(id) {
  return (await rulesets()).find((r) => r.id === id)?.draws !== false;
}

/** Who plays a seat, in words: "a person", "the computer (searching)". */
export function playerWords(p) {
  if (p === "human") return "a person";
  return `the computer (${{ mcts: "searching", heuristic: "heuristic", random: "random" }[p] || p})`;
}

/** `n` of a counter's kind, in words: "1 hit", "3 hits", "1 figure" (a plural kind made one). */
export function counted(n, kind) {
  if (n !== 1) return `${n} ${kind}`;
  const one = { hits: "hit", figures: "figure", men: "man", stands: "stand", points: "point" }[kind] ?? kind;
  return `${n} ${one}`;
}

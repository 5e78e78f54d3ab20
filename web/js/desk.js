// The umpire's desk: a form for a rule set's combat situation (from its JSON Schema), the
// exact odds of every outcome with a summary of them, and a resolution with the computer's dice
// or those rolled on the table, the draws listed in the order they are needed.

import { el, api, post, rulesetNames, rulesetDraws } from "./util.js";

// A label from a schema's description: its first sentence, without the trailing full stop;
// whole where it can wrap (a field's name), at most `max` characters where it cannot (a choice
// in a list, whose whole text shows on hover).
const labelOf = (description, key, max = Infinity) => {
  if (!description) return key.replaceAll("_", " ");
  const first = description.split(/\.(\s|$)/)[0].replace(/\s+/g, " ").trim();
  return first.length > max ? `${first.slice(0, max - 3)}…` : first;
};
const OPTION = 70;

// The option to start with when the schema names no default: an average one where the
// descriptions say which ("standard", "average", "regular"), else the first.
const AVERAGE = [/\b(standard|average)\b/i, /\b(regular|ordinary)\b/i];

/**
 * A form for `schema` (JSON Schema, as schemars writes it): returns the element and a function
 * that reads the value back. Objects become fieldsets, enumerations selects, optional values a
 * labelled box that opens their form, a value one kind of several (tagged by a one-key object
 * or by a `kind`) a choice of kind. `field(name, schema, description, initial)`, if given, may
 * make a field of its own ({node, get}) for any property by name (or return null).
 */
export function formFor(schema, root, name = "", description = "", initial = undefined, field = null) {
  const deref = (s) => (s && s.$ref ? root.$defs[s.$ref.split("/").pop()] : s);
  const own = schema && schema.description;
  schema = deref(schema);
  description = own || description || schema.description || "";
  const custom = field && name ? field(name, schema, description, initial) : null;
  if (custom) return custom;
  const optionalOf = (s) => {
    if (s.anyOf && s.anyOf.length === 2) return s.anyOf.find((x) => x.type !== "null");
    if (Array.isArray(s.type) && s.type.includes("null")) return { ...s, type: s.type.find((t) => t !== "null"), default: undefined };
    return null;
  };
  const inner = optionalOf(schema);
  if (inner) {
    const sub = formFor(inner, root, name, description, initial ?? undefined, field);
    const on = el("input", { type: "checkbox", "aria-label": `give: ${labelOf(description, name)}`, checked: initial !== undefined && initial !== null });
    const box = el("span", { class: "optional" }, el("label", { class: "give" }, on, " give"), " ", sub.node);
    sub.node.style.display = on.checked ? "" : "none";
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
      const example = (Array.isArray(initial) ? initial : initial ? [initial] : []).find((x) => x && typeof x === "object" && k in x);
      const form = formFor(d.properties[k], root, k, d.description || "", example ? example[k] : undefined, field);
      // (The choice of kind names it already: its form repeats no title.)
      if (form.node.tagName === "FIELDSET" && form.node.firstElementChild?.tagName === "LEGEND") form.node.firstElementChild.remove();
      return { k, form, what: d.description };
    }) : null;
  // One of several kinds told by a `kind` (Game Control's amendments): a choice of kind, and the
  // chosen kind's form (which gives the kind back).
  const tagOf = (o) => { const d = deref(o); return d && d.type === "object" && d.properties && d.properties.kind && "const" in d.properties.kind ? d.properties.kind.const : null; };
  const tagged = !kinds && schema.oneOf && schema.oneOf.every((o) => tagOf(o) !== null) ? schema.oneOf.map((o) => {
    const k = tagOf(o);
    return { k, form: formFor(deref(o), root, "", "", initial && initial.kind === k ? initial : undefined, field), what: deref(o).description };
  }) : null;
  if (tagged) {
    const sel = el("select", { name: name || "kind", "aria-label": "what to do" },
      tagged.map(({ k, what }) => el("option", { value: k, selected: initial && initial.kind === k, title: what || null }, what ? labelOf(what, k, OPTION) : k.replaceAll("_", " "))));
    const show = () => tagged.forEach(({ k, form }) => { form.node.style.display = sel.value === k ? "" : "none"; });
    sel.addEventListener("change", show);
    show();
    return { node: el("div", {}, sel, tagged.map(({ form }) => form.node)), get: () => tagged.find(({ k }) => k === sel.value).form.get(), kind: () => sel.value };
  }
  if (kinds) {
    const first = (Array.isArray(initial) ? initial[0] : initial);
    const chosen = first && typeof first === "object" ? Object.keys(first)[0] : null;
    const sel = el("select", { name: name || "kind", "aria-label": "what to work out" },
      kinds.map(({ k, what }) => el("option", { value: k, selected: k === chosen, title: what || null }, what ? labelOf(what, k, OPTION) : k.replaceAll("_", " "))));
    const show = () => kinds.forEach(({ k, form }) => { form.node.style.display = sel.value === k ? "" : "none"; });
    sel.addEventListener("change", show);
    show();
    return {
      node: el("div", {}, sel, kinds.map(({ form }) => form.node)),
      get: () => { const c = kinds.find(({ k }) => k === sel.value); return { [c.k]: c.form.get() }; },
      kind: () => sel.value,
    };
  }
  const choices = schema.oneOf && schema.oneOf.every((o) => "const" in o) ? schema.oneOf.map((o) => [o.const, o.description || String(o.const)])
    : schema.enum ? schema.enum.map((v) => [v, String(v)]) : null;
  if (choices) {
    const start = initial !== undefined ? initial : schema.default !== undefined ? schema.default
      : (AVERAGE.map((re) => choices.find(([, d]) => re.test(d))).find(Boolean) || choices[0])[0];
    const sel = el("select", { name }, choices.map(([v, d]) => el("option", { value: v, selected: v === start, title: d },
      d === String(v) ? String(v).replaceAll("_", " ") : /^[A-Z]$/.test(String(v)) ? `${v}: ${labelOf(d, String(v), OPTION)}` : labelOf(d, String(v), OPTION))));
    return { node: sel, get: () => sel.value };
  }
  if (schema.type === "object" && schema.properties) {
    // (The unit a form is about comes first and the reason for it last, whatever order the
    // schema's keys came in.)
    // Otherwise the fields the schema requires come in its order (the order they are declared
    // in), then the optional ones.
    const need = schema.required || [];
    const rank = (k) => (k === "unit" ? -1 : k === "reason" ? 1e4 : need.includes(k) ? need.indexOf(k) : 1e3);
    const entries = Object.entries(schema.properties).sort(([a], [b]) => rank(a) - rank(b));
    const fields = entries.map(([k, sub]) => {
      const d = deref(sub) || {};
      const what = sub.description || d.description || "";
      // (A constant, such as the tag of a kind, is not asked for.)
      if (d && "const" in d) return { k, f: { node: null, get: () => d.const }, row: null };
      const f = formFor(sub, root, k, what, initial && typeof initial === "object" ? initial[k] : undefined, field);
      // (A field the caller says does not apply here is not shown, and gives nothing.)
      if (!f.node) return { k, f, row: null };
      const nested = (d.type === "object" && d.properties) || f.node.tagName === "FIELDSET";
      const row = nested ? f.node
        : el("label", { class: "field", title: what ? `${k}: ${what}` : k }, el("span", { class: "fname" }, labelOf(what, k)), f.node);
      return { k, f, row };
    });
    const node = el("fieldset", {}, name ? el("legend", { title: description }, labelOf(description, name)) : null, fields.map((x) => x.row).filter(Boolean));
    return { node, get: () => Object.fromEntries(fields.map(({ k, f }) => [k, f.get()]).filter(([, v]) => v !== null && v !== "")) };
  }
  if (schema.type === "array") {
    // A list (an attacking grouping's other battalions): none to start, add as needed.
    const items = [];
    const list = el("div", { class: "items" });
    const addItem = (value) => {
      const f = formFor(schema.items, root, `${name} ${items.length + 1}`, "", value, field);
      const entry = { f };
      const remove = el("button", { class: "plain", type: "button", onclick: () => { items.splice(items.indexOf(entry), 1); row.remove(); } }, "remove");
      const row = el("div", { class: "item" }, f.node, remove);
      items.push(entry);
      list.append(row);
    };
    const add = el("button", { class: "plain", type: "button", onclick: () => addItem(undefined) }, `add (${labelOf(description, name).toLowerCase()})`);
    for (const value of Array.isArray(initial) ? initial : []) addItem(value);
    return { node: el("fieldset", {}, el("legend", { title: description }, labelOf(description, name)), list, add), get: () => items.map((i) => i.f.get()) };
  }
  if (schema.type === "boolean") {
    const c = el("input", { type: "checkbox", name, checked: initial !== undefined ? initial === true : schema.default === true });
    return { node: c, get: () => c.checked };
  }
  if (schema.type === "integer" || schema.type === "number") {
    const i = el("input", { type: "number", name, value: initial ?? schema.default ?? schema.examples?.[0] ?? schema.minimum ?? 0, min: schema.minimum, max: Math.min(schema.maximum ?? 1e9, 1e9), step: schema.type === "integer" ? 1 : "any" });
    return { node: i, get: () => (i.value === "" ? null : Number(i.value)) };
  }
  const t = el("input", { type: "text", name, value: initial ?? schema.default ?? "" });
  return { node: t, get: () => { try { return JSON.parse(t.value); } catch { return t.value; } } };
}

/**
 * A summary of exact odds: for each part of the outcome (each side's result, its casualties), the
 * chance of each value, and the average of the numbers. `outcomes` as the API gives them.
 */
export function summarise(outcomes) {
  const parts = new Map(); // field → Map(value → probability)
  for (const o of outcomes) {
    const d = o.detail;
    if (!d || typeof d !== "object") continue;
    const walk = (v, path) => {
      if (v && typeof v === "object" && !Array.isArray(v)) {
        for (const [k, w] of Object.entries(v)) walk(w, path ? `${path} ${k}` : k);
        return;
      }
      const key = path.replaceAll("_", " ");
      const value = v === null || v === undefined ? "none" : v === true ? "yes" : v === false ? "no" : Array.isArray(v) ? v.join(" ") : human(String(v));
      if (!parts.has(key)) parts.set(key, new Map());
      const m = parts.get(key);
      m.set(value, (m.get(value) || 0) + o.probability);
    };
    walk(d, "");
  }
  return [...parts].filter(([, m]) => m.size > 1 || parts.size <= 4).map(([field, m]) => {
    // (Numbers in their order, with the chance of at least each; words most likely first.)
    const numeric = [...m].every(([v]) => v !== "" && !Number.isNaN(Number(v)));
    const values = [...m].sort(numeric ? (a, b) => Number(a[0]) - Number(b[0]) : (a, b) => b[1] - a[1]);
    const mean = numeric ? values.reduce((s, [v, p]) => s + Number(v) * p, 0) : null;
    return { field, values, mean };
  });
}

// A value as a person reads it: a band of scores ("minus1_to7") as "−1 to −7", an open band
// ("plus4") as "+4 or over", words without underscores.
function human(v) {
  const sign = (w) => (w === "plus" ? "+" : "−");
  let m = /^(plus|minus)(\d+)_to(\d+)$/.exec(v);
  if (m) return `${sign(m[1])}${m[2]} to ${sign(m[1])}${m[3]}`;
  m = /^(plus|minus)(\d+)$/.exec(v);
  if (m) return m[1] === "plus" ? `+${m[2]} or over` : `−${m[2]} or under`;
  return v.replaceAll("_", " ");
}

const pct = (p) => `${(p * 100).toFixed(p < 0.001 ? 2 : 1)}%`;

/**
 * Who gives ground, where the outcome gives each side a band of scores (Old Fritz): the chance
 * that a side's score is −1 or under (it withdraws, runs away or breaks) and −8 or under (it runs
 * away or breaks). Lines of text, or none.
 */
export function verdicts(outcomes) {
  const sides = ["attacker", "defender"];
  const band = (o, side) => o.detail && typeof o.detail === "object" ? o.detail[`${side}_band`] : undefined;
  if (!outcomes.length || !outcomes.every((o) => sides.every((side) => typeof band(o, side) === "string"))) return [];
  const sum = (f) => outcomes.reduce((t, o) => t + (f(o) ? o.probability : 0), 0);
  // In every results table a score of −1 to −7 withdraws, −8 to −15 runs away, −16 or under
  // disintegrates.
  const back = (b) => b.startsWith("minus");
  const low = (b) => /^minus(8|16)/.test(b);
  return sides.map((side) => `the ${side} gives ground (withdraws, runs away or breaks): ${pct(sum((o) => back(band(o, side))))}; runs away or breaks: ${pct(sum((o) => low(band(o, side))))}`);
}

/** Show the desk of `ruleset` in `main`. */
export async function showDesk(main, ruleset) {
  main.replaceChildren(el("p", { class: "quiet" }, "Loading…"));
  let schema;
  try {
    schema = await api(`/api/desk/${ruleset}/schema`);
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, e.status === 404 ? `There is no desk for "${ruleset}".` : e.message), el("a", { href: "#/" }, "All battles"));
    return;
  }
  // The form starts from the rule set's example of an ordinary combat (each kind's, where there
  // are kinds), not from zeros.
  const examples = schema.examples || [];
  const form = formFor(schema, schema, "", "", schema.oneOf ? examples : examples[0]);
  const out = el("div", { class: "box deskout" });
  const draws = el("input", { type: "text", placeholder: "as rolled: 7 3, or Q 7 (empty: the computer rolls)", size: 34, "aria-label": "draws" });
  const err = el("div", { class: "error" });
  const odds = async () => {
    err.textContent = "";
    try {
      const r = await post(`/api/desk/${ruleset}/odds`, { situation: form.get() });
      const summary = summarise(r.outcomes);
      const sortBy = el("select", { "aria-label": "sort the outcomes", "data-sort": "1" },
        el("option", { value: "likely" }, "most likely first"), el("option", { value: "outcome" }, "by outcome"));
      const list = el("div", { class: "outcomes" });
      out.replaceChildren(...[
        el("h4", {}, "The odds in short"),
        ...verdicts(r.outcomes).map((t) => el("div", { class: "verdict" }, t)),
        el("div", { class: "oddsummary" }, summary.map((s) => el("div", { class: "oddline" },
          el("strong", {}, s.field), ": ",
          s.values.map(([v, p]) => `${v} ${pct(p)}`).join(", "),
          s.mean !== null && s.values.length > 2 ? el("div", { class: "quiet atleast" }, "at least: ",
            s.values.slice(1).map(([v], i) => `${v} ${pct(s.values.slice(i + 1).reduce((t, [, p]) => t + p, 0))}`).join(", ")) : null,
          s.mean !== null ? el("span", { class: "quiet" }, ` (on average ${s.mean.toFixed(2)})`) : null))),
        el("h4", {}, `Every outcome (${r.outcomes.length})`, " ", sortBy),
        list].filter(Boolean));
      const bars = () => {
        const byOutcome = sortBy.value === "outcome";
        const shown = byOutcome ? [...r.outcomes].sort((a, b) => a.outcome.localeCompare(b.outcome, undefined, { numeric: true })) : r.outcomes;
        const many = !byOutcome && shown.length > 40;
        list.replaceChildren(...(many ? shown.slice(0, 40) : shown).map((o) => el("div", { class: "bar" },
          el("span", { class: "barfill", style: `width: ${Math.max(0.5, o.probability * 100)}%` }),
          el("span", { class: "bartext" }, `${(o.probability * 100).toFixed(2)}%  ${o.outcome}`))),
        many ? el("div", { class: "quiet" }, `and ${shown.length - 40} less likely outcomes (sort them by outcome to see every one)`) : "");
      };
      sortBy.onchange = bars;
      bars();
    } catch (e) { err.textContent = e.message; out.replaceChildren(); }
  };
  const resolve = async () => {
    err.textContent = "";
    try {
      const r = await post(`/api/desk/${ruleset}/resolve`, { situation: form.get(), draws: draws.value, seed: Math.floor(Math.random() * 1e9) });
      const list = r.draws || [];
      const kind = (d) => (d.kind === "die" ? `d${d.sides}` : d.kind === "card" ? "a card" : d.kind);
      out.replaceChildren(...[el("h4", {}, "Result"), el("pre", { class: "resolution" }, r.text),
        list.length ? el("div", { class: "drawlist" },
          el("h4", {}, `The draws, in the order they were needed (${list.length})`),
          el("ol", {}, list.map((d) => el("li", {}, `${kind(d)} for ${d.purpose}: ${d.value}`))),
          el("div", { class: "quiet" }, list.every((d) => d.kind === "card")
            ? "To resolve with the cards turned on the table, type them in this order; other cards may call for more or fewer. A missing card is named."
            : "To resolve with the table's dice, type them in this order; other dice may call for more or fewer (a casualty test, say, only when there is one). A missing draw is named.")) : el("div", { class: "quiet" }, "No draw was needed.")].filter(Boolean));
    } catch (e) { err.textContent = e.message; out.replaceChildren(); }
  };
  // What to roll, in order: the draws one resolution needed (with the computer's dice), without
  // their values; later draws may depend on the earlier ones (a casualty test only if there is one).
  async function whatToRoll() {
    err.textContent = "";
    try {
      const r = await post(`/api/desk/${ruleset}/resolve`, { situation: form.get(), seed: Math.floor(Math.random() * 1e9) });
      const list = r.draws || [];
      const kind = (d) => (d.kind === "die" ? `a d${d.sides}` : d.kind === "card" ? "a card" : d.kind);
      out.replaceChildren(...[el("h4", {}, `What to roll: ${list.length} draw${list.length === 1 ? "" : "s"}, in this order`),
        list.length ? el("ol", { class: "rolls" }, list.map((d) => el("li", {}, `${kind(d)} for ${d.purpose}`))) : el("div", { class: "quiet" }, "No draw is needed."),
        list.length ? el("div", { class: "quiet" }, "So it went with one throw of the computer's dice; other dice may call for more or fewer (a casualty test only when there is one). Type them in the box in this order; a missing one is named.") : null].filter(Boolean));
    } catch (e) { err.textContent = e.message; out.replaceChildren(); }
  }
  const RULESETS = await rulesetNames();
  const drawsAny = await rulesetDraws(ruleset);
  main.replaceChildren(el("h2", {}, `The umpire's desk: ${RULESETS[ruleset] || ruleset}`),
    el("div", { class: "game" },
      el("div", { class: "box desk" }, schema.description ? el("p", { class: "quiet" }, schema.description) : null, form.node),
      el("div", { class: "panel" },
        el("div", { class: "box" }, el("button", { onclick: odds, "data-odds": "1" }, "Exact odds"), " ",
          // (A diceless rule set has nothing to roll: no box for draws, no "What to roll?".)
          drawsAny ? el("div", { class: "drawrow" }, draws, " ", el("button", { onclick: resolve, "data-resolve": "1" }, "Resolve"), " ",
            el("button", { class: "plain", onclick: whatToRoll, "data-what": "1" }, "What to roll?"))
            : el("div", { class: "drawrow" }, el("button", { onclick: resolve, "data-resolve": "1" }, "Resolve")),
          drawsAny ? el("div", { class: "quiet" }, "Leave the draws empty and the computer rolls; the result lists every draw it needed, in order.")
            : el("div", { class: "quiet" }, "No dice: the result follows from the situation alone."), err),
        out, el("a", { href: "#/" }, "All battles"))));
}

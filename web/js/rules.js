// A rule set's page: how a turn goes and what a player decides (its guide, in our own words),
// and how volley reads the rule text, clause by clause (its register), both written in Markdown
// and drawn here without any HTML from the text (every piece is made as an element).

import { el, api, rulesetNames } from "./util.js";

/** Show rule set `id`'s page in `main`. */
export async function showRules(main, id) {
  main.replaceChildren(el("p", { class: "quiet" }, "Loading…"));
  const text = async (what) => {
    const r = await fetch(`/api/rulesets/${encodeURIComponent(id)}/${what}`);
    if (!r.ok) throw new Error(r.status === 404 ? `There is no rule set ${id} here.` : `The server said ${r.status}.`);
    return r.text();
  };
  try {
    const [names, guide, register, scenarios] = await Promise.all([rulesetNames(), text("guide"), text("register"), api("/api/scenarios")]);
    const battles = scenarios.filter((s) => s.ruleset === id);
    main.replaceChildren(el("article", { class: "rules box" },
      markdown(guide),
      battles.length ? el("p", { class: "battles" }, "Its battles: ", ...battles.flatMap((s, i) => [i ? ", " : "", el("a", { href: "#/" }, s.title)]), ".") : null,
      el("p", {}, el("a", { href: `#/desk/${id}` }, `The umpire's desk for ${names[id] || id}`), " · ", el("a", { href: "#/" }, "All battles")),
      el("details", { class: "register" }, el("summary", {}, "How volley reads the rules, clause by clause (the register)"), markdown(register))));
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, e.message), el("a", { href: "#/" }, "All battles"));
  }
}

/** Markdown (headings, paragraphs, lists, tables, code, bold, italics, links) as elements. */
export function markdown(src) {
  const out = el("div", { class: "md" });
  const lines = src.replace(/\r/g, "").split("\n");
  let i = 0;
  const para = [];
  const flush = () => { if (para.length) { out.append(el("p", {}, inline(para.join(" ")))); para.length = 0; } };
  while (i < lines.length) {
    const line = lines[i];
    if (/^```/.test(line)) {
      flush();
      const code = [];
      for (i++; i < lines.length && !/^```/.test(lines[i]); i++) code.push(lines[i]);
      out.append(el("pre", {}, el("code", {}, code.join("\n"))));
      i++;
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) { flush(); out.append(el(`h${Math.min(6, h[1].length + 1)}`, {}, inline(h[2]))); i++; continue; }
    if (/^\s*\|.*\|\s*$/.test(line)) {
      flush();
      const rows = [];
      for (; i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i]); i++) rows.push(lines[i]);
      const cells = (r) => r.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
      const body = rows.filter((r) => !/^\s*\|[\s:|-]+\|\s*$/.test(r));
      const [head, ...rest] = body;
      out.append(el("table", {}, el("thead", {}, el("tr", {}, cells(head).map((c) => el("th", {}, inline(c))))),
        el("tbody", {}, rest.map((r) => el("tr", {}, cells(r).map((c) => el("td", {}, inline(c))))))));
      continue;
    }
    const li = /^(\s*)([-*]|\d+\.)\s+(.*)$/.exec(line);
    if (li) {
      flush();
      const ordered = /\d/.test(li[2]);
      const list = el(ordered ? "ol" : "ul", {});
      for (; i < lines.length; i++) {
        const m = /^(\s*)([-*]|\d+\.)\s+(.*)$/.exec(lines[i]);
        if (m) { list.append(el("li", {}, inline(m[3]))); continue; }
        // (A wrapped item goes on, indented.)
        if (/^\s{2,}\S/.test(lines[i]) && list.lastChild) { list.lastChild.append(" ", ...inline(lines[i].trim())); continue; }
        break;
      }
      out.append(list);
      continue;
    }
    if (!line.trim()) { flush(); i++; continue; }
    para.push(line.trim());
    i++;
  }
  flush();
  return out;
}

/** Inline Markdown as nodes: `code`, **bold**, *italics*, [text](address). */
function inline(text) {
  const nodes = [];
  const re = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)|(\[[^\]]+\]\([^)]+\))/g;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > at) nodes.push(text.slice(at, m.index));
    const t = m[0];
    if (m[1]) nodes.push(el("code", {}, t.slice(1, -1)));
    else if (m[2]) nodes.push(el("strong", {}, inline(t.slice(2, -2))));
    else if (m[3]) nodes.push(el("em", {}, inline(t.slice(1, -1))));
    else {
      const [, label, href] = /^\[([^\]]+)\]\(([^)]+)\)$/.exec(t);
      nodes.push(/^https?:\/\//.test(href) ? el("a", { href, rel: "noopener" }, label) : el("span", { class: "ref", title: href }, label));
    }
    at = m.index + t.length;
  }
  if (at < text.length) nodes.push(text.slice(at));
  return nodes;
}

// End-to-end tests of the page in a real browser: Debian's Chromium driven by playwright-core,
// against `volley serve` on loopback with a fresh database.
//
//   VOLLEY_BIN=target/debug/volley node --test web/e2e/e2e.test.mjs

import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const BIN = resolve(process.env.VOLLEY_BIN || new URL("../../target/debug/volley", import.meta.url).pathname);
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync"];

let server, base, browser, dir;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "volley-e2e-"));
  // (Every test's browser comes from one address: more games a minute than a person makes.)
  server = spawn(BIN, ["serve", "--addr", "127.0.0.1:0", "--db", join(dir, "games.db"), "--games-per-minute", "200"], { stdio: ["ignore", "pipe", "inherit"] });
  base = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error("the server did not start")), 20000);
    server.stdout.on("data", (d) => {
      const m = /serving on (http:\/\/[^\s]+\/)/.exec(String(d));
      if (m) { clearTimeout(timer); ok(m[1]); }
    });
    server.on("exit", (code) => fail(new Error(`the server exited with ${code}`)));
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const logText = (page) => page.locator(".log").innerText();

// Each test's pages are closed after it: their live channels go, as a player's would.
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close().catch(() => {});
});

// A browser context whose page shows every group of choices open (the page's own "open every
// group", remembered): the tests that pick a choice by its words see them all.
const contexts = [];
async function openContext(options = {}) {
  const ctx = await browser.newContext(options);
  contexts.push(ctx);
  await ctx.addInitScript(() => { try { if (localStorage.getItem("volley:groups") === null) localStorage.setItem("volley:groups", "open"); } catch { /* about:blank */ } });
  return ctx;
}

test("play against the computer: select a unit, see its reach, drag it to a place; the computer answers; reload; replay", async () => {
  const context = await openContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.click('button[data-scenario="hochdorf-mill"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  const throwButton = page.getByRole("button", { name: "throw for the initiative" });
  await throwButton.click();
  // The initiative is thrown; whoever won, the computer plays until it is our turn again.
  await page.waitForFunction(() => document.querySelector(".log")?.innerText.includes("Initiative"));
  await page.waitForFunction(() => document.querySelectorAll(".choice").length > 0 && !document.body.innerText.includes("thinking"));
  assert.match(await logText(page), /Initiative/);
  // Whoever won the initiative: if it was us, go first.
  const goFirst = page.getByRole("button", { name: "go first" });
  if (await goFirst.count()) {
    await goFirst.click();
    await page.waitForFunction(() => [...document.querySelectorAll(".choice")].some((b) => b.innerText.startsWith("move ")));
  }
  // Select a unit on the map and move it by clicking one of the places its choices lead to.
  // (Not a General: he shares his area with another unit, which covers him on the map.)
  const moveText = await page.locator(".choice", { hasText: /^move (?!General)/ }).first().innerText();
  const unit = /^move (.+?) \d+ areas? /.exec(moveText)[1];
  await page.locator(`svg.map .piece[data-unit="${unit}"]`).first().click();
  await page.waitForSelector("svg.map circle.target");
  assert.ok(await page.locator("svg.map polygon.range").count() > 0, "its weapon's reach is drawn");
  // Only its choices (the whole side's, such as ending the turn, stand apart below them).
  assert.ok((await page.locator(".choice:not(.whole)").allInnerTexts()).every((t) => t.includes(unit)), "only its choices");
  const logBefore = await logText(page);
  // Drag the unit onto the place (pressing it, moving, releasing there).
  const from = await page.locator(`svg.map .piece[data-unit="${unit}"]`).first().boundingBox();
  const to = await page.locator("svg.map circle.target").first().boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev, logBefore);
  await page.waitForFunction(() => !document.body.innerText.includes("thinking"));
  const before = await logText(page);
  assert.ok(before.includes(`${unit} move`) || before.includes(`${unit} turn`), `${unit} moved:\n${before}`);
  // The map is drawn: the mill's units are pieces on it.
  assert.ok(await page.locator("svg.map .piece").count() >= 10);

  await page.reload();
  await page.waitForFunction(() => document.querySelector(".log")?.innerText.length > 0);
  assert.equal(await logText(page), before, "the game is as it was");

  await page.click("text=Replay this battle");
  await page.waitForURL(/#\/replay\//);
  await page.waitForFunction(() => /action 0 of [1-9]/.test(document.body.innerText));
  await page.click('button[data-step="forward"]');
  await page.waitForFunction(() => /action 1 of/.test(document.body.innerText));
  assert.match(await page.locator(".log").innerText(), /Initiative/);
  assert.deepEqual(errors, []);
  await context.close();
});

// A new Attack on the Ridge between two people, made in page `a` with `you` as the creator's
// role; returns the game's id.
async function newRidge(a, you = "auto", hold = false) {
  await a.goto(base);
  const card = a.locator(".card", { has: a.locator('button[data-scenario="attack-on-the-ridge"]') });
  await card.locator('select[data-side="1"]').selectOption("human");
  await card.locator('select[data-me="attack-on-the-ridge"]').selectOption(you);
  if (hold) {
    await card.locator("details.options summary").click();
    await card.locator('input[data-hold="attack-on-the-ridge"]').check();
  }
  await card.locator('button[data-scenario="attack-on-the-ridge"]').click();
  await a.waitForURL(/#\/game\/[0-9a-f]+$/);
  return /#\/game\/([0-9a-f]+)$/.exec(a.url())[1];
}

const ordersOf = (page) => page.locator(".choice", { hasText: /^order the / });

test("two people in two browsers: the second takes his seat by a one-time invitation, and neither sees the other's orders", async () => {
  const a = await (await openContext()).newPage();
  const errors = [];
  a.on("pageerror", (e) => errors.push(e.message));
  await newRidge(a);
  await a.waitForSelector('.link[data-invite="1"]');
  assert.equal(await a.locator('.link[data-invite="0"]').count(), 0, "the creator holds his own seat");
  const invite = await a.locator('.link[data-invite="1"]').innerText();
  assert.doesNotMatch(invite, /token/, invite);

  const b = await (await openContext()).newPage();
  b.on("pageerror", (e) => errors.push(e.message));
  await b.goto(invite);
  await b.waitForFunction(() => document.body.innerText.includes("You play the Austrians"));
  assert.equal(await b.locator(".choice").count(), 0, "not the Austrians' turn yet");
  // The invitation is spent: a third browser is turned away.
  const c = await (await openContext()).newPage();
  await c.goto(invite);
  await c.waitForFunction(() => document.body.innerText.includes("used already"));
  // And told the way back in, if the seat was his (the seat's own link from the browser holding it).
  assert.match(await c.locator(".backin").innerText(), /Open your seat on another device/);

  // The Prussians order a wing, in secret, and end their orders.
  const order = await ordersOf(a).first().innerText();
  const wing = /^order the (.+?): /.exec(order)[1];
  await ordersOf(a).first().click();
  await a.waitForFunction((w) => document.querySelector(".log")?.innerText.includes(w), wing);
  await a.getByRole("button", { name: "end this side's orders for the bound" }).click();
  // The Austrians' page shows their choices without a reload, and nothing of that order.
  await b.waitForFunction(() => document.querySelectorAll(".choice").length > 0, null, { timeout: 10000 });
  assert.match(await b.locator(".choices").innerText(), /order the ridge/);
  const seenByB = await b.locator(".log").innerText();
  assert.ok(!seenByB.includes(`Prussians: order to the ${wing}`) && !/^Prussians: order/m.test(seenByB), `the Prussians' order is theirs:\n${seenByB}`);
  assert.match(await a.locator(".role").innerText(), /You play the Prussians/, "the creator stays a Prussian");
  // And the Austrians' order is theirs: the Prussians' page never shows it.
  const theirs = await ordersOf(b).first().innerText();
  const theirWing = /^order the (.+?): /.exec(theirs)[1];
  await ordersOf(b).first().click();
  await b.waitForFunction((w) => document.querySelector(".log")?.innerText.includes(w), theirWing);
  await a.waitForTimeout(500);
  const seen = await a.locator(".log").innerText();
  assert.ok(!seen.includes(`Austrians: order to the ${theirWing}`) && !/^Austrians: order/m.test(seen), `the Austrians' order is theirs: "${theirWing}" in\n${seen}`);
  assert.match(await a.locator(".role").innerText(), /You play the Prussians/);
  assert.deepEqual(errors, []);
});

test("a hot-seat game hands the screen over before the other side's secrets show", async () => {
  const a = await (await openContext()).newPage();
  const errors = [];
  a.on("pageerror", (e) => errors.push(e.message));
  await newRidge(a, "hot_seat");
  await a.waitForFunction(() => document.body.innerText.includes("Hot seat: the Prussians have the screen"));
  const order = await ordersOf(a).first().innerText();
  const wing = /^order the (.+?): /.exec(order)[1];
  await ordersOf(a).first().click();
  await a.waitForFunction((w) => document.querySelector(".log")?.innerText.includes(w), wing);
  await a.getByRole("button", { name: "end this side's orders for the bound" }).click();
  // The hand-over screen: no map, no log, no choices until the Austrians say they have it.
  await a.waitForSelector(".handover");
  assert.equal(await a.locator("svg.map").count(), 0);
  assert.equal(await a.locator(".log").count(), 0);
  assert.equal(await a.locator(".choice").count(), 0);
  // (And no empty boxes beside it.)
  assert.equal(await a.locator(".panel .box").evaluateAll((bs) => bs.filter((b) => b.checkVisibility()).length), 0);
  // A reload does not skip it.
  await a.reload();
  await a.waitForSelector(".handover");
  assert.equal(await a.locator(".choice").count(), 0);
  await a.click('button[data-handover="1"]');
  await a.waitForFunction(() => document.body.innerText.includes("Hot seat: the Austrians have the screen"));
  assert.match(await a.locator(".choices").innerText(), /order the ridge/);
  assert.ok(!(await a.locator(".log").innerText()).includes(wing), "the Prussians' order stays theirs");
  assert.deepEqual(errors, []);
});

test("the umpire of a live game sees everything, looks as either side, and adjusts a unit for every log to read", async () => {
  const u = await (await openContext()).newPage();
  const errors = [];
  u.on("pageerror", (e) => errors.push(e.message));
  await newRidge(u, "umpire");
  await u.waitForFunction(() => document.body.innerText.includes("You are the umpire, seeing everything"));
  // Both seats go by invitation; the first player joins and sends a secret order.
  const invite = await u.locator('.link[data-invite="0"]').innerText();
  const p = await (await openContext()).newPage();
  await p.goto(invite);
  await p.waitForFunction(() => document.body.innerText.includes("You play the Prussians"));
  const order = await ordersOf(p).first().innerText();
  const wing = /^order the (.+?): /.exec(order)[1];
  await ordersOf(p).first().click();
  await p.waitForFunction((w) => document.querySelector(".log")?.innerText.includes(w), wing);
  // The umpire sees it; looking as the Austrians, he does not.
  await u.waitForFunction((w) => document.querySelector(".log")?.innerText.includes(w), wing, { timeout: 10000 });
  await u.selectOption('select[aria-label="view as"]', "1");
  await u.waitForFunction(() => document.body.innerText.includes("looking as the Austrians see it"));
  assert.ok(!(await u.locator(".log").innerText()).includes(wing));
  // He adjusts a unit, with a reason; the player's log reads it as the umpire's.
  await u.selectOption('.umpireform select[name="kind"]', "adjust");
  const adjust = u.locator(".umpireform fieldset:visible").first();
  await adjust.locator('input[aria-label^="give: Green counters"]').check();
  await adjust.locator('input[name="greens"]').fill("2");
  await adjust.locator('input[name="reason"]').fill("they marched all night");
  await u.click('button[data-umpire-act="1"]');
  await p.waitForFunction(() => document.querySelector(".log")?.innerText.includes("because they marched all night"), null, { timeout: 10000 });
  assert.match(await p.locator(".log").innerText(), /the umpire adjusts .*: \d+ figures, 2 green counters, because they marched all night/);
  assert.equal(await p.locator('button[data-umpire-act="1"]').count(), 0, "a player has no umpire's desk");
  // A side tries what only the umpire may do: refused; the umpire reads the refusal, with its
  // reason, in his box; a player's page has no such list.
  const id = /#\/game\/([0-9a-f]+)/.exec(p.url())[1];
  const status = await p.evaluate(async (id) => {
    const token = JSON.parse(localStorage.getItem(`volley:${id}`)).roles["0"];
    const action = { advantage: { unit: 0, value: 3, reason: "because I say so" } };
    const r = await fetch(`/api/games/${id}/actions`, {
      method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ action }),
    });
    return r.status;
  }, id);
  assert.equal(status, 422);
  await u.reload();
  await u.waitForFunction(() => document.querySelector("details.refusals")?.innerText.includes("Refused (1)"), null, { timeout: 10000 });
  await u.click("details.refusals summary");
  assert.match(await u.locator("details.refusals").innerText(), /Prussians: .+ — .+/);
  await p.reload();
  await p.waitForFunction(() => document.body.innerText.includes("You play the Prussians"));
  assert.equal(await p.locator("details.refusals").count(), 0, "a player has no list of refusals");
  assert.deepEqual(errors, []);
});

test("with results held, the players wait for the umpire, who sees the bound first and releases it", async () => {
  const u = await (await openContext()).newPage();
  const errors = [];
  u.on("pageerror", (e) => errors.push(e.message));
  await newRidge(u, "umpire", true);
  await u.waitForSelector('.link[data-invite="1"]');
  const players = [];
  for (const side of ["0", "1"]) {
    const p = await (await openContext()).newPage();
    p.on("pageerror", (e) => errors.push(e.message));
    await p.goto(await u.locator(`.link[data-invite="${side}"]`).innerText());
    await p.waitForFunction(() => /You play the/.test(document.body.innerText));
    players.push(p);
  }
  const [prussians, austrians] = players;
  const end = (p) => p.getByRole("button", { name: "end this side's orders for the bound" }).click();
  await end(prussians);
  await austrians.waitForFunction(() => document.querySelectorAll(".choice").length > 0, null, { timeout: 10000 });
  await end(austrians);
  // The bound is fought, and held: the players wait, still in turn 1; the umpire sees turn 2.
  for (const p of players) {
    await p.waitForFunction(() => document.body.innerText.includes("The umpire is looking at the turn's results"), null, { timeout: 10000 });
    assert.match(await p.locator(".panel").innerText(), /Turn 1:/);
  }
  await u.waitForSelector('button[data-release="1"]', { timeout: 10000 });
  // (And the status line says whose the turn is now: the umpire's, not a side's.)
  assert.match(await u.locator(".actor").innerText(), /results wait for you/);
  for (const p of players) assert.doesNotMatch(await p.locator(".actor").innerText(), /to act/);
  assert.match(await u.locator(".panel").innerText(), /Turn 2:/);
  await u.click('button[data-release="1"]');
  await prussians.waitForFunction(() => /Turn 2:/.test(document.body.innerText) && document.querySelectorAll(".choice").length > 0, null, { timeout: 10000 });
  await u.waitForSelector('button[data-release="1"]', { state: "detached", timeout: 10000 });
  assert.deepEqual(errors, []);
});

test("the umpire's desk: a form from the situation's schema, exact odds as bars, a resolution with table dice", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${base}#/desk/old-fritz`);
  await page.waitForSelector("fieldset");
  await page.getByRole("button", { name: "Exact odds" }).click();
  await page.waitForSelector(".bar");
  const shares = await page.locator(".bartext").allInnerTexts();
  assert.ok(shares.length > 5, shares.join("\n"));
  const total = shares.map((t) => parseFloat(t)).reduce((a, b) => a + b, 0);
  assert.ok(total > 50 && total <= 100.5, `the listed outcomes' shares: ${total}`);
  // Equal battalions (the form starts from cuirassiers charging a battalion: made infantry
  // against infantry, quality C, 12 figures, no greens), the attacker rolls 7 and the
  // defender 3: +4, the defender withdraws.
  await page.locator('select[name="arm"]').first().selectOption("infantry");
  await page.locator('input[aria-label^="give: The kind of cavalry"]').first().uncheck();
  for (const i of [0, 1]) {
    await page.locator('select[name="quality"]').nth(i).selectOption("C");
    await page.locator('input[name="figures"]').nth(i).fill("12");
    await page.locator('input[name="greens"]').nth(i).fill("0");
  }
  await page.fill('input[aria-label="draws"]', "7 3 1 1 1 1");
  await page.getByRole("button", { name: "Resolve" }).click();
  await page.waitForSelector("pre.resolution");
  const text = await page.locator("pre.resolution").innerText();
  assert.match(text, /d10 7/);
  assert.match(text, /withdraws/);
  assert.deepEqual(errors, []);
});

test("Der Alte Fritz's calculator at the umpire's desk: choose a volley, fill it in, get the exact odds", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.click('a[href="#/desk/der-alte-fritz"]');
  await page.waitForSelector('select[aria-label="what to work out"]');
  await page.selectOption('select[aria-label="what to work out"]', "volley");
  await page.fill('input[name="firing"]', "24");
  for (const f of await page.locator('input[name="figures"]:visible').all()) await f.fill("24");
  await page.fill('input[name="figures_per_stand"]', "4");
  await page.getByRole("button", { name: "Exact odds" }).click();
  await page.waitForSelector(".bar");
  const shares = (await page.locator(".bartext").allInnerTexts()).join("\n");
  assert.match(shares, /3 hits, passes/);
  assert.deepEqual(errors, []);
});

// A new game of The Village against the computer, begun, to the Prussians' first movement phase
// (if they win the initiative, they fire first: the Austrians then move first).
// Play pressed on a scenario's card, and the game's page open: on a phone the card may lie in a
// row swiped sideways, snapping into place as it is brought into view, so the press is made
// once it has settled, and again if no game began.
async function clickPlay(page, scenario) {
  const b = page.locator(`button[data-scenario="${scenario}"]`);
  for (let i = 0; i < 3; i++) {
    await b.scrollIntoViewIfNeeded();
    await page.waitForTimeout(250);
    await b.click();
    try {
      await page.waitForURL(/#\/game\/[0-9a-f]+$/, { timeout: 6000 });
      return;
    } catch { /* pressed again */ }
  }
  throw new Error(`${scenario}: Play began no game`);
}

async function villageToMovement(page) {
  await page.goto(base);
  await clickPlay(page, "the-village");
  await page.locator(".choice", { hasText: /^begin the battle/ }).click();
  await page.waitForFunction(() => /initiative: Prussians \d/.test(document.querySelector(".log")?.innerText ?? ""));
  await page.waitForFunction(() => document.querySelectorAll(".choice").length > 0 && !document.body.innerText.includes("thinking"));
  const fireFirst = page.locator(".choice", { hasText: /^fire first$/ });
  if (await fireFirst.count()) await fireFirst.click();
  // (The computer's moves come by the game's socket; if the page has not heard of them in
  // 30 s, it is loaded again, as a player would.)
  const moving = () => page.waitForFunction(() => [...document.querySelectorAll(".choice")].some((b) => /: (advances|moves) /.test(b.innerText))
    && !document.body.innerText.includes("thinking"), null, { timeout: 30000 });
  await moving().catch(async () => { await page.reload(); await moving(); }).catch(async (e) => {
    throw new Error(`${e.message}\n${await page.locator(".panel").innerText()}`);
  });
}

test("Der Alte Fritz on the table: begin, choose, move a battalion, end the phase; the computer answers and every die is explained", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await villageToMovement(page);
  const move = page.locator(".choice", { hasText: /: (advances|moves) / }).first();
  const unit = /^(.+?): (advances|moves) /.exec(await move.innerText())[1];
  const before = await logText(page);
  await move.click();
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev, before);
  assert.match(await logText(page), new RegExp(`${unit}: (.*then )?(advances|moves) [0-9.]+" `));
  assert.doesNotMatch(await logText(page), /\[\d/, "moves in words, not coordinates");
  // End our phases until someone has fired: the log shows each die and the number it had to meet.
  for (let i = 0; i < 12 && !/fires at/.test(await logText(page)); i++) {
    await page.waitForFunction(() => document.querySelectorAll(".choice").length > 0 && !document.body.innerText.includes("thinking"));
    const fire = page.locator(".choice", { hasText: /: fire at / });
    if (await fire.count()) await fire.first().click();
    else await page.locator(".choice", { hasText: /^end the / }).first().click();
    await page.waitForTimeout(150);
  }
  assert.match(await logText(page), /fires at .*: \d+ dic?e \(.* on chart [A-E] .* hits on \d+ or under: [\d ]+ — \d+ hits?/);
  // Both armies are on the map (a unit may have been removed by then: look for any of each).
  const onMap = new Set(await page.locator("svg.map .piece").evaluateAll((ps) => ps.map((p) => p.dataset.unit)));
  const prussians = ["IR 3 Anhalt", "IR 15 Garde", "IR 27 Lestwitz", "DR 6 Schorlemer", "Battery Moller"];
  const austrians = ["IR Deutschmeister", "Grenadier battalion Lascy", "IR Botta", "DR Savoyen", "Battery Feuerstein"];
  assert.ok(prussians.some((u) => onMap.has(u)) && austrians.some((u) => onMap.has(u)), `both armies on the map: ${[...onMap]}`);
  assert.deepEqual(errors, []);
});

test("En Avant on the table: give a card, play the turn; the computer answers, and with the rules hidden the player reads words, never a number", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.click('button[data-scenario="the-farm"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  await page.waitForFunction(() => [...document.querySelectorAll(".choice")].some((b) => /^1\/52nd: advance$/.test(b.innerText))
    && !document.body.innerText.includes("thinking"));
  await page.locator(".choice", { hasText: /^1\/52nd: advance$/ }).click();
  await page.waitForFunction(() => [...document.querySelectorAll(".choice")].some((b) => /^orders given/.test(b.innerText))
    && !document.body.innerText.includes("thinking"));
  await page.locator(".choice", { hasText: /^orders given/ }).click();
  // The computer gives the French cards and the turn is played: our battalion advances.
  await page.waitForFunction(() => /1\/52nd advances/.test(document.querySelector(".log")?.innerText ?? ""), null, { timeout: 15000 });
  const log = await logText(page);
  assert.doesNotMatch(log, /\(rules\)|step one|modifier| cm\b/, "no rules behind the results");
  // The French cards are theirs: none of them is in our log.
  assert.doesNotMatch(log, /1\/6e Leger: (advance|charge|fire|halt|withdraw|form)/);
  // Both sides on the map, labelled with status words.
  const labels = await page.locator("svg.map .piece").evaluateAll((ps) => ps.map((p) => p.dataset.unit));
  assert.ok(labels.includes("1/52nd") && labels.includes("2/6e Leger"), `both armies on the map: ${labels}`);
  assert.deepEqual(errors, []);
});

// ----- the page polished (issue 19) -----

// A locator's box on screen. The map is drawn afresh when news comes (the computer's move), so
// an element may be between drawings for an instant: ask again until it is there.
async function boxOf(locator) {
  for (let i = 0; i < 50; i++) {
    const b = await locator.boundingBox().catch(() => null);
    if (b) return b;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error("not on screen");
}

// A battle the two computers fight out on the server; returns its id once it is over.
async function computerBattle(scenario, seed = 3) {
  const r = await fetch(`${base}api/games`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ scenario, players: ["heuristic", "heuristic"], creator: "spectator", seed }),
  });
  const g = await r.json();
  assert.equal(r.status, 200, g.error);
  for (let i = 0; i < 240; i++) {
    const v = await (await fetch(`${base}api/games/${g.id}`)).json();
    if (v.outcome) return g.id;
    await new Promise((ok) => setTimeout(ok, 250));
  }
  throw new Error(`${scenario}: the computers did not finish`);
}

const viewBox = (page) => page.locator("svg.map").first().evaluate((m) => m.getAttribute("viewBox").split(" ").map(Number));

test("the map zooms (buttons, wheel) and pans (drag) with names a steady size on screen, a scale bar and a legend", async () => {
  const page = await (await openContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await clickPlay(page, "the-village");
  await page.waitForSelector("svg.map text.ulabel");
  const full = await viewBox(page);
  const nameHeight = () => page.locator("svg.map text.ulabel:visible").first().evaluate((t) => t.getBoundingClientRect().height);
  const h0 = await nameHeight();
  assert.ok(h0 >= 10 && h0 <= 20, `a name is about 12 px high on screen, not ${h0}`);
  await page.click('button[data-zoom="in"]');
  const zoomed = await viewBox(page);
  assert.ok(zoomed[2] < full[2] * 0.8, `zoomed in: ${zoomed} from ${full}`);
  const h1 = await nameHeight();
  assert.ok(Math.abs(h1 - h0) < 3, `names keep their size on screen when zoomed: ${h0} then ${h1}`);
  // The wheel zooms about the pointer; dragging the ground pans.
  const box = await boxOf(page.locator("svg.map").first());
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  await page.waitForFunction((w) => Number(document.querySelector("svg.map").getAttribute("viewBox").split(" ")[2]) < w, zoomed[2]);
  const before = await viewBox(page);
  // Drag from a corner of the table (ground, not a unit).
  await page.mouse.move(box.x + 30, box.y + box.height - 40);
  await page.mouse.down();
  await page.mouse.move(box.x + 130, box.y + box.height - 40, { steps: 5 });
  await page.mouse.up();
  const after = await viewBox(page);
  assert.ok(after[0] < before[0] - 1e-6, `dragging right moves the view left: ${before} → ${after}`);
  await page.click('button[data-zoom="fit"]');
  assert.deepEqual(await viewBox(page), full);
  // The scale bar names the table's unit; the legend names the armies and the terrain.
  assert.match(await page.locator(".scalebar").innerText(), /\d+ (inch|inches|cm|areas?|table units)/);
  await page.locator(".legend summary").click();
  const legend = await page.locator(".legend").innerText();
  assert.match(legend, /Prussians/);
  assert.match(legend, /Austrians/);
  assert.match(legend, /woods|hill|town|built-up ground|field/);
  assert.doesNotMatch(legend, /\bsoftground\b|\bbuiltup\b/, "terrain kinds in words");
  // Counters in words: one of a kind is one ("1 hit", never "1 hits").
  assert.deepEqual(await page.evaluate(async () => {
    const { counted } = await import("/js/util.js");
    return [counted(1, "hits"), counted(2, "hits"), counted(1, "men"), counted(1, "figures"), counted(1, "status"), counted(0, "hits")];
  }), ["1 hit", "2 hits", "1 man", "1 figure", "1 status", "0 hits"]);
  // Terrain is named on the map.
  assert.ok(await page.locator("svg.map text.tlabel").count() > 0);
  // Clicking a unit shows its panel: name, what it is, its state.
  const unit = await page.locator("svg.map .piece[data-unit]").first().getAttribute("data-unit");
  await page.locator(`svg.map .piece[data-unit="${unit}"]`).first().click({ force: true });
  await page.waitForFunction((u) => document.querySelector(".unitbox strong")?.textContent === u, unit);
  assert.match(await page.locator(".unitbox").innerText(), /infantry|cavalry|artillery|general/);
  // Where the battle stands: the turn and the objective with its holder.
  assert.match(await page.locator(".standing").innerText(), /Turn \d+[\s\S]*★ Kirchdorf: (held by nobody|the (Prussians|Austrians))/);
  assert.deepEqual(errors, []);
});

test("Itchy and Scratchy: a General in a unit's area is drawn apart from it, and each can be clicked", async () => {
  const page = await (await openContext()).newPage();
  await page.goto(base);
  await page.click('button[data-scenario="hochdorf-mill"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  await page.waitForSelector('svg.map .piece[data-arm="general"]');
  // A General and the unit whose area he shares: his box lies inside the unit's.
  const pair = await page.evaluate(() => {
    const pieces = [...document.querySelectorAll("svg.map .piece[data-unit]")].map((p) => ({ unit: p.dataset.unit, arm: p.dataset.arm, r: p.getBoundingClientRect() }));
    for (const g of pieces.filter((p) => p.arm === "general")) {
      const host = pieces.find((p) => p.arm !== "general" && p.r.left <= g.r.left + 1 && p.r.right >= g.r.right - 1 && p.r.top <= g.r.top + 1 && p.r.bottom >= g.r.bottom - 1);
      if (host) return { general: g.unit, gr: [g.r.x + g.r.width / 2, g.r.y + g.r.height / 2], unit: host.unit, ur: [host.r.x + host.r.width * 0.2, host.r.y + host.r.height * 0.8] };
    }
    return null;
  });
  assert.ok(pair, "a General shares a unit's area at the start of the mill");
  assert.ok(pair.general !== pair.unit);
  // (A click that lands while the page redraws for the computer's news is tried again.)
  const select = async (at, unit) => {
    for (let i = 0; i < 3; i++) {
      await page.mouse.click(...at);
      const ok = await page.waitForFunction((u) => document.querySelector(".unitbox strong")?.textContent === u, unit, { timeout: 8000 }).then(() => true, () => false);
      if (ok) return;
    }
    assert.fail(`${unit} was not selected`);
  };
  await select(pair.gr, pair.general);
  await select(pair.ur, pair.unit);
  // The grid's areas are not named on the map one by one.
  assert.equal(await page.locator("svg.map text.tlabel", { hasText: /^\[/ }).count(), 0);
});

test("the replay plays by itself, steps with the keys, and marks what each step changed", async () => {
  const id = await computerBattle("the-village");
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${base}#/replay/${id}`);
  await page.waitForFunction(() => /^action 0 of \d+/.test(document.querySelector(".steplabel")?.textContent ?? ""));
  // At the start the account says there is nothing yet, not an empty box.
  assert.match(await page.locator(".log").innerText(), /^Nothing yet/);
  const step = () => page.locator(".steplabel").evaluate((l) => Number(/^action (\d+)/.exec(l.textContent)[1]));
  await page.selectOption('select[aria-label="speed"]', "250");
  await page.keyboard.press(" ");
  await page.waitForFunction(() => Number(/^action (\d+)/.exec(document.querySelector(".steplabel").textContent)[1]) >= 3);
  await page.keyboard.press(" ");
  const paused = await step();
  await page.waitForTimeout(600);
  assert.equal(await step(), paused, "paused");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction((k) => document.querySelector(".steplabel").textContent.startsWith(`action ${k} `), paused + 1);
  assert.ok(await page.locator(".log .fresh").count() > 0 || (await page.locator(".summary").innerText()).length > 0, "the step's news is marked");
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction((k) => document.querySelector(".steplabel").textContent.startsWith(`action ${k} `), paused);
  await page.keyboard.press("End");
  await page.waitForFunction(() => { const m = /^action (\d+) of (\d+)/.exec(document.querySelector(".steplabel").textContent); return m && m[1] === m[2]; });
  // Stepping on a unit's move: the moved unit is marked on the map.
  await page.keyboard.press("Home");
  await page.waitForFunction(() => document.querySelector(".steplabel").textContent.startsWith("action 0 "));
  let marked = false;
  for (let i = 0; i < 40 && !marked; i++) {
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((k) => document.querySelector(".steplabel").textContent.startsWith(`action ${k} `), i + 1);
    marked = (await page.locator("svg.map g.unit.moved").count()) > 0;
  }
  assert.ok(marked, "a step that moved a unit marks it");
  assert.match(await page.locator(".summary").innerText(), /Moved: /);
  assert.deepEqual(errors, []);
});

test("the desk: labels in words, an example combat to start, the odds in short, and the draws listed in the order needed", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${base}#/desk/old-fritz`);
  await page.waitForSelector("fieldset");
  // The form starts from the rule set's example: cuirassiers (B) charging a battalion (D).
  assert.equal(await page.locator('select[name="quality"]').first().inputValue(), "B");
  assert.equal(await page.locator('select[name="quality"]').nth(1).inputValue(), "D");
  assert.match(await page.locator(".desk").innerText(), /Troop quality/);
  await page.click("button[data-odds]");
  await page.waitForSelector(".oddsummary .oddline");
  const summary = await page.locator(".oddsummary").innerText();
  assert.match(summary, /attacker band: .*%/);
  assert.match(summary, /on average \d/);
  assert.doesNotMatch(summary, /_/, "no program names");
  // Who gives ground and who runs, in words: running is part of giving ground.
  const verdict = await page.locator(".verdict").allInnerTexts();
  assert.equal(verdict.length, 2, verdict.join("\n"));
  for (const [i, side] of ["attacker", "defender"].entries()) {
    const m = new RegExp(`^the ${side} gives ground \\(withdraws, runs away or breaks\\): ([\\d.]+)%; runs away or breaks: ([\\d.]+)%$`).exec(verdict[i]);
    assert.ok(m && Number(m[2]) <= Number(m[1]) && Number(m[1]) <= 100, verdict[i]);
  }
  // What to roll, before rolling: the draws in order, without values.
  await page.click("button[data-what]");
  await page.waitForSelector(".rolls li");
  const rolls = await page.locator(".rolls li").allInnerTexts();
  assert.ok(rolls.length >= 2 && rolls.every((t) => /^a d10 for .+/.test(t) && !/: \d+$/.test(t)), rolls.join("\n"));
  // Resolve with the computer's dice: every draw is listed; typed back in, they give the same.
  await page.click("button[data-resolve]");
  await page.waitForSelector(".drawlist li");
  const first = await page.locator("pre.resolution").innerText();
  const draws = await page.locator(".drawlist li").allInnerTexts();
  assert.ok(draws.length >= 2 && draws.every((d) => /^d10 for .+: \d+$/.test(d)), draws.join("\n"));
  assert.match(await page.locator(".drawlist").innerText(), /the table's dice/);
  await page.fill('input[aria-label="draws"]', draws.map((d) => /(\d+)$/.exec(d)[1]).join(" "));
  await page.click("button[data-resolve]");
  await page.waitForFunction((t) => document.querySelector("pre.resolution")?.innerText === t, first);
  // Too many draws: the error says how many were needed and what for.
  await page.fill('input[aria-label="draws"]', `${draws.map((d) => /(\d+)$/.exec(d)[1]).join(" ")} 5`);
  await page.click("button[data-resolve]");
  await page.waitForFunction(() => /not needed \(this combat needed \d+, in this order: /.test(document.querySelector(".error")?.innerText ?? ""));
  // Blown Away's desk draws cards: it speaks of cards, not dice.
  await page.goto(`${base}#/desk/blown-away`);
  await page.waitForSelector("button[data-resolve]");
  await page.click("button[data-resolve]");
  await page.waitForSelector(".drawlist li");
  assert.match(await page.locator(".drawlist").innerText(), /the cards turned on the table/);
  assert.doesNotMatch(await page.locator(".drawlist").innerText(), /dice/);
  assert.deepEqual(errors, []);
});

test("on a phone: the first page fits, a battle begins, the map and the choices work", async () => {
  const page = await (await openContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.waitForSelector(".card");
  const overflow = () => page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(await overflow() <= 1, `the first page fits the screen's width (${await overflow()} px over)`);
  // A rule set's battles side by side, swiped through: the page is a few screens long, not ten.
  const tall = await page.evaluate(() => { const s = [...document.querySelectorAll("section.ruleset")]; return s[s.length - 1].getBoundingClientRect().bottom - s[0].getBoundingClientRect().top; });
  assert.ok(tall < 4 * 844, `the battles take ${tall} px`);
  await clickPlay(page, "the-village");
  await page.waitForSelector("svg.map");
  assert.ok(await overflow() <= 1, `the game fits the screen's width (${await overflow()} px over)`);
  const map = await boxOf(page.locator("svg.map"));
  assert.ok(map.width <= 390 && map.width > 300 && map.height > 150, `the map fills the width: ${JSON.stringify(map)}`);
  // The whole side's choices (beginning, ending a phase) at the foot of the screen, at hand
  // without scrolling.
  const bar = await page.locator(".wholeside").boundingBox();
  assert.ok(bar && bar.y >= 0 && bar.y + bar.height <= 845 && bar.y > 844 - 200, `the bar: ${JSON.stringify(bar)}`);
  const before = await logText(page);
  await page.locator(".choice", { hasText: /^begin the battle/ }).tap();
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev, before);
  // Back on the first page, one's own games come first.
  const id = page.url().split("/").pop();
  await page.goto(base);
  await page.waitForSelector(".card");
  assert.equal(await page.locator("main h2").first().innerText(), "Your games");
  assert.equal(await page.locator(`ul.yourgames a[href="#/game/${id}"]`).count(), 1);
  assert.deepEqual(errors, []);
});

test("small things: a favicon, an unknown game said so (and not asked for again and again), a spectator told he watches", async () => {
  const icon = await fetch(`${base}favicon.ico`);
  assert.equal(icon.status, 200);
  assert.match(icon.headers.get("content-type"), /image\/svg\+xml/);
  const page = await (await openContext()).newPage();
  let sockets = 0;
  page.on("websocket", () => { sockets += 1; });
  await page.goto(`${base}#/game/0123456789abcdef`);
  await page.waitForFunction(() => /There is no game 0123456789abcdef/.test(document.body.innerText));
  await page.waitForTimeout(3000);
  assert.ok(sockets <= 1, `${sockets} WebSockets opened for a game that is not there`);
  // A spectator of a game between two people: watching, not waiting for "the other side".
  const a = await (await openContext()).newPage();
  const id = await newRidge(a);
  const watcher = await (await openContext()).newPage();
  await watcher.goto(`${base}#/game/${id}`);
  await watcher.waitForSelector(".waiting");
  assert.match(await watcher.locator(".waiting").innerText(), /You are watching/);
  assert.match(await watcher.locator(".status").innerText(), /You are watching/);
});

test("a drop never takes a choice the player did not read: a unit dragged onto the dot of a move that also changes its formation moves plainly there or is proposed, never re-formed", async () => {
  const page = await (await openContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await villageToMovement(page);
  // A unit one of whose offered moves forms another formation on the way.
  const forming = await page.locator(".choice", { hasText: /^.+?: forms .+, then (advances|moves) / }).allInnerTexts();
  assert.ok(forming.length > 0, "a move that changes formation is offered");
  const unit = /^(.+?): forms /.exec(forming[0])[1];
  // (The map is drawn afresh on news: click where the piece is once it is on screen.)
  const at = await boxOf(page.locator(`svg.map .piece[data-unit="${unit}"]`).first());
  await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
  await page.waitForFunction((u) => document.querySelector(".unitbox strong")?.textContent === u, unit);
  // The dot of one such move (a dot of its own, not shared by several choices).
  const dots = page.locator("svg.map circle.target:not(.many)");
  const titles = await dots.evaluateAll((ds) => ds.map((d) => d.querySelector("title")?.textContent ?? ""));
  const k = titles.findIndex((t) => /: forms .+, then (advances|moves) /.test(t));
  assert.ok(k >= 0, `a dot of a re-forming move: ${titles.join(" | ")}`);
  const before = await logText(page);
  const from = await boxOf(page.locator(`svg.map .piece[data-unit="${unit}"]`).first());
  const to = await boxOf(dots.nth(k));
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
  // Either a plain move was made (the unit's formation kept) or the drop is proposed in words.
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev || document.querySelector(".proposal"), before, { timeout: 10000 });
  await page.waitForTimeout(300);
  const after = await logText(page);
  assert.ok(!after.slice(before.length).includes(`${unit}: forms`), `the drop re-formed ${unit}:\n${after.slice(before.length)}`);
  assert.deepEqual(errors, []);
});

test("no phase ends by accident: ending it stands apart below the units' choices, and with a volley still to fire it asks first, saying what is left", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.click('button[data-scenario="advance-guard"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  const ready = () => page.waitForFunction(() => document.querySelectorAll(".choice").length > 0 && !document.body.innerText.includes("thinking"), null, { timeout: 20000 });
  let fire = null;
  for (let i = 0; i < 30 && !fire; i++) {
    await ready();
    const texts = await page.locator(".choice").allInnerTexts();
    fire = texts.find((t) => / fires at /.test(t)) ?? null;
    if (fire) break;
    const first = texts.find((t) => /^(fix the deployment|go first)/.test(t));
    const move = texts.find((t) => / (advance|move)/.test(t));
    const shown = texts.join("\n");
    if (first) await page.locator(".choice", { hasText: first }).first().click();
    else if (move) await page.locator(".choice", { hasText: move }).first().click();
    else await page.locator(".choice.whole", { hasText: /^end / }).first().click();
    await page.waitForFunction((prev) => [...document.querySelectorAll(".choice")].map((b) => b.innerText).join("\n") !== prev, shown, { timeout: 20000 });
  }
  assert.ok(fire, "a gun may fire");
  // The phase's end is apart, after every unit's choice.
  const order = await page.evaluate(() => [...document.querySelectorAll(".choice")].map((b) => [b.innerText, b.closest(".wholeside") !== null]));
  const endAt = order.findIndex(([t]) => /^end the phase/.test(t));
  assert.ok(endAt === order.length - 1 && order[endAt][1], `end the phase apart and last: ${JSON.stringify(order)}`);
  // Ending it with the volley not fired asks, and says what is left; "not yet" sends nothing.
  const before = await logText(page);
  await page.locator(".choice.whole", { hasText: /^end the phase/ }).click();
  await page.waitForSelector('button[data-confirm="no"]');
  assert.match(await page.locator(".confirm").innerText(), /1 combat or volley not made \(Prussian gun/);
  await page.click('button[data-confirm="no"]');
  await page.waitForTimeout(300);
  assert.equal(await logText(page), before, "nothing sent");
  // The volley, then the phase's end goes at once.
  await page.locator(".choice", { hasText: fire }).first().click();
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev, before);
  assert.deepEqual(errors, []);
});

test("an unknown game's replay says so, and shows no controls", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${base}#/replay/0123456789abcdef`);
  await page.waitForSelector(".error");
  assert.match(await page.locator(".error").innerText(), /There is no game 0123456789abcdef on this server/);
  assert.equal(await page.locator(".replaybar").count(), 0, "no replay controls");
  assert.equal(await page.locator('input[aria-label="step"]').count(), 0);
  assert.deepEqual(errors, []);
});

test("a free move: a unit dragged anywhere is checked at once; refused with the rule's reason and halted where the rules allow; a legal place taken", async () => {
  const page = await (await openContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await villageToMovement(page);
  const units = [...new Set((await page.locator(".choice", { hasText: /: (.*then )?(advances|moves) / }).allInnerTexts()).map((t) => /^(.+?): (.*then )?(advances|moves) /.exec(t)[1]))];
  const [first, second] = units;
  // Press the unit and drag it to the far edge of the table: the rules refuse, say why, and
  // show where it would halt.
  const piece = page.locator(`svg.map .piece[data-unit="${first}"]`).first();
  const at = await boxOf(piece);
  const map = await boxOf(page.locator("svg.map"));
  await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
  await page.mouse.down();
  await page.mouse.move(at.x + at.width / 2, map.y + 8, { steps: 12 });
  await page.waitForSelector("svg.map circle.proposed.refused");
  assert.ok(await page.locator("svg.map circle.halt").count() > 0, "where it would halt is drawn while dragging");
  await page.mouse.up();
  await page.waitForSelector('.proposal button[data-proposal="halt"]');
  assert.match(await page.locator(".proposal").innerText(), new RegExp(`${first} may not go there: .{6,}`));
  assert.match(await page.locator(".proposal").innerText(), new RegExp(`halt it at the yellow ring \\(${first}: `));
  const before = await logText(page);
  await page.click('.proposal button[data-proposal="halt"]');
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev, before);
  assert.match(await logText(page), new RegExp(`${first}: (.*then )?(advances|moves) [0-9.]+"`));
  // Another unit: click it, then click a place a little ahead: the rules allow it; go there.
  await page.waitForFunction(() => !document.body.innerText.includes("thinking"));
  const other = page.locator(`svg.map .piece[data-unit="${second}"]`).first();
  await other.click({ force: true });
  await page.waitForFunction((u) => document.querySelector(".unitbox strong")?.textContent === u, second);
  // (The map is drawn afresh on news: ask for the piece's place until it is on screen.)
  const ob = await boxOf(other);
  await page.mouse.click(ob.x + ob.width / 2, ob.y - 25);
  await page.waitForSelector('.proposal button[data-proposal="go"]');
  assert.match(await page.locator(".proposal").innerText(), new RegExp(`${second} may go there: ${second}: `), "the move in words");
  const before2 = await logText(page);
  await page.click('.proposal button[data-proposal="go"]');
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev, before2);
  assert.match(await logText(page), new RegExp(`${second}: (.*then )?(advances|moves) [0-9.]+"`));
  // A third: drag its turning knob a quarter round to the east; the facing is checked.
  await page.waitForFunction(() => !document.body.innerText.includes("thinking"));
  const third = units[2];
  await page.locator(`svg.map .piece[data-unit="${third}"]`).first().click({ force: true });
  await page.waitForSelector("svg.map circle.turnknob");
  const knob = await boxOf(page.locator("svg.map circle.turnknob"));
  const centre = await boxOf(page.locator(`svg.map .piece[data-unit="${third}"]`).first());
  const [cx, cy] = [centre.x + centre.width / 2, centre.y + centre.height / 2];
  const r = Math.hypot(knob.x + knob.width / 2 - cx, knob.y + knob.height / 2 - cy);
  await page.mouse.move(knob.x + knob.width / 2, knob.y + knob.height / 2);
  await page.mouse.down();
  await page.mouse.move(cx + r * 0.7, cy - r * 0.7, { steps: 4 });
  await page.mouse.move(cx + r, cy, { steps: 4 });
  await page.mouse.up();
  await page.waitForSelector(".proposal button[data-proposal]");
  assert.match(await page.locator(".proposal").innerText(), new RegExp(`${third} may (not )?go there \\(as: facing east \\((8[0-9]|9[0-9]|100)°\\)\\)`));
  assert.deepEqual(errors, []);
});

test("with \"ask before sending\" on, a choice waits for a second word", async () => {
  const page = await (await openContext()).newPage();
  await page.goto(base);
  await clickPlay(page, "the-village");
  await page.check('input[data-ask]');
  const before = await logText(page);
  await page.locator(".choice", { hasText: /^begin the battle/ }).click();
  await page.waitForSelector('button[data-confirm="yes"]');
  assert.match(await page.locator(".confirm").innerText(), /Send “begin the battle/);
  await page.click('button[data-confirm="no"]');
  await page.waitForTimeout(300);
  assert.equal(await logText(page), before, "nothing sent");
  await page.locator(".choice", { hasText: /^begin the battle/ }).click();
  await page.click('button[data-confirm="yes"]');
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev, before);
});

test("Old Fritz: a unit clicked selects its wing, with the wing's orders; an order sent shows on the map where it goes, with the bound it arrives", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.click('button[data-scenario="attack-on-the-ridge"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  await page.waitForFunction(() => document.querySelectorAll(".choice").length > 0);
  // A Prussian unit (side 0's colour is the first).
  const unit = await page.evaluate(() => [...document.querySelectorAll("svg.map .piece[data-unit]")].find((p) => p.getAttribute("fill") === "#35588f").dataset.unit);
  await page.locator(`svg.map .piece[data-unit="${unit}"]`).first().click({ force: true });
  await page.waitForFunction((u) => document.querySelector(".unitbox strong")?.textContent === u, unit);
  const wing = /Of the (.+?): /.exec(await page.locator(".unitbox .wing").innerText())[1];
  const texts = await page.locator(".choice:not(.whole)").allInnerTexts();
  assert.ok(texts.length > 0 && texts.every((t) => t.includes(`the ${wing}`)), `the ${wing}'s orders: ${texts.join(" | ")}`);
  assert.ok(await page.locator("svg.map g.unit.wingmate").count() > 0 || texts.length > 0, "its wing is marked");
  const before = await logText(page);
  await page.locator(".choice").first().click();
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev, before);
  await page.waitForSelector("svg.map polygon.order");
  await page.locator(`svg.map .piece[data-unit="${unit}"]`).first().click({ force: true });
  await page.waitForSelector(".unitbox .wingorder");
  assert.match(await page.locator(".unitbox").innerText(), new RegExp(`on its way to the ${wing}: .+ \\(takes effect in bound \\d+\\)`));
  assert.deepEqual(errors, []);
});

test("Old Fritz: wings are told apart by side — a Prussian unit of the centre has only Prussian wing-mates and Prussian orders", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.click('button[data-scenario="mittelhof"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  await page.waitForFunction(() => document.querySelectorAll(".choice").length > 0);
  const PRUSSIAN = "#35588f";
  const side = (u) => page.evaluate((name) => document.querySelector(`svg.map .piece[data-unit="${CSS.escape(name)}"]`)?.getAttribute("fill"), u);
  const prussians = await page.evaluate((c) => [...new Set([...document.querySelectorAll("svg.map .piece[data-unit]")]
    .filter((p) => p.getAttribute("fill") === c).map((p) => p.dataset.unit))], PRUSSIAN);
  let found = null;
  for (const u of prussians) {
    await page.locator(`svg.map .piece[data-unit="${u}"]`).first().click({ force: true });
    await page.waitForFunction((n) => document.querySelector(".unitbox strong")?.textContent === n, u);
    const wing = await page.locator(".unitbox .wing").innerText();
    if (/^Of the centre: /.test(wing)) { found = { u, wing }; break; }
  }
  assert.ok(found, "a Prussian unit of the centre");
  // The wing-mates named are all Prussians (the Austrians have a centre too).
  const mates = found.wing.replace(/^Of the centre: /, "").replace(/\.$/, "").split(/, | and /).filter(Boolean);
  assert.ok(mates.length > 0, found.wing);
  for (const m of mates) assert.equal(await side(m), PRUSSIAN, `${m} is not a Prussian wing-mate`);
  // So are the units outlined on the map, and the orders joined to the wing.
  const outlined = await page.evaluate(() => [...document.querySelectorAll("svg.map g.unit.wingmate")].map((g) => g.getAttribute("data-unit-group")));
  assert.ok(outlined.length > 0);
  for (const m of outlined) assert.equal(await side(m), PRUSSIAN, `${m} outlined as a wing-mate`);
  const strokes = await page.evaluate(() => [...document.querySelectorAll("svg.map polygon.order.mine")].map((p) => p.getAttribute("stroke")));
  for (const c of strokes) assert.equal(c, PRUSSIAN, "an Austrian order joined to the Prussian centre");
  assert.deepEqual(errors, []);
});

test("Blown Away's secret deployment: units dragged within the band are placed (checked by the rules), one dragged out is refused, and the deployment fixed with them", async () => {
  const page = await (await openContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.click('button[data-scenario="crossroads"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  await page.waitForSelector(".choice", { hasText: /^fix the deployment as it stands/ });
  assert.ok(await page.locator("svg.map polygon.zone").count() === 1, "the band is drawn");
  const ours = await page.evaluate(() => [...new Set([...document.querySelectorAll("svg.map .piece[data-unit]")]
    .filter((p) => p.getAttribute("fill") === "#35588f" && p.dataset.arm === "infantry").map((p) => p.dataset.unit))]);
  const [a, b] = ours;
  const centre = async (u) => page.evaluate((name) => {
    const rs = [...document.querySelectorAll(`svg.map .piece[data-unit="${name}"]`)].map((p) => p.getBoundingClientRect());
    return [rs.reduce((s, r) => s + r.x + r.width / 2, 0) / rs.length, rs.reduce((s, r) => s + r.y + r.height / 2, 0) / rs.length];
  }, u);
  const dragBy = async (u, dx, dy) => {
    const [x, y] = await centre(u);
    const box = await boxOf(page.locator(`svg.map .piece[data-unit="${u}"]`).first());
    const [sx, sy] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(sx, sy);
    await page.mouse.down();
    await page.mouse.move(sx + dx, sy + dy, { steps: 6 });
    await page.mouse.up();
    return [x, y];
  };
  // Dropped clear of the others within the band: placed (the first of a few ways that is clear
  // of the side's other units; one dropped on a friend is refused).
  let ax, ay, dxUsed = 0, dyUsed = 0;
  for (const [dx, dy] of [[40, 0], [-40, 0], [0, 15], [40, 15], [-40, 15], [0, 25], [70, 15], [-70, 15]]) {
    [ax, ay] = await centre(a);
    const before = await page.locator(".deployhelp").innerText();
    await dragBy(a, dx, dy);
    await page.waitForFunction((prev) => (document.querySelector(".deployhelp")?.innerText || "") !== prev, before, { timeout: 3000 }).catch(() => {});
    if ((await page.locator(".deployhelp").innerText()).includes(`${a} placed`)) { [dxUsed, dyUsed] = [dx, dy]; break; }
  }
  assert.ok(dxUsed !== 0 || dyUsed !== 0, `${a} placed somewhere clear`);
  const [ax2, ay2] = await centre(a);
  assert.ok(Math.abs(ax2 - ax - dxUsed) < 6 && Math.abs(ay2 - ay - dyUsed) < 6, `${a} drawn where it was put: ${ax},${ay} → ${ax2},${ay2}`);
  assert.ok(await page.locator(".choice", { hasText: `fix the deployment, with ${a} placed otherwise` }).count() === 1);
  // Its reach goes with it: no circle left behind where it stood.
  if (!(await page.locator("svg.map polygon.range").count())) await page.mouse.click(ax2, ay2);
  await page.waitForSelector("svg.map polygon.range", { timeout: 3000 });
  const reach = await page.evaluate(() => [...document.querySelectorAll("svg.map polygon.range")].map((r) => { const b = r.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; }));
  assert.ok(reach.length > 0, "the selected unit's reach is drawn");
  assert.ok(reach.every(([x, y]) => Math.hypot(x - ax2, y - ay2) < Math.hypot(x - ax, y - ay)), `its reach drawn at its new place: ${JSON.stringify(reach)} (${ax},${ay} → ${ax2},${ay2})`);
  await page.keyboard.press("Escape");
  // Dropped on another of its side's units: refused (figures do not stand on figures).
  {
    const [tx, ty] = await centre(a);
    const [sx, sy] = await centre(b);
    await dragBy(b, tx - sx, ty - sy);
    await page.waitForFunction((u) => document.querySelector(".deployhelp")?.innerText.includes(`${u} may not stand there`), b);
    assert.match(await page.locator(".deployhelp").innerText(), /would stand on/);
    // The refusal shows under the map too, where the unit was dragged (player round 5, phone).
    assert.match(await page.locator(".proposalslot [data-deploynote]").innerText(), /may not stand there: .*would stand on/);
  }
  // Dragged out of the band, towards the enemy: refused, and drawn back where it was.
  const [bx, by] = await dragBy(b, 0, -300);
  await page.waitForFunction((u) => document.querySelector(".deployhelp")?.innerText.includes(`${u} may not stand there`), b);
  assert.match(await page.locator(".deployhelp").innerText(), /within .* of your rear edge/);
  const [, by2] = await centre(b);
  assert.ok(Math.abs(by2 - by) < 3, `${b} stays: ${by} → ${by2}`);
  // Fix it: the log goes on, and once both sides have deployed, the unit stands where it was put.
  const before = await logText(page);
  await page.locator(".choice", { hasText: /^fix the deployment, with / }).click();
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev, before);
  await page.waitForFunction(() => !document.querySelector(".choice")?.innerText.startsWith("fix the deployment"));
  await page.waitForFunction(([u, x]) => {
    const rs = [...document.querySelectorAll(`svg.map .piece[data-unit="${u}"]`)].map((p) => p.getBoundingClientRect());
    return rs.length && Math.abs(rs.reduce((s, r) => s + r.x + r.width / 2, 0) / rs.length - x) < 6;
  }, [a, ax + dxUsed]);
  assert.ok(ay > 0);
  assert.deepEqual(errors, []);
});

test("on a touch screen, two fingers pinch the map to zoom", async () => {
  const context = await openContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await page.goto(base);
  await clickPlay(page, "the-village");
  await page.waitForSelector("svg.map text.ulabel");
  const before = await viewBox(page);
  const box = await boxOf(page.locator("svg.map"));
  const cdp = await context.newCDPSession(page);
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  const touch = (type, d) => cdp.send("Input.dispatchTouchEvent", {
    type, touchPoints: type === "touchEnd" ? [] : [{ x: cx - d, y: cy, id: 1 }, { x: cx + d, y: cy, id: 2 }],
  });
  await touch("touchStart", 20);
  for (const d of [30, 45, 60, 80]) await touch("touchMove", d);
  await touch("touchEnd", 0);
  await page.waitForFunction((w) => Number(document.querySelector("svg.map").getAttribute("viewBox").split(" ")[2]) < w * 0.6, before[2]);
});

test("clicking a selected unit again takes nothing; choices that leave it where it stands have no dot; a place several choices lead to asks which", async () => {
  const page = await (await openContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.click('button[data-scenario="the-farm"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  await page.waitForFunction(() => document.querySelectorAll(".choice").length > 0);
  const ours = await page.evaluate(() => [...new Set([...document.querySelectorAll("svg.map .piece[data-unit]")]
    .filter((p) => p.getAttribute("fill") === "#35588f").map((p) => p.dataset.unit))]);
  let sawMany = false;
  for (const unit of ours) {
    const piece = page.locator(`svg.map .piece[data-unit="${unit}"]`).first();
    await piece.click({ force: true });
    await page.waitForFunction((u) => document.querySelector(".unitbox strong")?.textContent === u, unit);
    const box = await boxOf(piece);
    // No dot within the unit: its cards (halt, fire, form square…) are in the list only.
    const inside = await page.evaluate((b) => [...document.querySelectorAll("svg.map circle.target")].filter((d) => {
      const r = d.getBoundingClientRect();
      const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
      return x > b.x + 2 && x < b.x + b.width - 2 && y > b.y + 2 && y < b.y + b.height - 2;
    }).length, box);
    assert.equal(inside, 0, `${unit}: no choice's dot within the unit`);
    const before = await logText(page);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(400);
    assert.equal(await logText(page), before, `${unit}: a second click takes nothing`);
    assert.equal(await page.locator(".unitbox strong").innerText(), unit, "still selected");
    const many = page.locator("svg.map circle.target.many");
    if (!sawMany && await many.count()) {
      sawMany = true;
      const title = await many.first().evaluate((d) => d.querySelector("title").textContent);
      const n = Number(/^(\d+) choices lead here/.exec(title)[1]);
      await many.first().click({ force: true });
      await page.waitForSelector(".manyhere");
      assert.equal(await page.locator(".choice").count(), n, "only the choices that lead there");
      assert.equal(await logText(page), before, "nothing taken");
      await page.click('button[data-many="all"]');
      await page.waitForFunction(() => !document.querySelector(".manyhere"));
    }
  }
  assert.deepEqual(errors, []);
});

test("on a phone the map stays on screen above the choices as they scroll", async () => {
  const page = await (await openContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })).newPage();
  await page.goto(base);
  await clickPlay(page, "the-village");
  await page.waitForSelector(".choice");
  await page.locator(".choice").first().scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2));
  const map = await boxOf(page.locator("svg.map"));
  const choice = await boxOf(page.locator(".panel"));
  assert.ok(map.y >= -1 && map.y + map.height <= 844 * 0.5 + 2, `the map is on screen: ${JSON.stringify(map)}`);
  assert.ok(choice.y + choice.height > map.y + map.height, "the panels are below it");
});

// Every unit on the map with a name one can read: shown, on the map, and clear of every other
// name (a shortened name counts: its full name shows on hover). The units without one.
const unnamedUnits = (page) => page.evaluate(() => {
  const map = document.querySelector("svg.map");
  const box = map.getBoundingClientRect();
  const units = [...new Set([...map.querySelectorAll(".piece[data-unit]")].map((p) => p.dataset.unit))];
  const shown = [...map.querySelectorAll("text.label")].filter((t) => getComputedStyle(t).display !== "none")
    .map((t) => ({ t, r: t.getBoundingClientRect() }));
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  return units.filter((u) => {
    const mine = shown.find((s) => s.t.dataset.label === u);
    if (!mine || mine.r.width === 0 || !mine.t.textContent.trim()) return true;
    const r = mine.r;
    if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) return true;
    // (A name shortened to what another unit's is shortened to, "IR 12" for two, names neither.)
    return shown.some((s) => s !== mine && (overlap(s.r, r) || (s.t.dataset.label !== u && s.t.firstChild?.nodeValue?.trim() === mine.t.firstChild?.nodeValue?.trim())));
  });
});

test("every unit's name is readable at full view on every bundled battle, at its start and after ten turns of computer play, and no two read alike; an objective's name covers no unit", async () => {
  const page = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  const names = await page.evaluate(async () => (await (await fetch("/api/scenarios")).json()).map((s) => s.name));
  assert.ok(names.length >= 13, names.join(", "));
  const report = [];
  for (const name of names) {
    // (The computers play on the server, one battle at a time, to its end: no battle goes on
    // playing behind the tests that follow.)
    const g = await page.evaluate(async (scenario) => {
      const r = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario, players: ["heuristic", "heuristic"], seed: 3 }) });
      return r.json();
    }, name);
    assert.ok(g.id, JSON.stringify(g));
    const id = g.id;
    await page.waitForFunction(async (gid) => (await (await fetch(`/api/games/${gid}`)).json()).outcome, id, { timeout: 120000, polling: 250 });
    await page.goto(`${base}#/replay/${id}`);
    await page.reload();
    await page.waitForFunction(() => /action 0 of/.test(document.querySelector(".steplabel")?.textContent || "") && document.querySelector("svg.map"), null, { timeout: 10000 })
      .catch(async (e) => { await page.screenshot({ path: "/tmp/dbg/fail.png" }); throw new Error(`${name}: ${e.message}`); });
    await page.waitForTimeout(100);
    const atStart = await unnamedUnits(page);
    await page.fill('input[aria-label="jump to turn"]', "11");
    await page.click("form.jump button");
    await page.waitForFunction(() => /turn (1[1-9]|[2-9]\d)\b/.test(document.querySelector(".steplabel")?.textContent || "")
      || /action (\d+) of \1\b/.test(document.querySelector(".steplabel")?.textContent || ""));
    await page.waitForTimeout(100);
    const later = await unnamedUnits(page);
    // An objective's name never lies over a piece.
    const covering = await page.evaluate(() => {
      const pieces = [...document.querySelectorAll("svg.map .piece")].map((p) => p.getBoundingClientRect());
      return [...document.querySelectorAll("svg.map text.olabel")].filter((t) => getComputedStyle(t).display !== "none")
        .filter((t) => { const r = t.getBoundingClientRect(); return pieces.some((p) => Math.min(p.right, r.right) - Math.max(p.left, r.left) > 1 && Math.min(p.bottom, r.bottom) - Math.max(p.top, r.top) > 1); })
        .map((t) => t.textContent);
    });
    if (atStart.length || later.length || covering.length) report.push(`${name}: at the start ${atStart.join("; ") || "all named"}; after ten turns ${later.join("; ") || "all named"}; objectives over pieces: ${covering.join("; ") || "none"}`);
  }
  assert.deepEqual(report, []);
  assert.deepEqual(errors, []);
});

test("what the other side did is the server's word: after the computer's turn, and after a reload, every unit it moved since our last action is marked and named", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  let game = null;
  page.on("response", async (r) => {
    if (r.request().method() === "GET" && /\/api\/games\/[0-9a-f]+$/.test(new URL(r.url()).pathname)) {
      try { game = await r.json(); } catch { /* (a page gone) */ }
    }
  });
  // The units of the other side whose pieces stand or face otherwise than just after our last action.
  const theirMoves = (g) => {
    if (!g?.since) return [];
    const at = (pieces) => {
      const m = new Map();
      for (const p of pieces) {
        if (!p.unit || p.side === g.seat) continue;
        const f = p.footprint;
        const c = f.shape === "circle" ? f.at : [f.points.reduce((a, q) => a + q[0], 0) / f.points.length, f.points.reduce((a, q) => a + q[1], 0) / f.points.length];
        m.set(p.unit, [...(m.get(p.unit) || []), `${c[0].toFixed(3)},${c[1].toFixed(3)},${p.facing}`]);
      }
      return m;
    };
    const a = at(g.since.pieces), b = at(g.view.pieces);
    return [...b.keys()].filter((u) => a.has(u) && a.get(u).join(" ") !== b.get(u).join(" "));
  };
  await villageToMovement(page);
  let moved = [];
  for (let i = 0; i < 12 && !moved.length; i++) {
    await page.waitForFunction(() => document.querySelectorAll(".choice").length > 0 && !document.body.innerText.includes("thinking"));
    await page.waitForTimeout(300);
    moved = theirMoves(game);
    if (!moved.length) await page.locator(".choice", { hasText: /^end the / }).first().click();
  }
  assert.ok(moved.length > 0, "the computer moved a unit");
  // Come back to the tab later: the page, reloaded, still marks what the other side did.
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll(".choice").length > 0 && !document.body.innerText.includes("thinking"));
  await page.waitForTimeout(300);
  moved = theirMoves(game);
  const marked = await page.locator("svg.map g.unit.moved").evaluateAll((gs) => gs.map((g) => g.dataset.unitGroup));
  for (const u of moved) assert.ok(marked.includes(u), `${u} is marked as moved (${marked})`);
  const summary = await page.locator(".summary").first().innerText();
  assert.match(summary, new RegExp(`the ${game.view.sides[1 - game.seat]} moved`, "i"));
  assert.ok(moved.some((u) => summary.includes(u)) || /more/.test(summary), summary);
  assert.deepEqual(errors, []);
});

test("En Avant's Game Control amends from the game page: the unit picked on the map, the list by side, the form kept after the act, and the players read it", async () => {
  const u = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const errors = [];
  u.on("pageerror", (e) => errors.push(e.message));
  await u.goto(base);
  const card = u.locator(".card", { has: u.locator('button[data-scenario="the-farm"]') });
  await card.locator('select[data-me="the-farm"]').selectOption("umpire");
  await card.locator('button[data-scenario="the-farm"]').click();
  await u.waitForURL(/#\/game\/[0-9a-f]+$/);
  await u.waitForFunction(() => document.body.innerText.includes("You are the umpire"));
  // The units are listed by side.
  const groups = await u.locator('.umpireform select[aria-label="unit"] optgroup').evaluateAll((gs) => gs.map((g) => g.label));
  assert.ok(groups.length >= 2 && groups.every((l) => /^The |^Off the table$/.test(l)), groups.join(", "));
  // He picks a unit by clicking it on the map: the form names it.
  const piece = u.locator("svg.map .piece[data-unit]").nth(2);
  const unit = await piece.getAttribute("data-unit");
  await piece.click();
  await u.waitForFunction((name) => {
    const s = document.querySelector('.umpireform select[aria-label="unit"]');
    return s && s.options[s.selectedIndex].text === name;
  }, unit);
  // The form starts from the unit as it stands: its present status, not the list's first.
  const status = await piece.evaluate((p) => /\(([^()]*)\)[^()]*$/.exec(p.querySelector("title").textContent.split(" — ")[0])?.[1] || "");
  const shown = await u.locator('.umpireform select[name="status"]').inputValue();
  assert.equal(shown.replaceAll("_", " "), status.toLowerCase(), `the form shows ${shown} for a unit ${status}`);
  await u.selectOption('.umpireform select[name="status"]', "wavering");
  await u.check('.umpireform input[name="disordered"]');
  await u.fill('.umpireform input[name="reason"]', "a volley in the flank");
  await u.click('button[data-umpire-act="1"]');
  await u.waitForFunction((name) => document.querySelector(".log")?.innerText.includes(`Game Control: ${name} is now`), unit, { timeout: 10000 });
  assert.doesNotMatch(await u.locator(".umpire").innerText(), /missing field|not an action/);
  // The form keeps its values after the act.
  assert.equal(await u.locator('.umpireform input[name="reason"]').inputValue(), "a volley in the flank");
  assert.equal(await u.locator('.umpireform select[name="status"]').inputValue(), "wavering");
  // A cavalry regiment's second line is asked of it alone; a company has no such field.
  const pick = async (name) => {
    await u.locator(`svg.map .piece[data-unit="${name}"]`).first().click();
    await u.waitForFunction((n) => { const s = document.querySelector('.umpireform select[aria-label="unit"]'); return s && s.options[s.selectedIndex].text === n; }, name);
    return u.locator(".umpireform").innerText();
  };
  assert.match(await pick("3e Hussards"), /second line/i, "the hussars' second line is asked for");
  assert.doesNotMatch(await pick("1/52nd"), /second line|cavalry/i, "no cavalry field for a company");
  // The fields come in a reading order: the unit first, its status, and the reason last.
  const order = await u.locator(".umpireform fieldset:visible .fname").allInnerTexts();
  assert.match(order[0], /unit/i, order.join(" | "));
  assert.match(order[1], /status/i, order.join(" | "));
  assert.match(order.at(-1), /^Why/, order.join(" | "));
  // Each piece shows one number, the status it acts on: no row of bare digits.
  const numbers = await u.evaluate(() => [...document.querySelectorAll("svg.map text.counter")].map((t) => t.textContent));
  const hussars = await u.locator('svg.map .piece[data-unit="3e Hussards"] title').textContent();
  assert.ok(numbers.length > 0 && numbers.length <= await u.locator("svg.map .piece[data-unit]").count(), `one number per piece: ${numbers.join(" ")}`);
  assert.match(hussars, /second line/, "the lines' statuses are in the hussars' label");
  assert.deepEqual(errors, []);
});

test("Old Fritz's umpire moves and turns a unit by dragging it on the map, and the players read that the umpire moved it", async () => {
  const u = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const errors = [];
  u.on("pageerror", (e) => errors.push(e.message));
  await newRidge(u, "umpire");
  await u.waitForFunction(() => document.body.innerText.includes("You are the umpire"));
  const invite = await u.locator('.link[data-invite="0"]').innerText();
  const p = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await p.goto(invite);
  await p.waitForFunction(() => document.body.innerText.includes("You play the Prussians"));
  // The player acts once (his baseline), then the umpire moves one of his battalions.
  await ordersOf(p).first().click();
  await p.waitForFunction(() => document.querySelector(".log")?.innerText.length > 0);
  await u.selectOption('.umpireform select[name="kind"]', "adjust");
  const piece = u.locator("svg.map .piece[data-unit]").first();
  const unit = await piece.getAttribute("data-unit");
  await piece.click();
  await u.waitForSelector('[data-umpire-field="at"]');
  assert.match(await u.locator('[data-umpire-field="at"]').innerText(), /drag it on the map/);
  const box = await u.locator(`svg.map .piece[data-unit="${unit}"]`).first().boundingBox();
  await u.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await u.mouse.down();
  await u.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2 + 40, { steps: 6 });
  await u.mouse.up();
  await u.waitForFunction(() => /moved [\d.]+"? [a-z-]+, (in|on|near) .+ \(the dashed outline\)/.test(document.querySelector('[data-umpire-field="at"]')?.innerText || ""), null, { timeout: 5000 })
    .catch(async (e) => { throw new Error(`${e.message}: ${await u.locator('[data-umpire-field="at"]').innerText()} ${errors.join("; ")}`); });
  assert.doesNotMatch(await u.locator('[data-umpire-field="at"]').innerText(), /\d+\.\d, \d+\.\d/, "no coordinates to read");
  // The unit is drawn where it will stand, dashed, before the act.
  assert.ok(await u.locator("svg.map .pending").count() > 0, "the pending place is drawn");
  // And turns it by the knob in front of it.
  const knob = await u.locator("svg.map .turnknob").first().boundingBox();
  await u.mouse.move(knob.x + knob.width / 2, knob.y + knob.height / 2);
  await u.mouse.down();
  await u.mouse.move(knob.x + knob.width / 2 + 60, knob.y + knob.height / 2 + 60, { steps: 6 });
  await u.mouse.up();
  await u.waitForFunction(() => /facing .+ \(\d+°\)/.test(document.querySelector('[data-umpire-field="facing"]')?.innerText || ""));
  // The kind is named once, by the choice of kind (no title repeating it), and the form begins
  // with the unit and ends with the reason.
  assert.equal(await u.locator(".umpireform legend", { hasText: /Adjust|tactical advantage/ }).count(), 0, "the kind is not named twice");
  const labels = await u.locator(".umpireform fieldset:visible .fname").allInnerTexts();
  assert.match(labels.at(-1), /^Why/, `the reason comes last: ${labels}`);
  assert.ok(await u.locator(".umpireform fieldset:visible").first().innerText().then((t) => t.indexOf("The unit") < t.indexOf("Why")), "the unit comes before the reason");
  await u.locator('.umpireform input[name="reason"]:visible').fill("lost in the fog");
  await u.click('button[data-umpire-act="1"]');
  await u.waitForFunction(() => document.querySelector(".log")?.innerText.includes("because lost in the fog") || document.querySelector(".error")?.innerText, null, { timeout: 10000 });
  assert.equal(await u.locator(".error").first().innerText(), "", "the umpire's act is taken");
  await p.waitForFunction(() => document.querySelector(".log")?.innerText.includes("because lost in the fog"), null, { timeout: 10000 });
  await p.reload();
  await p.waitForFunction((name) => /the umpire moved/i.test(document.querySelector(".summary")?.innerText || "") && document.querySelector(".summary").innerText.includes(name), unit, { timeout: 10000 });
  assert.doesNotMatch(await p.locator(".summary").first().innerText(), new RegExp(`Prussians moved[^.]*${unit}`));
  assert.deepEqual(errors, []);
});

test("a page whose live channel is refused (too many watchers from one address) still hears the other side, by asking every few seconds", async () => {
  const ctx = await openContext();
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  // Another tab of this address holds every watcher the server allows one address.
  const filler = await ctx.newPage();
  await filler.goto(base);
  const held = await filler.evaluate(async () => {
    const g = await (await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "hochdorf-mill", players: ["heuristic", "heuristic"], seed: 9 }) })).json();
    window.sockets = [];
    for (let i = 0; i < 40; i++) {
      const s = new WebSocket(`ws://${location.host}/api/games/${g.id}/ws`);
      const ok = await new Promise((r) => { s.onopen = () => { s.send("{}"); r(true); }; s.onerror = () => r(false); s.onclose = () => r(false); });
      if (ok) window.sockets.push(s); else break;
    }
    // (Earlier tests' pages may hold some already: the loop stops at the first refused.)
    return window.sockets.length < 40;
  });
  assert.ok(held, "the address's watchers are all taken");
  // Two people: the second's invitation opened in this page; the first acts in another context.
  const a = await (await openContext()).newPage();
  await newRidge(a);
  await a.waitForSelector('.link[data-invite="1"]');
  const invite = await a.locator('.link[data-invite="1"]').innerText();
  await page.goto(invite);
  await page.waitForFunction(() => document.body.innerText.includes("You play the Austrians"));
  assert.equal(await page.locator(".choice").count(), 0, "not the Austrians' turn yet");
  // The Prussians end their orders: the Austrians' page hears that it is their turn.
  await a.waitForFunction(() => document.querySelectorAll(".choice").length > 0);
  await a.locator(".choice", { hasText: /^end / }).first().click();
  await page.waitForFunction(() => document.querySelectorAll(".choice").length > 0, null, { timeout: 15000 });
  assert.deepEqual(errors, []);
  await filler.evaluate(() => window.sockets.forEach((s) => s.close()));
});

test("undo as Rally the Troops has it: a side takes back its own last actions (button or Ctrl+Z) while nothing was drawn and the decision is still his", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await newRidge(page);
  await page.waitForFunction(() => document.querySelectorAll(".choice").length > 0);
  assert.equal(await page.locator('button[data-undo="1"]').count(), 0, "nothing to take back yet");
  const start = await logText(page);
  // Two orders sent, then taken back one by the button and one by Ctrl+Z.
  for (let i = 0; i < 2; i++) {
    const before = await logText(page);
    await ordersOf(page).first().click();
    await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev, before);
  }
  const sent = await logText(page);
  await page.click('button[data-undo="1"]');
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev, sent);
  const one = await logText(page);
  assert.ok(one.length < sent.length, "the last order is gone from the log");
  await page.locator("svg.map").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Control+z");
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText === prev, start);
  assert.equal(await page.locator('button[data-undo="1"]').count(), 0, "nothing left to take back");
  // Ending the orders hands the decision on: there is no taking that back.
  await ordersOf(page).first().click();
  await page.waitForSelector('button[data-undo="1"]');
  await page.locator(".choice", { hasText: /^end / }).first().click();
  await page.waitForFunction(() => !document.querySelector('button[data-undo="1"]'));
  assert.deepEqual(errors, []);
});

test("your own battle: a scenario file opened from this computer is checked — a bad one shown at its line and column, a good one played under its own title", async () => {
  const { readFileSync } = await import("node:fs");
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  const file = page.locator("input[data-own-file]");
  await file.setInputFiles({ name: "broken.toml", mimeType: "text/plain",
    buffer: Buffer.from('name = "Broken"\nruleset = "itchy-scratchy"\nturn_limt = 3\n') });
  await page.waitForSelector(".own .diagnostic");
  const told = await page.locator(".own .diagnostic").first().innerText();
  assert.match(told, /^broken\.toml:3:1: unknown field `turn_limt`/, told);
  assert.match(await page.locator(".own pre.source").first().innerText(), /^turn_limt = 3\n\^/);
  // A good one: a bundled battle with a title of its own, played like a bundled one.
  const mill = readFileSync(new URL("../../scenarios/itchy-scratchy/hochdorf-mill.toml", import.meta.url), "utf8");
  const text = mill.replace(/^name = .*$/m, 'name = "The mill upstream, 1813"');
  await file.setInputFiles({ name: "upstream.toml", mimeType: "text/plain", buffer: Buffer.from(text) });
  await page.waitForSelector(".own .card h3");
  assert.equal(await page.locator(".own .diagnostic").count(), 0, "the old problems are gone");
  assert.equal(await page.locator(".own .card h3").innerText(), "The mill upstream, 1813");
  assert.match(await page.locator(".own .card").innerText(), /your file upstream\.toml/);
  assert.ok(await page.locator(".own .card svg").count() > 0, "its table is drawn");
  await page.click('.own button[data-own="upstream.toml"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  // The game's page is headed by the file's own title.
  await page.waitForFunction(() => [...document.querySelectorAll("h4")].some((h) => h.textContent === "The mill upstream, 1813"));
  await page.getByRole("button", { name: "throw for the initiative" }).click();
  await page.waitForFunction(() => document.querySelector(".log")?.innerText.includes("Initiative"));
  // Listed among the games by its file's name.
  await page.goto(base);
  await page.waitForFunction(() => document.querySelector("table.games")?.innerText.includes("upstream.toml"));
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("choices a person can scan: grouped by unit and folded, a filter box, the selected unit's choices by kind, and bearings in words with the numbers on hover", async () => {
  const page = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await villageToMovement(page);
  // As a person first sees them: every group folded.
  await page.evaluate(() => localStorage.setItem("volley:groups", ""));
  await page.reload();
  await page.waitForSelector("details.choicegroup");
  const groups = await page.locator("details.choicegroup").evaluateAll((ds) => ds.map((d) => ({ unit: d.dataset.group, open: d.open, n: d.querySelectorAll("button.choice").length })));
  assert.ok(groups.length >= 3, JSON.stringify(groups));
  assert.ok(groups.every((g) => !g.open), "folded");
  assert.ok(await page.locator("svg.map .piece[data-unit]").evaluateAll((ps, gs) => gs.every((g) => ps.some((p) => p.dataset.unit === g.unit)), groups), "each group is a unit on the map");
  const visible = () => page.locator("button.choice:not(.whole)").evaluateAll((bs) => bs.filter((b) => b.checkVisibility()).length);
  assert.equal(await visible(), 0, "no unit's choice shows until its group is opened");
  // The filter: a unit's name opens its group alone.
  const one = groups[1];
  await page.fill('input[aria-label="filter the choices"]', one.unit);
  await page.waitForFunction((u) => [...document.querySelectorAll("details.choicegroup")].every((d) => d.hidden === (d.dataset.group !== u) && (d.hidden || d.open)), one.unit);
  assert.ok(await visible() >= 1);
  await page.fill('input[aria-label="filter the choices"]', "");
  // The selected unit's choices, by kind, the first kind open; bearings in words, numbers on hover.
  // (Beside the middle, where a General's dot may lie.)
  const box = await page.locator(`svg.map .piece[data-unit="${groups[0].unit}"]`).first().boundingBox();
  await page.mouse.click(box.x + box.width * 0.15, box.y + box.height / 2);
  await page.waitForFunction((u) => document.querySelector(".unitbox strong")?.textContent === u, groups[0].unit);
  const texts = await page.locator("button.choice:not(.whole)").evaluateAll((bs) => bs.map((b) => ({ shown: b.textContent, title: b.title })));
  assert.ok(texts.every((t) => !/\d°(?! off)/.test(t.shown)), `no bare bearing: ${texts.map((t) => t.shown).join(" | ")}`);
  // (An angle off the front is relative already: never turned into a compass point.)
  assert.ok(texts.every((t) => !/towards the [a-z-]+ off the front/.test(t.shown)), texts.map((t) => t.shown).join(" | "));
  const turned = texts.filter((t) => /°/.test(t.title));
  assert.ok(turned.length > 0, "some choice turns the unit");
  assert.ok(turned.every((t) => /(straight ahead|a little (left|right)|half (left|right)|\b(left|right)\b|about|towards the)/.test(t.shown)), turned.map((t) => t.shown).join(" | "));
  assert.deepEqual(errors, []);
});

test("remote play: the turn in the tab's title and since when, the invitation at the top with a copy button until claimed, whether the other player is here, and a seat opened on another device by a personal link", async () => {
  const a = await (await openContext()).newPage();
  const errors = [];
  a.on("pageerror", (e) => errors.push(e.message));
  await newRidge(a);
  await a.waitForSelector(".invitestop .link");
  assert.match(await a.locator(".invitestop").innerText(), /Waiting for a player[\s\S]*not claimed yet/i);
  assert.equal(await a.locator(".invitestop button[data-copy]").count(), 1);
  await a.waitForFunction(() => document.title.startsWith("● Your move"));
  assert.match(await a.locator(".actor .since").innerText(), /since \d\d:\d\d( [AP]M)?, (just now|\d+ minutes? ago)/);
  // The other player claims his seat: the creator sees it claimed and him here.
  const invite = await a.locator('.link[data-invite-top="1"]').innerText();
  const b = await (await openContext()).newPage();
  await b.goto(invite);
  await b.waitForFunction(() => document.body.innerText.includes("You play the Austrians"));
  await b.waitForFunction(() => document.title.startsWith("Waiting"));
  await a.waitForFunction(() => !document.querySelector(".invitestop .link") && /claimed; the player is here/.test(document.querySelector(".invite")?.innerText || ""), null, { timeout: 25000 });
  // The creator's own seat, on another device: the credential in the fragment, then gone from the address.
  await a.locator("details.personal summary").first().click();
  const personal = await a.locator('.link[data-personal="0"]').innerText();
  assert.match(personal, /#\/seat\/[0-9a-f]+\/0\/./);
  const c = await (await openContext()).newPage();
  await c.goto(personal);
  await c.waitForFunction(() => document.body.innerText.includes("You play the Prussians"));
  assert.doesNotMatch(c.url(), /seat/);
  assert.deepEqual(errors, []);
});

test("read the army and measure: an order of battle per side (every unit, its state, where it is; a click selects) and a ruler between any two places", async () => {
  const page = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await newRidge(page);
  await page.waitForSelector("details.oob");
  await page.click("details.oob summary");
  const onMap = await page.locator("svg.map .piece[data-unit]").evaluateAll((ps) => [...new Set(ps.map((p) => p.dataset.unit))].sort());
  const listed = await page.locator("details.oob button[data-oob]").evaluateAll((bs) => bs.map((b) => b.dataset.oob).sort());
  assert.deepEqual(listed, onMap, "every unit on the map, once");
  assert.deepEqual(await page.locator("details.oob h5").allInnerTexts().then((t) => t.map((x) => x.replace(/ \(\d+\)$/, ""))), ["The Prussians", "The Austrians"]);
  const line = await page.locator("details.oob button[data-oob]").nth(3).innerText();
  assert.match(line, / — .+; (in|on|near) .+|of the table/);
  const unit = await page.locator("details.oob button[data-oob]").nth(3).getAttribute("data-oob");
  await page.locator("details.oob button[data-oob]").nth(3).click();
  await page.waitForFunction((u) => document.querySelector(".unitbox strong")?.textContent === u, unit);
  assert.equal(await page.locator("details.oob").evaluate((d) => d.open), true, "the list stays open");
  // The ruler: two clicks, the distance in the table's measure.
  await page.click('button[data-zoom="ruler"]');
  const box = await page.locator("svg.map").boundingBox();
  const view = await page.locator("svg.map").evaluate((m) => m.getAttribute("viewBox").split(" ").map(Number));
  const perInch = box.width / view[2];
  await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.5);
  await page.mouse.click(box.x + box.width * 0.3 + perInch * 12, box.y + box.height * 0.5);
  await page.waitForSelector('svg.map text[data-measure="1"]');
  const said = await page.locator(".rulerout").innerText();
  const inches = Number(/Measured: ([\d.]+) inches/.exec(said)?.[1]);
  assert.ok(Math.abs(inches - 12) < 0.6, said);
  // From a unit to another: each click on a unit is a place to measure, not a selection.
  const picked = await page.locator(".unitbox strong").textContent();
  const pieces = await page.locator("svg.map .piece[data-unit]").evaluateAll((ps) => {
    const seen = new Map();
    for (const p of ps) if (!seen.has(p.dataset.unit)) { const r = p.getBoundingClientRect(); seen.set(p.dataset.unit, [r.x + r.width / 2, r.y + r.height / 2]); }
    return [...seen.values()];
  });
  await page.mouse.click(pieces[0][0], pieces[0][1]);
  await page.mouse.click(pieces[pieces.length - 1][0], pieces[pieces.length - 1][1]);
  await page.waitForFunction((before) => /Measured: [\d.]+ inches/.test(document.querySelector(".rulerout")?.innerText || "") && document.querySelector(".rulerout").innerText !== before, said);
  assert.equal(await page.locator(".unitbox strong").textContent(), picked, "no unit selected by the ruler's clicks");
  // Between two units, also the gap between their bodies at the nearest, less than between the
  // places clicked.
  const two = await page.locator(".rulerout").innerText();
  const m = /Measured: ([\d.]+) inches between the two places; .+ at the nearest: ([\d.]+) inches/.exec(two);
  assert.ok(m && Number(m[2]) < Number(m[1]), two);
  // Dragged from one place to another: measured where it is let go.
  const y = box.y + box.height * 0.7;
  await page.mouse.move(box.x + box.width * 0.2, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.2 + perInch * 6, y, { steps: 5 });
  await page.mouse.move(box.x + box.width * 0.2 + perInch * 9, y, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(() => /^Measured: [\d.]+ inches\.$/.test(document.querySelector(".rulerout")?.innerText || ""));
  const dragged = Number(/Measured: ([\d.]+) inches/.exec(await page.locator(".rulerout").innerText())[1]);
  assert.ok(Math.abs(dragged - 9) < 0.6, `dragged 9 inches: ${dragged}`);
  assert.deepEqual(errors, []);
});

test("accessibility: one h1, the account a live region, units chosen by keyboard (Tab from unit to unit, Enter selects), and text of WCAG AA contrast", async () => {
  const page = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  // Contrast of every piece of text on the page against what is behind it: at least 4.5 to 1.
  const lowContrast = () => page.evaluate(() => {
    const rgb = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null; const [r, g, b, a = 1] = m[1].split(",").map(Number); return { r, g, b, a }; };
    const lum = ({ r, g, b }) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
    const behind = (e) => { for (let n = e; n && n.nodeType === 1; n = n.parentElement) { const c = rgb(getComputedStyle(n).backgroundColor); if (c && c.a > 0.5) return c; } return { r: 255, g: 255, b: 255 }; };
    const bad = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const e = t.parentElement;
      if (!t.data.trim() || !e || e.closest("svg") || !e.checkVisibility()) continue;
      const s = getComputedStyle(e);
      if (e.closest("button:disabled, input:disabled, select:disabled")) continue;
      const fg = rgb(s.color), bg = behind(e);
      const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
      const ratio = (hi + 0.05) / (lo + 0.05);
      if (ratio < 4.5) bad.push(`${t.data.trim().slice(0, 30)}: ${ratio.toFixed(2)}`);
    }
    return bad;
  });
  assert.deepEqual(await lowContrast(), [], "the first page");
  assert.equal(await page.locator("h1").count(), 1);
  await clickPlay(page, "the-village");
  await page.waitForSelector("svg.map g.unit[tabindex]");
  assert.equal(await page.locator("h1").count(), 1);
  assert.equal(await page.locator('[role="log"][aria-live="polite"]').count(), 1);
  assert.deepEqual(await lowContrast(), [], "a game's page");
  // Keyboard: focus a unit, Tab to the next, Enter selects it.
  await page.locator("svg.map g.unit[tabindex]").first().focus();
  await page.keyboard.press("Tab");
  const focused = await page.evaluate(() => document.activeElement?.dataset?.unitGroup);
  assert.ok(focused, "Tab moves to the next unit");
  await page.keyboard.press("Enter");
  await page.waitForFunction((u) => document.querySelector(".unitbox strong")?.textContent === u, focused);
  // (The focus comes back to it once the map is drawn again.)
  await page.waitForFunction((u) => document.activeElement?.dataset?.unitGroup === u, focused, { timeout: 5000 })
    .catch(() => assert.fail("the focus stays on the unit"));
  assert.deepEqual(errors, []);
});

test("small things: the rule sets' names come from the server's catalog, dice are spoken of only where there are dice, and En Avant's desk asks for no roll", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  const catalog = await page.evaluate(async () => (await fetch("/api/rulesets")).json());
  assert.deepEqual(catalog.map((r) => r.id).sort(), ["blown-away", "der-alte-fritz", "en-avant", "itchy-scratchy", "old-fritz"]);
  await page.waitForSelector(".card .rs");
  const named = await page.locator(".card .rs").allInnerTexts();
  for (const r of catalog) assert.ok(named.some((t) => t.startsWith(r.name)), `${r.name} on the first page`);
  // En Avant: no dice, and the page does not speak of any.
  await page.click('button[data-scenario="the-farm"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  await page.waitForSelector(".seed");
  assert.match(await page.locator(".seed").innerText(), /No dice and no cards/);
  assert.doesNotMatch(await page.locator(".seed").innerText(), /dice come from/);
  // Itchy and Scratchy: dice.
  await page.goto(base);
  await page.click('button[data-scenario="hochdorf-mill"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  await page.waitForSelector(".seed");
  assert.match(await page.locator(".seed").innerText(), /The dice come from the server's secret seed/);
  // The desk: En Avant's has nothing to roll; Der Alte Fritz's asks what to roll.
  await page.goto(`${base}#/desk/en-avant`);
  await page.waitForSelector('button[data-resolve="1"]');
  assert.equal(await page.locator('button[data-what="1"]').count(), 0);
  await page.goto(`${base}#/desk/der-alte-fritz`);
  await page.waitForSelector('button[data-what="1"]');
  assert.deepEqual(errors, []);
});

test("a lobby: a game made open to anyone lists its free seat on the first page, one click takes it, and then it is gone from the list", async () => {
  const a = await (await openContext()).newPage();
  const errors = [];
  a.on("pageerror", (e) => errors.push(e.message));
  await a.goto(base);
  const card = a.locator(".card", { has: a.locator('button[data-scenario="the-village"]') });
  await card.locator('select[data-side="1"]').selectOption("human");
  await card.locator("details.options summary").click();
  await card.locator('input[data-open="the-village"]').check();
  await card.locator('button[data-scenario="the-village"]').click();
  await a.waitForURL(/#\/game\/[0-9a-f]+$/);
  const id = /#\/game\/([0-9a-f]+)$/.exec(a.url())[1];
  // Someone else, on the first page: the seat is there; one click and he plays.
  const b = await (await openContext()).newPage();
  await b.goto(base);
  const take = b.locator(`button[data-take="${id}/1"]`);
  await take.waitFor();
  assert.match(await b.locator(".openseats").innerText(), /the Austrians, against a person/);
  await take.click();
  await b.waitForFunction(() => /You play the Austrians/.test(document.body.innerText));
  // Taken: a third visitor no longer sees it.
  const c = await (await openContext()).newPage();
  await c.goto(base);
  await c.waitForSelector(".card");
  assert.equal(await c.locator(`button[data-take="${id}/1"]`).count(), 0);
  assert.deepEqual(errors, []);
});

test("a turn you can follow: water drawn as water, horse told from foot, the numbers on the pieces at zoom (and on hover), and a legend for every mark", async () => {
  const page = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // Lobositz: the Morellen brook is soft ground to the rules, and water on the map.
  await page.goto(base);
  await page.click('button[data-scenario="lobositz"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  await page.waitForSelector("svg.map polygon.terrain");
  const brook = await page.locator("svg.map polygon.terrain").evaluateAll((ps) => ps.filter((p) => /brook/.test(p.textContent)).map((p) => p.getAttribute("fill")));
  assert.deepEqual(brook, ["#9cc4e4"]);
  // The numbers: hidden at full view of a big battle, shown zoomed in; always on hover.
  const shown = () => page.locator("svg.map text.counter").evaluateAll((ts) => ts.filter((t) => t.checkVisibility()).length);
  assert.equal(await shown(), 0, "no numbers at full view of 30 units");
  assert.match(await page.locator("svg.map .piece[data-unit] title").first().textContent(), /— \d+ /);
  await page.click('button[data-zoom="in"]');
  await page.waitForFunction(() => [...document.querySelectorAll("svg.map text.counter")].some((t) => t.checkVisibility()));
  await page.click("details.legend summary");
  const legend = await page.locator("details.legend").innerText();
  assert.match(legend, /outlined in gold: moved/);
  assert.match(legend, /numbers: figures or strength/);
  // Blown Away: a horseman is a diamond, a man on foot a disc.
  const id = await computerBattle("crossroads");
  await page.goto(`${base}#/replay/${id}`);
  await page.waitForSelector("svg.map");
  await page.fill('input[aria-label="jump to turn"]', "2");
  await page.click("form.jump button");
  await page.waitForFunction(() => document.querySelectorAll('svg.map .piece[data-arm="cavalry"]').length > 0);
  const shapes = await page.locator("svg.map .piece").evaluateAll((ps) => ({
    horse: [...new Set(ps.filter((p) => p.dataset.arm === "cavalry").map((p) => p.tagName))],
    foot: [...new Set(ps.filter((p) => p.dataset.arm === "infantry").map((p) => p.tagName))],
  }));
  assert.deepEqual(shapes, { horse: ["polygon"], foot: ["circle"] });
  assert.deepEqual(errors, []);
});

test("rules in the page: each rule set's page says how a turn goes and what a player decides, with its register; the first page groups battles by rule set with one to start with, its length and its size", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.waitForSelector("section.ruleset");
  const sections = await page.locator("section.ruleset").evaluateAll((ss) => ss.map((s) => ({
    id: s.dataset.ruleset, start: s.querySelectorAll(".starthere").length, first: !!s.querySelector(".card")?.querySelector(".starthere"),
    sizes: [...s.querySelectorAll(".card .size")].map((d) => d.textContent),
  })));
  assert.deepEqual(sections.map((s) => s.id).sort(), ["blown-away", "der-alte-fritz", "en-avant", "itchy-scratchy", "old-fritz"]);
  for (const s of sections) {
    assert.equal(s.start, 1, `${s.id}: one battle to start with`);
    assert.ok(s.first, `${s.id}: first`);
    assert.ok(s.sizes.length && s.sizes.every((t) => /up to \d+ turns · \d+ against \d+ units/.test(t)), `${s.id}: ${s.sizes}`);
  }
  for (const s of sections) {
    await page.goto(`${base}#/rules/${s.id}`);
    await page.waitForSelector("article.rules h2");
    const text = await page.locator("article.rules").innerText();
    assert.match(text, /How a turn goes/i, s.id);
    assert.match(text, /What you decide/i, s.id);
    assert.doesNotMatch(await page.locator("p.battles").innerText(), /http|, ,|^Its battles: ,/, s.id);
    assert.equal(await page.locator("article.rules details.register table").count() > 0 || (await page.locator("article.rules details.register h3").count()) > 0, true, `${s.id}: its register`);
  }
  await page.goto(`${base}#/rules/chess`);
  await page.waitForSelector(".error");
  assert.match(await page.locator(".error").innerText(), /no rule set chess/);
  assert.deepEqual(errors, []);
});

test("on a phone: a unit is a touch target of 24 px at any zoom, the zoom buttons 40 px, and the selected unit's choices a sheet at the bottom with the map in view above", async () => {
  const page = await (await openContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await villageToMovement(page);
  const targets = () => page.locator("svg.map circle.hit").evaluateAll((cs) => cs.map((c) => Math.min(c.getBoundingClientRect().width, c.getBoundingClientRect().height)));
  for (const zoom of ["fit", "in", "in"]) {
    await page.click(`button[data-zoom="${zoom}"]`);
    // (The zoom is drawn on the next frame: the targets are measured once it has been.)
    await page.waitForFunction(() => {
      const cs = [...document.querySelectorAll("svg.map circle.hit")];
      return cs.length > 4 && cs.every((c) => Math.min(c.getBoundingClientRect().width, c.getBoundingClientRect().height) >= 23.5);
    }, null, { timeout: 5000 }).catch(() => {});
    const sizes = await targets();
    assert.ok(sizes.length > 4 && sizes.every((w) => w >= 23.5), `${zoom}: ${Math.min(...sizes)}`);
  }
  await page.click('button[data-zoom="fit"]');
  assert.match(await page.locator(".unitbox").innerText(), /Tap a unit/);
  for (const b of await page.locator(".mapcontrols button").all()) {
    const r = await b.boundingBox();
    assert.ok(r.width >= 40 && r.height >= 40, `a zoom button of ${r.width}×${r.height}`);
  }
  // Tap a unit: its choices come up in a sheet at the bottom; the map stays above it.
  const hit = await page.locator("svg.map circle.hit").first().boundingBox();
  await page.touchscreen.tap(hit.x + hit.width / 2, hit.y + hit.height / 2);
  await page.waitForSelector(".choicesbox.sheet");
  const sheet = await page.locator(".choicesbox.sheet").boundingBox();
  const map = await page.locator("svg.map").boundingBox();
  assert.ok(sheet.y + sheet.height >= 843 && sheet.y > 844 * 0.5, `the sheet at the bottom: ${JSON.stringify(sheet)}`);
  assert.ok(map.y + map.height <= sheet.y + 1 && map.y >= 0, `the map above it: ${JSON.stringify(map)}`);
  assert.ok(await page.locator(".choicesbox.sheet button.choice").count() > 0);
  // The turning knob of the unit tapped is a finger's size too.
  const knob = await page.locator("svg.map circle.turnknob").boundingBox();
  assert.ok(knob && knob.width >= 23.5, `the knob: ${JSON.stringify(knob)}`);
  assert.deepEqual(errors, []);
});

test("a player's replay holds his own secret orders, and a computers' battle can be watched at one's own pace", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await newRidge(page);
  await page.waitForFunction(() => document.querySelectorAll(".choice").length > 0);
  const order = await ordersOf(page).first().innerText();
  const wing = /^order the (.+?): /.exec(order)[1];
  await ordersOf(page).first().click();
  await page.waitForFunction((w) => document.querySelector(".log")?.innerText.includes(w), wing);
  const id = /#\/game\/([0-9a-f]+)/.exec(page.url())[1];
  await page.goto(`${base}#/replay/${id}`);
  await page.waitForSelector(".steplabel");
  await page.keyboard.press("End");
  await page.waitForFunction((w) => document.querySelector(".panel .log")?.innerText.includes(w), wing);
  // Someone else's replay of the same game has no such order.
  const other = await (await openContext()).newPage();
  await other.goto(`${base}#/replay/${id}`);
  await other.waitForSelector(".steplabel");
  assert.match(await other.locator(".steplabel").innerText(), /action 0 of 0/);
  // A battle of two computers: a link to watch it at one's own pace, and the replay follows it.
  const g = await page.evaluate(async () => (await (await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "mittelhof", players: ["heuristic", "heuristic"], creator: "spectator" }) })).json()));
  await page.goto(`${base}#/game/${g.id}`);
  const pace = page.locator('a[data-pace="1"]');
  if (await pace.count()) {
    // (The page is redrawn as the computers play: the link is followed by its address, not a
    // click that may land as it is replaced.)
    const href = await pace.first().getAttribute("href");
    assert.match(href, /^#\/replay\/[0-9a-f]+$/);
    await page.goto(`${base}${href}`);
    await page.waitForSelector(".steplabel");
    await page.selectOption('select[aria-label="speed"]', "250");
    await page.click('button[data-play="1"]');
    await page.waitForFunction(() => /action ([1-9]\d*) of/.test(document.querySelector(".steplabel")?.textContent || ""));
    assert.match(await page.locator('button[data-play="1"]').innerText(), /pause/);
  }
  assert.deepEqual(errors, []);
});

test("a unit of many figures is described by what its men are, counted (never a bare 'soldier' line)", async () => {
  const page = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.click('button[data-scenario="crossroads"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  const hit = page.locator("svg.map circle.hit").nth(3);
  await hit.waitFor();
  const box = await hit.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForSelector(".unitbox .unitlabel");
  assert.match(await page.locator(".unitbox .unitlabel").innerText(), /^Its men: \d+ [a-z ]+(, \d+ [a-z ]+)*( and \d+ [a-z ]+)?\.$/);
  assert.deepEqual(errors, []);
});

test("Der Alte Fritz: the knob turns a unit where it stands (the rules allow it), not a move backwards", async () => {
  const page = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await villageToMovement(page);
  const turns = page.locator(".choice", { hasText: /: turns to face .* where it stands/ });
  const text = await turns.first().textContent();
  const unit = /^(.+?): turns to face/.exec(text)[1];
  const box = await boxOf(page.locator(`svg.map circle.hit[data-unit="${unit}"]`));
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction((u) => document.querySelector(".unitbox strong")?.textContent === u, unit);
  await page.locator("svg.map .turnknob").first().waitFor();
  await page.waitForTimeout(300); // (the map drawn again for the computer's news settles)
  const knob = await boxOf(page.locator("svg.map .turnknob").first());
  await page.mouse.move(knob.x + knob.width / 2, knob.y + knob.height / 2);
  await page.mouse.down();
  await page.mouse.move(knob.x + knob.width / 2 + 25, knob.y + knob.height / 2 + 6, { steps: 6 });
  await page.mouse.up();
  await page.waitForSelector(".proposal .legal, .proposal .refused");
  const said = await page.locator(".proposal").innerText();
  assert.match(said, /may go there/, said);
  assert.doesNotMatch(said, /backwards/);
  assert.deepEqual(errors, []);
});

test("Blown Away: the commander is a piece of his own, picked on the map and ridden anywhere by a drag", async () => {
  const page = await (await openContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.click('button[data-scenario="advance-guard"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  await page.locator(".choice", { hasText: /^fix the deployment as it stands/ }).click();
  await page.waitForSelector(".choice.whole", { hasText: /^end the phase/ });
  const name = await page.evaluate(() => [...document.querySelectorAll('svg.map .piece[data-arm="general"]')]
    .find((p) => p.getAttribute("fill") === "#35588f")?.dataset.unit);
  assert.ok(name, "our commander is drawn as a piece");
  const piece = page.locator(`svg.map .piece[data-unit="${name}"]`).first();
  await piece.click({ force: true });
  await page.waitForFunction((u) => document.querySelector(".unitbox strong")?.textContent === u, name);
  assert.match(await page.locator(".unitbox").innerText(), /commander/i);
  // Every choice shown for him is a ride; dragged well away from everybody, he rides there.
  // (Only his own: not the moves of a unit named after him, IR Kreytzen.)
  const rides = await page.locator(".choices button.choice:not(.whole)").allInnerTexts();
  assert.ok(rides.length > 0 && rides.every((t) => new RegExp(`^${name} rides (over )?to `).test(t)), rides.join(" | "));
  const at = await boxOf(piece);
  const before = await logText(page);
  await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
  await page.mouse.down();
  await page.mouse.move(at.x + at.width / 2 + 90, at.y + at.height / 2 - 60, { steps: 8 });
  await page.mouse.up();
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev, before);
  assert.match(await logText(page), new RegExp(`${name} rides (over )?to `));
  const moved = await boxOf(page.locator(`svg.map .piece[data-unit="${name}"]`).first());
  assert.ok(Math.hypot(moved.x - at.x - 90, moved.y - at.y + 60) < 20, `drawn where he was dropped: ${JSON.stringify([at, moved])}`);
  // He rides once a turn: no more rides are offered.
  assert.equal(await page.locator(".choice", { hasText: / rides (over )?to / }).count(), 0);
  assert.deepEqual(errors, []);
});

test("a unit shaken, wavering or withdrawing is marked on the map by an amber triangle, said in the legend", async () => {
  const page = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const id = await computerBattle("the-village");
  await page.goto(`${base}#/replay/${id}`);
  await page.waitForSelector("svg.map");
  // Step through the battle until some unit is shaken; then each shaken unit, and only those,
  // has its triangle.
  let seen = 0;
  for (let turn = 1; turn <= 12 && !seen; turn++) {
    await page.fill('input[aria-label="jump to turn"]', String(turn));
    await page.click("form.jump button");
    await page.waitForTimeout(150);
    const { shaken, marked } = await page.evaluate(() => ({
      shaken: [...new Set([...document.querySelectorAll("svg.map .piece[data-unit]")].filter((p) => /\((shaken)\)/.test(p.querySelector("title")?.textContent || "")).map((p) => p.dataset.unit))].sort(),
      marked: [...document.querySelectorAll("svg.map .statemark")].map((m) => m.dataset.unitState).sort(),
    }));
    assert.deepEqual(marked, shaken, `turn ${turn}`);
    seen = shaken.length;
  }
  assert.ok(seen > 0, "some unit is shaken in the first twelve turns");
  await page.click("details.legend summary");
  assert.match(await page.locator("details.legend").innerText(), /▲\s*shaken/);
  assert.deepEqual(errors, []);
});

test("no two units' names are shortened alike: IR 1 Winterfeldt and IR 1 Kaiser, IR 12 Botta and IR 12 Erbprinz, are told apart", async () => {
  const page = await (await openContext()).newPage();
  await page.goto(base);
  const ridge = ["IR 1 Winterfeldt", "IR 1 Kaiser", "IR 12 Botta", "IR 12 Erbprinz von Hessen", "IR 13 Itzenplitz", "Grenadier battalion Wedel"];
  const forms = await page.evaluate(async (names) => {
    const { labelVariants } = await import("/js/map.js");
    return Object.fromEntries(names.map((n) => [n, labelVariants(n, names)]));
  }, ridge);
  // Every form a name may take on the map names that unit only.
  for (const [name, fs] of Object.entries(forms)) {
    for (const f of fs) {
      const also = Object.entries(forms).filter(([other, gs]) => other !== name && gs.includes(f)).map(([o]) => o);
      assert.deepEqual(also, [], `${name} shortened to "${f}", as ${also.join(", ")} is`);
      if (f !== name) assert.ok(!ridge.includes(f), `${name} shortened to another's whole name "${f}"`);
    }
  }
  assert.ok(forms["IR 12 Botta"].includes("IR 12 Bot."), JSON.stringify(forms));
  assert.ok(forms["IR 13 Itzenplitz"].includes("IR 13"), "a short form nobody shares is kept");
  assert.ok(!forms["IR 1 Winterfeldt"].includes("IR 1"), JSON.stringify(forms));
  // A name ending in brackets keeps the word before them: "battery (centre)", never "(centre)".
  const battery = await page.evaluate(async () => (await import("/js/map.js")).labelVariants("Austrian battery (centre)", ["Austrian battery (centre)", "Austrian battery (left)"]));
  assert.ok(battery.every((f) => !f.startsWith("(")), JSON.stringify(battery));
});

test("Old Fritz: the wings are outlined on the map at a click (each side's, in its colour, named), and hidden again", async () => {
  const page = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.click('button[data-scenario="attack-on-the-ridge"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  await page.waitForSelector("svg.map .piece[data-unit]");
  assert.equal(await page.locator("svg.map polygon.wing").count(), 0, "not until asked for");
  await page.click('button[data-zoom="wings"]');
  await page.waitForSelector("svg.map polygon.wing");
  // Each wing's outline holds every one of its units, and no unit of the other side's wing of the same name.
  const check = await page.evaluate(async () => {
    const id = location.hash.split("/")[2];
    const g = await (await fetch(`/api/games/${id}`, { headers: { authorization: `Bearer ${JSON.parse(localStorage.getItem(Object.keys(localStorage).find((k) => k.startsWith("volley:seat:")) || "null") || "null")?.token || ""}` } })).json();
    const wings = [...new Set(g.view.pieces.filter((p) => p.group).map((p) => `${p.side}|${p.group}`))];
    const polys = [...document.querySelectorAll("svg.map polygon.wing")].map((p) => ({ key: `${p.dataset.side}|${p.dataset.wing}`, box: p.getBoundingClientRect() }));
    const inside = (r, b) => r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
    const outside = [];
    for (const p of polys) {
      const [side, wing] = [Number(p.key.split("|")[0]), p.key.slice(p.key.indexOf("|") + 1)];
      const units = new Set(g.view.pieces.filter((q) => q.group === wing && q.side === side).map((q) => q.unit));
      for (const u of units) {
        for (const piece of document.querySelectorAll(`svg.map .piece[data-unit="${CSS.escape(u)}"]`)) if (!inside(piece.getBoundingClientRect(), p.box)) outside.push(`${u} outside ${p.key}`);
      }
    }
    return { wings: wings.sort(), drawn: polys.map((p) => p.key).sort(), outside };
  });
  assert.deepEqual(check.drawn, check.wings);
  assert.deepEqual(check.outside, []);
  assert.ok(await page.locator("svg.map text.wlabel").count() > 0, "wings named");
  await page.click("details.legend summary");
  assert.match(await page.locator("details.legend").innerText(), /its wings/);
  await page.click('button[data-zoom="wings"]');
  await page.waitForFunction(() => document.querySelectorAll("svg.map polygon.wing").length === 0);
  assert.deepEqual(errors, []);
});

test("the map's buttons stand beside the map, never over a unit, on a wide screen and on a phone", async () => {
  for (const viewport of [{ width: 1400, height: 900 }, { width: 390, height: 844 }]) {
    const page = await (await openContext({ viewport, hasTouch: viewport.width < 500, isMobile: viewport.width < 500 })).newPage();
    await page.goto(base);
    await page.click('button[data-scenario="the-heath"]');
    await page.waitForURL(/#\/game\/[0-9a-f]+$/);
    await page.waitForSelector("svg.map .piece[data-unit]");
    const over = await page.evaluate(() => {
      const m = document.querySelector("svg.map").getBoundingClientRect();
      return [...document.querySelectorAll(".mapcontrols button")].map((b) => b.getBoundingClientRect())
        .filter((b) => Math.min(b.right, m.right) - Math.max(b.left, m.left) > 0 && Math.min(b.bottom, m.bottom) - Math.max(b.top, m.top) > 0).length;
    });
    assert.equal(over, 0, `${viewport.width} px: ${over} buttons over the map`);
    assert.ok(await page.locator(".mapcontrols button").count() >= 4);
  }
});

test("Old Fritz's orders are grouped by the wing they go to, each group saying what it may be ordered to do", async () => {
  const page = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto(base);
  await page.click('button[data-scenario="attack-on-the-ridge"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  await page.waitForSelector("details.choicegroup");
  const groups = await page.locator("details.choicegroup summary").allInnerTexts();
  assert.ok(groups.some((t) => /^the [a-z ]+ — \d+ choices?: /.test(t)), groups.join(" | "));
  assert.ok(!groups.some((t) => /^others?\b|: order\b/.test(t)), groups.join(" | "));
  assert.ok(groups.some((t) => /\b(attack|hold|withdraw|stand)\b/.test(t)), groups.join(" | "));
});

test("the desk: every field's label whole, numbers in the odds in their order with the chance of at least each, and every outcome sorted by outcome at a choice", async () => {
  const page = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${base}#/desk/der-alte-fritz`);
  await page.waitForSelector("fieldset");
  const labels = await page.locator(".field .fname").allInnerTexts();
  assert.ok(labels.length > 5 && labels.every((t) => !t.endsWith("…")), labels.filter((t) => t.endsWith("…")).join(" | "));
  // Whole and on screen: none runs past its box.
  const cut = await page.evaluate(() => [...document.querySelectorAll(".field .fname")].filter((s) => s.scrollWidth > s.clientWidth + 1).map((s) => s.textContent));
  assert.deepEqual(cut, []);
  await page.getByRole("button", { name: "Exact odds" }).click();
  await page.waitForSelector(".oddsummary .oddline");
  // A part whose values are numbers lists them in order, with the chance of at least each.
  const numeric = await page.evaluate(() => [...document.querySelectorAll(".oddsummary .oddline")].map((l) => l.innerText.split("\n")[0])
    .map((t) => t.slice(t.indexOf(": ") + 2).split(", ").map((x) => x.split(" ")[0])).filter((vs) => vs.length > 2 && vs.every((v) => /^-?\d+$/.test(v))));
  assert.ok(numeric.length > 0, "some part is a number");
  for (const vs of numeric) assert.deepEqual(vs.map(Number), [...vs.map(Number)].sort((a, b) => a - b));
  assert.ok(await page.locator(".oddsummary .atleast").count() > 0);
  // By outcome: every outcome listed, none left out.
  const total = Number(/\((\d+)\)/.exec(await page.locator("h4", { hasText: /^Every outcome/ }).innerText())[1]);
  await page.selectOption('select[data-sort="1"]', "outcome");
  assert.equal(await page.locator(".outcomes .bar").count(), total);
  assert.deepEqual(errors, []);
});

test("remote play: asked to, the page tells a player whose page is hidden that it is his move, by a sound and a notification", async () => {
  const a = await (await openContext()).newPage();
  await newRidge(a);
  await a.waitForSelector('.link[data-invite="1"]');
  const invite = await a.locator('.link[data-invite="1"]').innerText();
  const bContext = await openContext();
  // The Austrians' browser: its page hidden (another tab in front), notifications allowed; the
  // sounds and notifications it makes are counted.
  await bContext.addInitScript(() => {
    window.__told = [];
    Object.defineProperty(document, "hidden", { get: () => true, configurable: true });
    class N { constructor(title, o) { window.__told.push(`notification: ${title}: ${o && o.body}`); } }
    N.permission = "granted";
    N.requestPermission = async () => "granted";
    window.Notification = N;
    const Real = window.AudioContext;
    window.AudioContext = class extends Real { createOscillator() { window.__told.push("sound"); return super.createOscillator(); } };
  });
  const b = await bContext.newPage();
  await b.goto(invite);
  await b.waitForFunction(() => document.body.innerText.includes("You play the Austrians"));
  await b.locator("input[data-tell]").check();
  assert.deepEqual(await b.evaluate(() => window.__told), [], "nothing told before it is his move");
  await ordersOf(a).first().click();
  await a.getByRole("button", { name: "end this side's orders for the bound" }).click();
  await b.waitForFunction(() => window.__told.length >= 2, null, { timeout: 10000 });
  const told = await b.evaluate(() => window.__told);
  assert.ok(told.includes("sound"), told.join("; "));
  assert.ok(told.some((t) => /^notification: Your move: .*attack on the ridge/i.test(t)), told.join("; "));
  assert.match(await b.title(), /your move/i);
});

test("the first page lists the newest fifty games, and older ones a page at a time", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  // Enough games for two pages.
  await page.evaluate(async () => {
    const total = async () => Number((await fetch("/api/games?per_page=1")).headers.get("x-total-count"));
    while (await total() < 55) {
      await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "hochdorf-mill", players: ["human", "heuristic"] }) });
    }
  });
  await page.reload();
  await page.waitForSelector("table.games");
  const rows = () => page.locator("table.games tr").count();
  assert.equal(await rows(), 51, "a heading and fifty games");
  await page.click('button[data-older="1"]');
  await page.waitForFunction(() => document.querySelectorAll("table.games tr").length > 51);
  const total = await page.evaluate(async () => Number((await fetch("/api/games?per_page=1")).headers.get("x-total-count")));
  assert.equal(await rows(), 1 + Math.min(total, 100));
  assert.deepEqual(errors, []);
});

test("an umpire asked for makes its maker the umpire, and a side's player who keeps the umpire's invitation is named to every player", async () => {
  const a = await (await openContext()).newPage();
  await a.goto(base);
  const card = a.locator(".card", { has: a.locator('button[data-scenario="attack-on-the-ridge"]') });
  await card.locator('select[data-side="1"]').selectOption("human");
  await card.locator("details.options summary").click();
  await card.locator('input[data-umpire="attack-on-the-ridge"]').check();
  await card.locator('button[data-scenario="attack-on-the-ridge"]').click();
  await a.waitForURL(/#\/game\/[0-9a-f]+$/);
  await a.waitForFunction(() => document.body.innerText.includes("You are the umpire"));
  // Made as the Prussians' player, with an umpire: both players read who holds his invitation.
  const g = await a.evaluate(async () => (await (await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "attack-on-the-ridge", players: ["human", "human"], umpire: true, creator: { side: 0 } }) })).json()));
  const invite = g.invitations.find((i) => i.role && i.role.side === 1).code;
  const b = await (await openContext()).newPage();
  await b.goto(`${base}#/join/${g.id}/${invite}`);
  await b.waitForFunction(() => document.body.innerText.includes("You play the Austrians"));
  assert.match(await b.locator(".umpire-seat").innerText(), /The umpire's invitation was handed to the Prussians' player, who made the game: if you do not know who claimed it, ask/);
});

test("a hot-seat game of rules that hide nothing (Itchy and Scratchy) never asks to hand the screen over", async () => {
  const a = await (await openContext()).newPage();
  await a.goto(base);
  const card = a.locator(".card", { has: a.locator('button[data-scenario="hochdorf-mill"]') });
  // Choosing the hot seat makes both sides people at once (no "needs a person on each side").
  await card.locator('select[data-me="hochdorf-mill"]').selectOption("hot_seat");
  assert.equal(await card.locator('select[data-side="1"]').inputValue(), "human");
  assert.equal(await card.locator('select[data-side="0"]').inputValue(), "human");
  await card.locator('button[data-scenario="hochdorf-mill"]').click();
  await a.waitForURL(/#\/game\/[0-9a-f]+$/);
  const sides = new Set();
  for (let i = 0; i < 8; i++) {
    await a.waitForSelector(".choice");
    assert.equal(await a.locator(".handover").count(), 0, `no hand-over (step ${i})`);
    sides.add(await a.evaluate(async () => (await (await fetch(`/api/games/${location.hash.split("/")[2]}`)).json()).actor?.side));
    const before = await a.evaluate(() => document.querySelector(".log")?.innerText ?? "");
    // (Ending a part of the turn with attacks not made asks first: yes. A click on a button the
    // page was drawing again is made again.)
    const changed = () => a.waitForFunction((prev) => (document.querySelector(".log")?.innerText ?? "") !== prev || document.querySelector(".handover") || document.querySelector('button[data-confirm="yes"]'), before, { timeout: 3000 }).then(() => true, () => false);
    let done = false;
    for (let k = 0; k < 3 && !done; k++) {
      await a.locator(".choice").last().click();
      done = await changed();
    }
    assert.ok(done, `step ${i}: nothing happened`);
    if (await a.locator('button[data-confirm="yes"]').count()) {
      await a.click('button[data-confirm="yes"]');
      await a.waitForFunction((prev) => (document.querySelector(".log")?.innerText ?? "") !== prev || document.querySelector(".handover"), before);
    }
  }
  assert.equal(await a.locator(".handover").count(), 0);
  assert.ok(sides.has(0) && sides.has(1), "both sides played at the screen");
});

test("the players are named in words: the searching computer, never its program name", async () => {
  const page = await (await openContext()).newPage();
  await page.goto(base);
  const g = await page.evaluate(async () => (await (await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "hochdorf-mill", players: ["human", "mcts"] }) })).json()));
  await page.goto(`${base}#/game/${g.id}`);
  // (Not the 'what changed' line: it takes no room, and is hidden, while it is empty.)
  await page.waitForFunction(() => /the computer \(searching\)/.test(document.querySelector("main")?.innerText ?? ""));
  const text = await page.locator("main").innerText();
  assert.doesNotMatch(text, /mcts/);
  await page.goto(base);
  await page.waitForSelector("table.games");
  assert.doesNotMatch(await page.locator("table.games").innerText(), /mcts/);
});

test("player round 4: the scale and legend lie under the map; ending the phase stays in view below a long list; a grid unit dropped where no choice goes is refused in words; your games waiting for your move come first, marked", async () => {
  const page = await (await openContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // The Village (Der Alte Fritz), the movement phase: a long list of choices, and the scale.
  await villageToMovement(page);
  const under = await page.evaluate(() => {
    const m = document.querySelector("svg.map").getBoundingClientRect();
    return [".scalebar", ".legend"].map((s) => document.querySelector(s).getBoundingClientRect().top >= m.bottom - 1);
  });
  assert.deepEqual(under, [true, true], "the scale and the legend lie under the map");
  const end = page.locator(".choices .wholeside button.choice", { hasText: /^end the movement phase/ });
  await end.waitFor();
  const seen = await page.evaluate(() => {
    const box = document.querySelector(".choices");
    const b = [...box.querySelectorAll(".wholeside button.choice")].find((x) => /^end the movement phase/.test(x.innerText)).getBoundingClientRect();
    const r = box.getBoundingClientRect();
    return { overflows: box.scrollHeight > box.clientHeight + 4, inside: b.top >= r.top - 1 && b.bottom <= r.bottom + 1 };
  });
  assert.ok(seen.overflows, "the list is longer than its box (else this proves nothing)");
  assert.ok(seen.inside, "ending the phase is in view without scrolling the list");
  // The first page: this game waits for our move, and is marked so, first of our games.
  await page.goto(base);
  await page.waitForSelector(".yourgames li");
  assert.match(await page.locator(".yourgames li").first().innerText(), /^● your move: The Village/);
  // Itchy and Scratchy: a unit dropped on an area none of its choices goes to is refused in words.
  await clickPlay(page, "hochdorf-mill");
  await page.locator(".choice", { hasText: /^throw for the initiative/ }).click();
  // (Our moves come once the initiative is settled: if we won it, we choose to go first.)
  const moves = () => page.waitForFunction(() => [...document.querySelectorAll("button.choice")].some((b) => /^move /.test(b.dataset.text || b.innerText)), null, { timeout: 15000 });
  for (let i = 0; i < 4; i++) {
    if (await moves().then(() => true, () => false)) break;
    const firstChoice = page.locator("button.choice", { hasText: /first/ });
    if (await firstChoice.count()) await firstChoice.first().click();
    else await page.reload();
  }
  const unit = await page.evaluate(() => {
    const names = [...new Set([...document.querySelectorAll("svg.map .piece[data-unit]")].map((p) => p.dataset.unit))];
    const t = [...document.querySelectorAll("button.choice")].map((b) => b.dataset.text || b.innerText).find((x) => /^move /.test(x));
    return names.filter((n) => t.startsWith(`move ${n} `)).sort((a, b) => b.length - a.length)[0];
  });
  // (A drag that lands while the map is redrawn for the computer's news is tried again.)
  let refusedShown = false;
  for (let i = 0; i < 4 && !refusedShown; i++) {
    const piece = page.locator(`svg.map .piece[data-unit="${unit}"]`).first();
    await piece.click({ force: true });
    await page.waitForFunction((u) => document.querySelector(".unitbox strong")?.textContent === u, unit);
    await page.waitForTimeout(300);
    const box = await boxOf(piece);
    const map = await page.locator("svg.map").boundingBox();
    // The far corner of the grid from the unit: no choice's dot there.
    const to = [box.x < map.x + map.width / 2 ? map.x + map.width - 8 : map.x + 8, box.y < map.y + map.height / 2 ? map.y + map.height - 8 : map.y + 8];
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(...to, { steps: 8 });
    await page.mouse.up();
    refusedShown = await page.waitForSelector(".proposal .refused", { timeout: 6000 }).then(() => true, () => false);
  }
  assert.ok(refusedShown, "a drop where no choice goes is refused in words");
  assert.match(await page.locator(".proposal .refused").innerText(), new RegExp(`^${unit} may not go there: none of its choices now ends in that area`));
  assert.deepEqual(errors, []);
});

test("on a phone, a move proposed by the knob is not hidden under the choices' sheet: its 'go there' is what a finger touches", async () => {
  const page = await (await openContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await villageToMovement(page);
  const turns = page.locator(".choice", { hasText: /: turns to face .* where it stands/ });
  const text = await turns.first().textContent();
  const unit = /^(.+?): turns to face/.exec(text)[1];
  const hit = page.locator(`svg.map circle.hit[data-unit="${unit}"]`);
  const box = await boxOf(hit);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction((u) => document.querySelector(".unitbox strong")?.textContent === u, unit);
  await page.waitForFunction(() => document.body.classList.contains("sheeted"));
  await page.locator("svg.map .turnknob").first().waitFor();
  await page.waitForTimeout(300);
  const knob = await boxOf(page.locator("svg.map .turnknob").first());
  await page.mouse.move(knob.x + knob.width / 2, knob.y + knob.height / 2);
  await page.mouse.down();
  await page.mouse.move(knob.x + knob.width / 2 + 20, knob.y + knob.height / 2 + 5, { steps: 6 });
  await page.mouse.up();
  await page.waitForSelector('.proposal button[data-proposal="go"], .proposal .refused');
  const go = page.locator('.proposal button[data-proposal="go"], .proposal button[data-proposal="cancel"]').first();
  await go.scrollIntoViewIfNeeded();
  const b = await boxOf(go);
  const top = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest("button")?.dataset.proposal ?? document.elementFromPoint(x, y)?.className, [b.x + b.width / 2, b.y + b.height / 2]);
  assert.ok(top === "go" || top === "cancel", `the proposal's button is under ${top}`);
  assert.ok(!(await page.evaluate(() => document.body.classList.contains("sheeted"))), "the sheet gave way");
  // Cancelled: the sheet comes back.
  await page.locator('.proposal button[data-proposal="cancel"]').click();
  await page.waitForFunction(() => document.body.classList.contains("sheeted"));
  assert.deepEqual(errors, []);
});

test("player round 5: units the scenario places beyond the deployment band are said to stay there; on a phone no empty line under the map, and the scale and legend share one line", async () => {
  const page = await (await openContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await clickPlay(page, "advance-guard");
  await page.waitForSelector(".deployhelp");
  // Advance Guard's gun and fusiliers stand north of the 7" band: the help says they may stay.
  assert.match(await page.locator(".deployhelp").innerText(), /The scenario places .*Prussian gun.* beyond the band: they stay there unless you place them within it/);
  assert.match(await page.locator(".deployhelp").innerText(), /Fusiliers/);
  const gaps = await page.evaluate(() => {
    const b = (s) => document.querySelector(s).getBoundingClientRect();
    return { scale: b(".scalebar").top, legend: b(".legend").top, under: b(".panel").top - Math.max(b(".scalebar").bottom, b(".legend").bottom) };
  });
  assert.ok(Math.abs(gaps.scale - gaps.legend) < 6, `the scale and the legend on one line: ${JSON.stringify(gaps)}`);
  assert.ok(gaps.under < 40, `no empty band under the map: ${JSON.stringify(gaps)}`);
  assert.deepEqual(errors, []);
});

test("a busy server: past its requests in hand it says 'busy, come back' (503, Retry-After), the page's own files still come, and the page asks again by itself", async () => {
  const { connect } = await import("node:net");
  const db = join(dir, "busy.db");
  const busy = spawn(BIN, ["serve", "--addr", "127.0.0.1:0", "--db", db, "--waiting", "1"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const at = await new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error("the server did not start")), 20000);
      busy.stdout.on("data", (d) => {
        const m = /serving on (http:\/\/[^\s]+\/)/.exec(String(d));
        if (m) { clearTimeout(timer); ok(m[1]); }
      });
    });
    const page = await (await openContext()).newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const refused = [];
    page.on("response", (r) => { if (r.status() === 503) refused.push(r.url()); });
    await page.goto(at);
    await page.waitForSelector('button[data-scenario="hochdorf-mill"]');
    // One API request held in hand: a new game whose body is slow to come.
    const { hostname, port } = new URL(at);
    const slow = connect(Number(port), hostname);
    await new Promise((ok) => slow.once("connect", ok));
    slow.write("POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{\"scen");
    let told;
    for (let i = 0; i < 50 && !told; i++) {
      const r = await fetch(new URL("/api/rulesets", at));
      if (r.status === 503) told = { retry: r.headers.get("retry-after"), body: await r.json() };
      else await new Promise((ok) => setTimeout(ok, 20));
    }
    assert.ok(told, "a second API request is refused while the first is in hand");
    assert.equal(told.retry, "1");
    assert.match(told.body.error, /the server is busy \(1 request in hand\): try again in a moment/);
    // The page's own files are not refused.
    assert.equal((await fetch(new URL("/js/util.js", at))).status, 200);
    // The page asks; the held request ends half a second later; the page's second try is served.
    const asked = page.evaluate(async () => {
      const { api } = await import("/js/util.js");
      const list = await api("/api/scenarios");
      return Array.isArray(list) ? list.length : -1;
    });
    await new Promise((ok) => setTimeout(ok, 500));
    slow.destroy();
    assert.ok((await asked) > 0, "the scenarios came on the page's second try");
    assert.ok(refused.some((u) => u.endsWith("/api/scenarios")), `the first try was refused: ${refused}`);
    assert.deepEqual(errors, []);
  } finally {
    busy.kill();
  }
});

test("En Avant by choice with its rules shown: the card offers it (and only En Avant's cards do); the players then read the reasons behind each result", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.waitForSelector('button[data-scenario="the-farm"]');
  assert.equal(await page.locator('input[data-rules-shown="hochdorf-mill"]').count(), 0, "Blown Away hides no rule");
  const box = page.locator('input[data-rules-shown="the-farm"]');
  const options = page.locator(".card", { has: page.locator('button[data-scenario="the-farm"]') }).locator("details.options summary");
  await options.scrollIntoViewIfNeeded();
  await options.click();
  await box.check();
  await clickPlay(page, "the-farm");
  // Against the computer: our battalion advances, and turns are played until a result with its
  // reasons comes (the guns open fire soon enough).
  const ready = (re) => page.waitForFunction((src) => [...document.querySelectorAll(".choice")].some((b) => new RegExp(src).test(b.innerText))
    && !document.body.innerText.includes("thinking"), re.source, { timeout: 15000 });
  await ready(/^1\/52nd: advance$/);
  assert.doesNotMatch(await page.locator("body").innerText(), /Game Control keeps the rules/);
  await page.locator(".choice", { hasText: /^1\/52nd: advance$/ }).click();
  for (let i = 0; i < 8 && !/\(rules\)/.test(await logText(page)); i++) {
    await ready(/^orders given/);
    await page.locator(".choice", { hasText: /^orders given/ }).click();
    await page.waitForTimeout(300);
  }
  await page.waitForFunction(() => /\(rules\) /.test(document.querySelector(".log")?.innerText ?? ""), null, { timeout: 15000 });
  assert.deepEqual(errors, []);
});

test("watching two computers: a battle of computers alone opens as a replay playing from its start, not at its end", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  const card = page.locator(".card", { has: page.locator('button[data-scenario="hochdorf-mill"]') });
  await card.locator('select[data-side="0"]').selectOption("heuristic");
  await card.locator('select[data-side="1"]').selectOption("heuristic");
  await card.locator('select[data-me="hochdorf-mill"]').selectOption("spectator");
  await card.locator('button[data-scenario="hochdorf-mill"]').click();
  await page.waitForURL(/#\/replay\/[0-9a-f]+\/play$/);
  await page.waitForSelector(".steplabel");
  assert.match(await page.locator('button[data-play="1"]').innerText(), /pause/, "it plays at once");
  const step = async () => Number(/action (\d+) of/.exec(await page.locator(".steplabel").innerText())?.[1] ?? -1);
  await page.waitForFunction(() => /action ([1-9]\d*) of/.test(document.querySelector(".steplabel")?.textContent || ""));
  const first = await step();
  assert.ok(first < 5, `from its start: action ${first}`);
  await page.waitForFunction((n) => Number(/action (\d+) of/.exec(document.querySelector(".steplabel")?.textContent || "")?.[1]) > n, first);
  assert.deepEqual(errors, []);
});

test("a unit with men running speaks by its men in ranks: its facing is theirs, not a runner's (player round 5, Blown Away)", async () => {
  const page = await (await openContext()).newPage();
  await page.goto(base);
  const facing = await page.evaluate(async () => {
    const { speaker } = await import("/js/game.js");
    const men = [{ status: "running", facing: 225 }, { status: "fallen", facing: 45 }, { status: "in ranks", facing: 45 }];
    return [speaker(men).facing, speaker([{ status: "running", facing: 225 }]).facing];
  });
  assert.deepEqual(facing, [45, 225]);
});

test("choices grouped by what they do say it: 'move', never 'other' for a choice that names its verb before the unit (Itchy and Scratchy)", async () => {
  const page = await (await openContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await clickPlay(page, "elands-ridge");
  // The initiative thrown (and, won, the first turn taken), the British choose their moves.
  const grouped = () => page.evaluate(() => [...document.querySelectorAll("details.choicegroup summary")].some((s) => / choices?: /.test(s.innerText)));
  for (let i = 0; i < 40 && !(await grouped()); i++) {
    const step = page.locator("button.choice", { hasText: /^(throw for the initiative|go first)$/ });
    if (await step.count()) await step.first().click().catch(() => {});
    await page.waitForTimeout(500);
  }
  const summaries = await page.locator("details.choicegroup summary").allInnerTexts();
  assert.ok(summaries.some((t) => /: .*\bmove\b/.test(t)), summaries.join("\n"));
  assert.ok(summaries.every((t) => !/: (.*, )?other\b/.test(t)), summaries.join("\n"));
  assert.deepEqual(errors, []);
});

// End-to-end tests of the page in a real browser: Debian's Chromium driven by playwright-core,
// against `volley serve` on loopback with a fresh database.
//
//   VOLLEY_BIN=target/debug/volley node --test web/e2e/e2e.test.mjs

import { test, before, after } from "node:test";
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
  server = spawn(BIN, ["serve", "--addr", "127.0.0.1:0", "--db", join(dir, "games.db")], { stdio: ["ignore", "pipe", "inherit"] });
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

test("play against the computer: select a unit, see its reach, drag it to a place; the computer answers; reload; replay", async () => {
  const context = await browser.newContext();
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
  const unit = /^move (.+) to \[/.exec(moveText)[1];
  await page.locator(`svg.map .piece[data-unit="${unit}"]`).first().click();
  await page.waitForSelector("svg.map circle.target");
  assert.ok(await page.locator("svg.map polygon.range").count() > 0, "its weapon's reach is drawn");
  assert.ok((await page.locator(".choice").allInnerTexts()).every((t) => t.includes(unit)), "only its choices");
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
  if (hold) await card.locator('input[data-hold="attack-on-the-ridge"]').check();
  await card.locator('button[data-scenario="attack-on-the-ridge"]').click();
  await a.waitForURL(/#\/game\/[0-9a-f]+$/);
  return /#\/game\/([0-9a-f]+)$/.exec(a.url())[1];
}

const ordersOf = (page) => page.locator(".choice", { hasText: /^order the / });

test("two people in two browsers: the second takes his seat by a one-time invitation, and neither sees the other's orders", async () => {
  const a = await (await browser.newContext()).newPage();
  const errors = [];
  a.on("pageerror", (e) => errors.push(e.message));
  await newRidge(a);
  await a.waitForSelector('.link[data-invite="1"]');
  assert.equal(await a.locator('.link[data-invite="0"]').count(), 0, "the creator holds his own seat");
  const invite = await a.locator('.link[data-invite="1"]').innerText();
  assert.doesNotMatch(invite, /token/, invite);

  const b = await (await browser.newContext()).newPage();
  b.on("pageerror", (e) => errors.push(e.message));
  await b.goto(invite);
  await b.waitForFunction(() => document.body.innerText.includes("You play the Austrians"));
  assert.equal(await b.locator(".choice").count(), 0, "not the Austrians' turn yet");
  // The invitation is spent: a third browser is turned away.
  const c = await (await browser.newContext()).newPage();
  await c.goto(invite);
  await c.waitForFunction(() => document.body.innerText.includes("used already"));

  // The Prussians order a wing, in secret, and end their orders.
  const order = await ordersOf(a).first().innerText();
  const wing = /^order the (.+?): /.exec(order)[1];
  await ordersOf(a).first().click();
  await a.waitForFunction((w) => document.querySelector(".log")?.innerText.includes(w), wing);
  await a.getByRole("button", { name: "end this side's orders for the bound" }).click();
  // The Austrians' page shows their choices without a reload, and nothing of that order.
  await b.waitForFunction(() => document.querySelectorAll(".choice").length > 0, null, { timeout: 10000 });
  assert.match(await b.locator(".choices").innerText(), /order the ridge/);
  assert.ok(!(await b.locator(".log").innerText()).includes(wing), "the Prussians' order is theirs");
  assert.match(await a.locator(".role").innerText(), /You play the Prussians/, "the creator stays a Prussian");
  // And the Austrians' order is theirs: the Prussians' page never shows it.
  const theirs = await ordersOf(b).first().innerText();
  const theirWing = /^order the (.+?): /.exec(theirs)[1];
  await ordersOf(b).first().click();
  await b.waitForFunction((w) => document.querySelector(".log")?.innerText.includes(w), theirWing);
  await a.waitForTimeout(500);
  assert.ok(!(await a.locator(".log").innerText()).includes(theirWing), "the Austrians' order is theirs");
  assert.match(await a.locator(".role").innerText(), /You play the Prussians/);
  assert.deepEqual(errors, []);
});

test("a hot-seat game hands the screen over before the other side's secrets show", async () => {
  const a = await (await browser.newContext()).newPage();
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
  await a.click('button[data-handover="1"]');
  await a.waitForFunction(() => document.body.innerText.includes("Hot seat: the Austrians have the screen"));
  assert.match(await a.locator(".choices").innerText(), /order the ridge/);
  assert.ok(!(await a.locator(".log").innerText()).includes(wing), "the Prussians' order stays theirs");
  assert.deepEqual(errors, []);
});

test("the umpire of a live game sees everything, looks as either side, and adjusts a unit for every log to read", async () => {
  const u = await (await browser.newContext()).newPage();
  const errors = [];
  u.on("pageerror", (e) => errors.push(e.message));
  await newRidge(u, "umpire");
  await u.waitForFunction(() => document.body.innerText.includes("You are the umpire, seeing everything"));
  // Both seats go by invitation; the first player joins and sends a secret order.
  const invite = await u.locator('.link[data-invite="0"]').innerText();
  const p = await (await browser.newContext()).newPage();
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
  await u.selectOption('select[aria-label="umpire action"]', "adjust");
  await u.fill('input[aria-label="green counters"]', "2");
  await u.fill('input[aria-label="reason"]', "they marched all night");
  await u.click('button[data-umpire-act="1"]');
  await p.waitForFunction(() => document.querySelector(".log")?.innerText.includes("because they marched all night"), null, { timeout: 10000 });
  assert.match(await p.locator(".log").innerText(), /the umpire adjusts .*: \d+ figures, 2 greens, because they marched all night/);
  assert.equal(await p.locator('button[data-umpire-act="1"]').count(), 0, "a player has no umpire's desk");
  assert.deepEqual(errors, []);
});

test("with results held, the players wait for the umpire, who sees the bound first and releases it", async () => {
  const u = await (await browser.newContext()).newPage();
  const errors = [];
  u.on("pageerror", (e) => errors.push(e.message));
  await newRidge(u, "umpire", true);
  await u.waitForSelector('.link[data-invite="1"]');
  const players = [];
  for (const side of ["0", "1"]) {
    const p = await (await browser.newContext()).newPage();
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
    assert.match(await p.locator(".panel").innerText(), /Turn 1,/);
  }
  await u.waitForSelector('button[data-release="1"]', { timeout: 10000 });
  assert.match(await u.locator(".panel").innerText(), /Turn 2,/);
  await u.click('button[data-release="1"]');
  await prussians.waitForFunction(() => /Turn 2,/.test(document.body.innerText) && document.querySelectorAll(".choice").length > 0, null, { timeout: 10000 });
  await u.waitForSelector('button[data-release="1"]', { state: "detached", timeout: 10000 });
  assert.deepEqual(errors, []);
});

test("the umpire's desk: a form from the situation's schema, exact odds as bars, a resolution with table dice", async () => {
  const page = await (await browser.newContext()).newPage();
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
  // Equal battalions, the attacker rolls 7 and the defender 3: +4, the defender withdraws.
  await page.fill('input[aria-label="draws"]', "7 3 1 1 1 1");
  await page.getByRole("button", { name: "Resolve" }).click();
  await page.waitForSelector("pre.resolution");
  const text = await page.locator("pre.resolution").innerText();
  assert.match(text, /d10 7/);
  assert.match(text, /Withdraw/);
  assert.deepEqual(errors, []);
});

test("Der Alte Fritz's calculator at the umpire's desk: choose a volley, fill it in, get the exact odds", async () => {
  const page = await (await browser.newContext()).newPage();
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

test("Der Alte Fritz on the table: begin, choose, move a battalion, end the phase; the computer answers and every die is explained", async () => {
  const page = await (await browser.newContext()).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base);
  await page.click('button[data-scenario="the-village"]');
  await page.waitForURL(/#\/game\/[0-9a-f]+$/);
  await page.locator(".choice", { hasText: /^begin the battle/ }).click();
  await page.waitForFunction(() => /initiative: Prussians \d/.test(document.querySelector(".log")?.innerText ?? ""));
  await page.waitForFunction(() => document.querySelectorAll(".choice").length > 0 && !document.body.innerText.includes("thinking"));
  // If we won the initiative, fire first (the Austrians then move first).
  const fireFirst = page.locator(".choice", { hasText: /^fire first$/ });
  if (await fireFirst.count()) await fireFirst.click();
  await page.waitForFunction(() => [...document.querySelectorAll(".choice")].some((b) => /: moves /.test(b.innerText))
    && !document.body.innerText.includes("thinking"));
  const move = page.locator(".choice", { hasText: /: moves / }).first();
  const unit = /^(.+?): moves /.exec(await move.innerText())[1];
  const before = await logText(page);
  await move.click();
  await page.waitForFunction((prev) => document.querySelector(".log")?.innerText !== prev, before);
  assert.match(await logText(page), new RegExp(`${unit}: moves [0-9.]+" to \\[`));
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
  const page = await (await browser.newContext()).newPage();
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

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

test("a second player joins by the invite link and sees the first player's move at once", async () => {
  const a = await (await browser.newContext()).newPage();
  await a.goto(base);
  const card = a.locator(".card", { has: a.locator('button[data-scenario="attack-on-the-ridge"]') });
  await card.locator('select[data-side="1"]').selectOption("human");
  await card.locator('button[data-scenario="attack-on-the-ridge"]').click();
  await a.waitForURL(/#\/game\/[0-9a-f]+$/);
  await a.waitForSelector(".link");
  // This browser holds both seats (hot seat); the second seat's link goes to a friend.
  const links = await a.locator(".link").allInnerTexts();
  const invite = links.find((l) => l.includes("seat=1"));
  assert.ok(invite, links.join("\n"));

  const b = await (await browser.newContext()).newPage();
  await b.goto(invite);
  await b.waitForFunction(() => document.body.innerText.includes("You play the Austrians"));
  assert.equal(await b.locator(".choice").count(), 0, "not the Austrians' turn yet");

  // The Prussians end their orders; the Austrians' page shows their choices without a reload.
  await a.getByRole("button", { name: "end this side's orders for the bound" }).click();
  await b.waitForFunction(() => document.querySelectorAll(".choice").length > 0, null, { timeout: 10000 });
  assert.match(await b.locator(".choices").innerText(), /order the ridge/);
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

// How fast the page is for a person: from opening it to the list of battles, and from a click
// on a choice to the redrawn table (a hot-seat Old Fritz game, so no computer thinks). Figures
// for BENCHMARKS.md, not a test (timings on a shared machine wander).
//
//   VOLLEY_BIN=target/release/volley node web/e2e/speed.mjs

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const BIN = resolve(process.env.VOLLEY_BIN || new URL("../../target/release/volley", import.meta.url).pathname);
const dir = mkdtempSync(join(tmpdir(), "volley-speed-"));
const server = spawn(BIN, ["serve", "--addr", "127.0.0.1:0", "--db", join(dir, "games.db")], { stdio: ["ignore", "pipe", "inherit"] });
const base = await new Promise((ok) => server.stdout.on("data", (d) => {
  const m = /serving on (http:\/\/[^\s]+\/)/.exec(String(d));
  if (m) ok(m[1]);
}));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const loads = [];
for (let i = 0; i < 5; i++) {
  const page = await (await browser.newContext()).newPage();
  const t = Date.now();
  await page.goto(base);
  await page.waitForSelector('button[data-scenario="mittelhof"]');
  loads.push(Date.now() - t);
  await page.close();
}

const page = await (await browser.newContext()).newPage();
await page.goto(base);
const card = page.locator(".card", { has: page.locator('button[data-scenario="mittelhof"]') });
await card.locator('select[data-side="1"]').selectOption("human");
await card.locator('select[data-me="mittelhof"]').selectOption("hot_seat");
await card.locator('button[data-scenario="mittelhof"]').click();
await page.waitForSelector(".choice");
const clicks = [];
for (let i = 0; i < 20; i++) {
  // The hot seat's hand-over screen between the sides is passed first (not timed).
  const handover = page.locator("button[data-handover]");
  if (await handover.count()) {
    await handover.click();
    await page.waitForSelector(".choice");
  }
  // Timed inside the page: the click, and the first change of the status box after it.
  const ms = await page.evaluate(() => new Promise((done) => {
    const box = document.querySelector(".panel .box");
    const before = box.innerText;
    const t = performance.now();
    const check = () => {
      const now = document.querySelector(".panel .box");
      if (now && now.innerText !== before) done(performance.now() - t);
      else requestAnimationFrame(check);
    };
    const button = [...document.querySelectorAll(".choice")].find((b) => b.innerText.startsWith("end this side's orders"));
    button.click();
    requestAnimationFrame(check);
  }));
  clicks.push(Math.round(ms));
  await page.waitForTimeout(50);
}
console.log(`page open to the list of battles: median ${median(loads)} ms (${loads.join(", ")})`);
console.log(`click on a choice to the redrawn table (Mittelhof, 42 units; every second click fights a bound): median ${median(clicks)} ms, max ${Math.max(...clicks)} ms`);
await browser.close();
server.kill();
rmSync(dir, { recursive: true, force: true });

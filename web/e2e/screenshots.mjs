// Pictures of the page for the README and for seeing what changed: the first page, each rule
// set's first battle at its start, middle and end (two computer players fight it out; the
// pictures are of its replay), and the umpire's desk.
//
//   cargo build -p volley-cli && node web/e2e/screenshots.mjs [out-dir]
//
// Writes PNGs to docs/screenshots/ (or out-dir). Needs what the browser tests need (Chromium,
// web/e2e's node modules: scripts/test installs them).

import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const ROOT = new URL("../../", import.meta.url).pathname;
const BIN = resolve(process.env.VOLLEY_BIN || join(ROOT, "target/debug/volley"));
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const OUT = resolve(process.argv[2] || join(ROOT, "docs/screenshots"));
const BATTLES = [
  ["blown-away", "crossroads"], ["itchy-scratchy", "hochdorf-mill"], ["old-fritz", "mittelhof"],
  ["der-alte-fritz", "the-village"], ["en-avant", "the-farm"], ["lobositz", "lobositz"],
];

const dir = mkdtempSync(join(tmpdir(), "volley-shots-"));
const server = spawn(BIN, ["serve", "--addr", "127.0.0.1:0", "--db", join(dir, "games.db"), "--games-per-minute", "100"], { stdio: ["ignore", "pipe", "inherit"] });
let browser;
try {
  const base = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error("the server did not start")), 20000);
    server.stdout.on("data", (d) => {
      const m = /serving on (http:\/\/[^\s]+\/)/.exec(String(d));
      if (m) { clearTimeout(timer); ok(m[1]); }
    });
    server.on("exit", (code) => fail(new Error(`the server exited with ${code}`)));
  });
  mkdirSync(OUT, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
  const shot = async (name) => {
    await page.waitForTimeout(700); // the slides of moved units end
    await page.screenshot({ path: join(OUT, `${name}.png`) });
    console.log(`wrote ${join(OUT, `${name}.png`)}`);
  };
  await page.goto(base);
  await page.waitForSelector(".card svg.map");
  await shot("home");
  for (const [ruleset, scenario] of BATTLES) {
    const r = await fetch(`${base}api/games`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ scenario, players: ["heuristic", "heuristic"], creator: "spectator", seed: 7 }),
    });
    const g = await r.json();
    if (!r.ok) throw new Error(`${scenario}: ${g.error}`);
    // The computers play it out; wait for the end.
    for (let i = 0; i < 600; i++) {
      const v = await (await fetch(`${base}api/games/${g.id}`)).json();
      if (v.outcome) break;
      await new Promise((ok) => setTimeout(ok, 500));
    }
    const total = (await (await fetch(`${base}api/games/${g.id}/replay?step=0`)).json()).total;
    for (const [label, step] of [["start", 0], ["middle", Math.floor(total / 2)], ["end", total]]) {
      await page.goto("about:blank");
      await page.goto(`${base}#/replay/${g.id}`);
      await page.waitForFunction(() => document.querySelector(".steplabel")?.textContent.startsWith("action 0 "));
      if (step > 0) {
        // One step before, then a step on: the picture shows what that step moved.
        await page.evaluate(async (k) => {
          const s = document.querySelector('input[aria-label="step"]');
          s.value = String(k);
          s.dispatchEvent(new Event("change"));
        }, step - 1);
        await page.waitForFunction((k) => document.querySelector(".steplabel")?.textContent.startsWith(`action ${k} `), step - 1);
        await page.click('button[data-step="forward"]');
        await page.waitForFunction((k) => document.querySelector(".steplabel")?.textContent.startsWith(`action ${k} `), step);
      }
      await shot(`${ruleset}-${label}`);
    }
  }
  await page.goto(`${base}#/desk/old-fritz`);
  await page.waitForSelector("fieldset");
  await page.click("button[data-odds]");
  await page.waitForSelector(".oddsummary");
  await shot("desk-old-fritz");
  await page.goto(`${base}#/rules/old-fritz`);
  await page.waitForSelector("article.rules h2");
  await shot("rules-old-fritz");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(base);
  await page.waitForSelector(".card svg.map");
  await shot("phone-home");
  // A battle on a phone: a unit tapped, its choices in the sheet at the bottom, the map above.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const p = await phone.newPage();
  await p.goto(base);
  await p.click('button[data-scenario="hochdorf-mill"]');
  await p.waitForURL(/#\/game\/[0-9a-f]+$/);
  await p.getByRole("button", { name: "throw for the initiative" }).click();
  await p.waitForFunction(() => document.querySelectorAll(".choice").length > 0 && !document.body.innerText.includes("thinking"));
  const goFirst = p.getByRole("button", { name: "go first" });
  if (await goFirst.count()) await goFirst.click();
  await p.waitForFunction(() => [...document.querySelectorAll(".choice")].some((b) => b.textContent.startsWith("move ")));
  const unit = /^move (.+?) \d+ areas? /.exec(await p.locator(".choice", { hasText: /^move (?!General)/ }).first().textContent())[1];
  const hit = await p.locator(`svg.map circle.hit[data-unit="${unit}"]`).boundingBox();
  await p.touchscreen.tap(hit.x + hit.width / 2, hit.y + hit.height / 2);
  await p.waitForSelector(".choicesbox.sheet");
  await p.waitForTimeout(700);
  await p.screenshot({ path: join(OUT, "phone-game.png") });
  console.log(`wrote ${join(OUT, "phone-game.png")}`);
} finally {
  if (browser) await browser.close();
  server.kill();
  rmSync(dir, { recursive: true, force: true });
}

import { chromium } from "playwright-core";
const [,, url, out, w, h, full] = process.argv;
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const p = await b.newPage({ viewport: { width: Number(w), height: Number(h) }, isMobile: Number(w) < 500, hasTouch: Number(w) < 500 });
await p.goto(url);
await p.waitForTimeout(1500);
console.log(await p.evaluate(() => document.body.scrollHeight));
await p.screenshot({ path: out, fullPage: full === "full" });
await b.close();

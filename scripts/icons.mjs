// The app's icons (web/icons/*.png, committed), drawn from web/favicon.svg by
// Debian's Chromium: run `node scripts/icons.mjs` after changing the icon
// (needs the e2e packages: cd e2e && npm ci).
import { chromium } from "../e2e/node_modules/playwright-core/index.mjs";
import { readFileSync } from "node:fs";
const svg = readFileSync(new URL("../web/favicon.svg", import.meta.url), "utf8");
// The maskable icon: the felt to every edge, the card within the safe circle (80%).
const maskable = svg.replace('rx="6"', 'rx="0"').replace('viewBox="0 0 32 32"', 'viewBox="-5 -5 42 42"').replace('<rect width="32" height="32" rx="0"', '<rect x="-5" y="-5" width="42" height="42"');
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
for (const [name, size, body] of [["icon-180", 180, svg.replace('rx="6"', 'rx="0"')], ["icon-192", 192, svg], ["icon-512", 512, svg], ["maskable-512", 512, maskable]]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${body.replace("<svg ", `<svg width="${size}" height="${size}" `)}</body></html>`);
  await page.screenshot({ path: new URL(`../web/icons/${name}.png`, import.meta.url).pathname, omitBackground: true });
}
await browser.close();

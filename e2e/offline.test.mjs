// Tripoley with no server (issue 46): the app written by `tripoley site` to a
// folder, served by a plain static server (Python's), installed by the
// browser (its service worker), then played with the static server gone and
// the browser offline: a whole solo game with a hint and a reload in the
// middle of a deal, a pass-and-play game, the finished game replayed and
// analysed in the browser, and its record saved as a file that
// `tripoley analyse` reads. On a laptop and on a phone (touch).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DESKTOP, PHONE, Player, TRIPOLEY, axeScan, launch, over, playUntil, shot, staticServer, violations } from "./harness.mjs";

let browser;
let site;
let stat = null;
let base;

before(async () => {
  site = join(mkdtempSync(join(tmpdir(), "tripoley-site-")), "site");
  const wrote = spawnSync(TRIPOLEY, ["site", site], { encoding: "utf8" });
  assert.equal(wrote.status, 0, wrote.stderr);
  assert.match(wrote.stdout, /wrote \d+ files/);
  // A second run rewrites its own site; any other folder is refused.
  assert.equal(spawnSync(TRIPOLEY, ["site", site]).status, 0);
  const other = mkdtempSync(join(tmpdir(), "tripoley-other-"));
  writeFileSync(join(other, "notes.txt"), "mine");
  const refused = spawnSync(TRIPOLEY, ["site", other], { encoding: "utf8" });
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /not empty and holds no Tripoley site/);
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (stat) stat.child.kill();
});

/** A page of the installed app with no server at all: loaded once from the
 * static server (which installs the service worker and keeps every file),
 * then the static server stopped and the browser offline. */
async function installedOffline(size) {
  stat = await staticServer(site);
  base = stat.base;
  const ctx = await browser.newContext(size);
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base + "/");
  await page.locator('button[data-key="play-here"]').waitFor();
  // The service worker has kept the app once it controls the page.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
  stat.child.kill();
  stat = null;
  await ctx.setOffline(true);
  await page.reload();
  await page.locator('button[data-key="play-here"]').waitFor({ timeout: 10000 });
  // Bots move quickly in the tests (a person's table waits 700 ms).
  await page.evaluate(() => localStorage.setItem("tripoley:pause", "60"));
  return { ctx, page, errors };
}

/** Starts a game here from the home page's form. */
async function playHere(page, fields) {
  const form = page.locator("form:has(select[name=\"preset\"])");
  for (const [name, value] of Object.entries(fields)) {
    const select = form.locator(`select[name="${name}"]`);
    if (await select.count()) await select.selectOption(value);
    else await form.locator(`input[name="${name}"]`).fill(value);
  }
  await form.locator('button[data-key="play-here"]').click();
  // The table, or the cover when another person here decides first.
  await page.locator("section.hand.mine, section.pass-cover").first().waitFor({ timeout: 20000 });
}

for (const [tag, size] of [["desktop", DESKTOP], ["phone", PHONE]]) {
  test(`${tag}: installed, offline, no server: a whole solo game with a hint and a reload mid-deal, replayed, analysed and saved`, { timeout: 300000 }, async () => {
    const { ctx, page, errors } = await installedOffline(size);
    await shot(page, `offline-${tag}-home`);
    assert.match(await page.locator("main").innerText(), /No connection to a Tripoley server/);
    await axeScan(page, `offline ${tag} home`);
    await playHere(page, { name: "Ann", seats: "3", deals: "2", bot: "expert" });

    // A hint at the first decision of seat 0.
    const hand = page.locator("section.hand.mine[data-decision]:not([data-decision=''])");
    await hand.waitFor({ timeout: 30000 });
    const kind = await hand.getAttribute("data-decision");
    await page.locator('button[data-key="hint"]').click();
    await page.waitForFunction(() => document.querySelector(".hint-text") || document.querySelector("button.cardface.chosen"), null, { timeout: 10000 });
    await shot(page, `offline-${tag}-hint-${kind}`);

    // A few moves, then a reload in the middle of the deal: the same deal,
    // the same hand and the same event number come back.
    const me = new Player(page, `offline-${tag}`);
    await playUntil([me], async () => me.moves >= 3, 60000);
    await page.waitForFunction(() => document.querySelector("section.hand.mine")?.dataset.decision, null, { timeout: 30000 });
    const before = await page.evaluate(() => [document.querySelector("section.hand.mine").dataset.n, [...document.querySelectorAll("section.hand.mine .cardface")].map((c) => c.dataset.card).join()]);
    await page.reload();
    await page.locator("section.hand.mine[data-decision]:not([data-decision=''])").waitFor({ timeout: 30000 });
    const after = await page.evaluate(() => [document.querySelector("section.hand.mine").dataset.n, [...document.querySelectorAll("section.hand.mine .cardface")].map((c) => c.dataset.card).join()]);
    assert.deepEqual(after, before, "the reload resumed the game where it was");

    assert.ok(await playUntil([me], () => over(page), 240000), "the game ends");
    await shot(page, `offline-${tag}-game-over`);

    // The replay and the expert's analysis, made in this browser.
    await page.locator('button[data-key="replay"]').click();
    await page.locator("section.replay").waitFor();
    await page.locator('[data-key="replay-analyse"]').click();
    await page.locator(".replay-analysis h3").waitFor({ timeout: 120000 });
    await shot(page, `offline-${tag}-analysis`);
    await page.locator('[data-key="replay-close"]').click();

    // My games keeps it, with its record to save as a file.
    await page.goto(base + "/");
    await page.locator('[data-key="my-games"]').click();
    const line = page.locator("li[data-offline]").first();
    await line.waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), line.locator('[data-key="game-save"]').click()]);
    const file = join(mkdtempSync(join(tmpdir(), "tripoley-record-")), "game.json");
    await download.saveAs(file);
    const analysed = spawnSync(TRIPOLEY, ["analyse", file, "--seat", "0"], { encoding: "utf8" });
    assert.equal(analysed.status, 0, analysed.stderr);
    assert.match(analysed.stdout, /Ann/);
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}

test("pass-and-play offline: two people on one phone and a bot, behind the cover", { timeout: 300000 }, async () => {
  const { ctx, page, errors } = await installedOffline(PHONE);
  await playHere(page, { name: "Ann", others: "Bob", seats: "3", deals: "1" });
  const me = new Player(page, "offline-passplay");
  assert.ok(await playUntil([me], () => over(page), 240000), "the game ends");
  assert.ok(me.passedTo.includes("Bob") && me.passedTo.includes("Ann"), `the device went to both: ${me.passedTo}`);
  assert.ok(me.deciders.has("Ann") && me.deciders.has("Bob"), `both decided: ${[...me.deciders]}`);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("a saved game's file opened with no server replays, and goes on here (asking first when it replaces an unfinished game)", { timeout: 180000 }, async () => {
  const { ctx, page, errors } = await installedOffline(DESKTOP);
  await playHere(page, { name: "Ann", seats: "3", deals: "1" });
  const me = new Player(page, "offline-resume");
  await playUntil([me], async () => me.moves >= 2, 60000);
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem("tripoley:offline")).saved);
  const steps = JSON.parse(saved).steps.length;
  await page.goto(base + "/");
  await page.locator('[data-key="my-games"]').click();
  await page.locator('[data-key="record-file"]').setInputFiles({ name: "game.json", mimeType: "application/json", buffer: Buffer.from(saved) });
  await page.locator('[data-key="replay-resume"]').click();
  // The game kept here is not finished: a word first.
  await page.locator('[data-key="replay-resume-confirm"]').click();
  await page.locator("section.hand.mine, section.pass-cover").first().waitFor({ timeout: 30000 });
  const now = await page.evaluate(() => JSON.parse(JSON.parse(localStorage.getItem("tripoley:offline")).saved).steps.length);
  assert.ok(now >= steps, `the file's game goes on (${steps} steps, now ${now})`);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("Napalm offline, in Spanish: a whole game against bots on a phone, the page in the player's language", { timeout: 240000 }, async () => {
  const { ctx, page, errors } = await installedOffline(PHONE);
  // The language switch works offline: the catalogue was kept too.
  await page.locator('button[data-key="lang-es"]').click();
  await page.locator('button[data-key="play-here"]', { hasText: "Jugar aquí con bots" }).waitFor({ timeout: 10000 });
  await playHere(page, { name: "Ana", game: "napalm", seats: "3", tokens: "1", chips: "20" });
  await shot(page, "offline-napalm-es");
  // Yes to every question, so tokens come quickly.
  const result = () => page.locator("section[aria-label='Resultado final'], section[aria-label='Final result']").count();
  const until = Date.now() + 200000;
  while (Date.now() < until && !(await result())) {
    const mine = page.locator("section.hand.mine");
    let moved = false;
    for (const key of ["yes", "challenge"]) {
      const b = mine.locator(`.controls button[data-key="${key}"]`);
      if (await b.count()) {
        moved = await b.first().click({ timeout: 2000 }).then(() => true, () => false);
        break;
      }
    }
    await page.waitForTimeout(moved ? 30 : 120);
  }
  assert.ok(await result(), "the Napalm game reached its result");
  await shot(page, "offline-napalm-es-result");
  assert.match(await page.locator("main").innerText(), /Ana/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("a new version waits for the player: the game in progress goes on, and Reload takes the new one", { timeout: 180000 }, async () => {
  stat = await staticServer(site);
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(stat.base + "/");
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
  await page.evaluate(() => localStorage.setItem("tripoley:pause", "60"));
  await playHere(page, { name: "Ann", seats: "3", deals: "1" });
  const me = new Player(page, "offline-update");
  await playUntil([me], async () => me.moves >= 2, 60000);
  // A new build on the host: another style sheet, so another worker.
  const sw = join(site, "sw.js");
  const old = readFileSync(sw, "utf8");
  const style = readdirSync(site).find((f) => /^style\.[0-9a-f]{12}\.css$/.test(f));
  appendFileSync(join(site, style), "\n/* a new version */\n");
  writeFileSync(sw, old.replace(/const VERSION = "([0-9a-f]+)";/, 'const VERSION = "$1-next";'));
  try {
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
    const offer = page.locator('[data-key="update"]');
    await offer.waitFor({ timeout: 30000 });
    await shot(page, "offline-update-offered", false);
    // Nothing was reloaded under the player: the game goes on.
    const moves = me.moves;
    await playUntil([me], async () => me.moves > moves, 60000);
    // The steps of the game kept in the browser.
    const steps = () => page.evaluate(() => JSON.parse(JSON.parse(localStorage.getItem("tripoley:offline")).saved).steps.length);
    const before = await steps();
    await offer.click();
    await page.waitForFunction(() => caches.keys().then((k) => k.some((n) => n.endsWith("-next"))), null, { timeout: 30000 });
    await page.locator("section.hand.mine, section.pass-cover").first().waitFor({ timeout: 30000 });
    const after = await steps();
    assert.ok(before > 0 && after >= before, `the game resumed after the update (${before} steps, then ${after})`);
    assert.deepEqual(errors, []);
  } finally {
    writeFileSync(sw, old);
    stat.child.kill();
    stat = null;
    await ctx.close();
  }
});

test("budgets: a Strong bot's move and a hint in the browser's worker, and the page responsive while the expert searches", { timeout: 300000 }, async () => {
  stat = await staticServer(site);
  const ctx = await browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  // Every task of the page's main thread over 50 ms, from the first one.
  await page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push(e.duration); }).observe({ type: "longtask", buffered: true });
  });
  await page.goto(stat.base + "/");
  await page.locator('button[data-key="play-here"]').waitFor();
  // The app's own worker, driven as the table drives it: four seats, three
  // Strong bots with no pause, the person moving by the expert's hint.
  const timings = await page.evaluate(() => new Promise((resolve) => {
    const w = new Worker("worker.js", { type: "module" });
    const bots = [];
    const hints = [];
    let last = 0;
    let asked = 0;
    let moves = 0;
    const before = window.longTasks.length;
    w.onmessage = (e) => {
      const d = e.data;
      const now = performance.now();
      // The bots' tables are built first, as the page does while the
      // player fills in the form (`warm`): otherwise the first Strong move
      // pays for them (about 0.5 s) and the figures measure the tables.
      if (d.open) {
        w.postMessage({ warm: true });
        return;
      }
      if (d.warmed) {
        w.postMessage({ msg: { type: "hello" } });
        return;
      }
      if (d.frame) {
        const m = JSON.parse(d.frame);
        if (m.type === "update" && last && m.turn !== undefined && !m.events.some((x) => x.event === "dealt")) bots.push(now - last);
        if (m.type === "hint") {
          hints.push(now - asked);
          w.postMessage({ msg: { type: "act", action: m.action, n: m.n } });
        }
        last = now;
      }
      if (d.due) {
        if (d.due.due === "person" && moves++ < 40) {
          asked = performance.now();
          w.postMessage({ msg: { type: "hint" } });
        } else if (d.due.due !== "bot") {
          resolve({ bots, hints, long: window.longTasks.slice(before) });
        }
      }
    };
    w.postMessage({ start: { create: { preset: "pagat", seats: 4, deals: 2 }, names: ["A", "B", "C", "D"], bots: [null, "expert", "expert", "expert"], seed: "7", pause: 0 } });
  }));
  const q = (a, p) => a.slice().sort((x, y) => x - y)[Math.floor(p * (a.length - 1))];
  const say = (a) => `median ${q(a, 0.5).toFixed(0)} ms, p95 ${q(a, 0.95).toFixed(0)} ms, max ${Math.max(...a).toFixed(0)} ms over ${a.length}`;
  console.log(`in Chromium's worker: a Strong bot's move (step to step) ${say(timings.bots)}; a hint ${say(timings.hints)}; main-thread tasks over 50 ms meanwhile: ${timings.long.length}`);
  assert.ok(timings.hints.length >= 10 && timings.bots.length >= 30, "enough moves measured");
  assert.ok(q(timings.hints, 0.95) < 300, "a hint under 300 ms");
  assert.ok(q(timings.bots, 0.95) < 300, "a Strong bot's move under 300 ms");
  assert.deepEqual(timings.long, [], "the page never blocked while the expert searched");
  stat.child.kill();
  stat = null;
  await ctx.close();
});

test("accessibility of the offline screens: axe-core finds no serious or critical violation", () => {
  assert.ok(violations.length === 0, violations.join("\n"));
});

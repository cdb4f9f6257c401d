// Tripoley with no server (issue 46): the app written by `tripoley site` to a
// folder, served by a plain static server (Python's), installed by the
// browser (its service worker), then played with the static server gone and
// the browser offline: a whole solo game with a hint and a reload in the
// middle of a deal, a pass-and-play game, the finished game replayed and
// analysed in the browser, and its record saved as a file that
// `tripoley analyse` reads. On a laptop and on a phone (touch).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DESKTOP, PHONE, Player, TRIPOLEY, axeScan, launch, over, playUntil, shot, violations } from "./harness.mjs";

let browser;
let site;
let stat = null;
let base;

/** Serves `dir` with Python's static server on a free port; resolves with
 * its address once it answers. */
function staticServer(dir) {
  const child = spawn("python3", ["-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", dir], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/port (\d+)/);
      if (m) resolve({ child, base: "http://127.0.0.1:" + m[1] });
    });
    child.on("exit", (code) => reject(new Error("the static server ended: " + code)));
    setTimeout(() => reject(new Error("the static server did not start")), 10000);
  });
}

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

test("accessibility of the offline screens: axe-core finds no serious or critical violation", () => {
  assert.ok(violations.length === 0, violations.join("\n"));
});

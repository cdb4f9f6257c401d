// The table's sounds: off at first; a switch in the table's bar turns them
// on, and the browser keeps the choice across a reload; then dealing, your
// turn, the clock running low, a card played and chips each make their
// sound (made by Web Audio: sources really start).

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, openTable, playUntil, Player, axeScan, violations, shot, DESKTOP, browser } from "./harness.mjs";

serverAndBrowser();

/** Before the page's own scripts: what the table played, and how many
 * audio sources really started. */
function listen() {
  window.played = [];
  window.started = 0;
  document.addEventListener("tripoley:sound", (e) => window.played.push(e.detail));
  const start = AudioScheduledSourceNode.prototype.start;
  AudioScheduledSourceNode.prototype.start = function (...args) {
    window.started++;
    return start.apply(this, args);
  };
}

/** The sound switch shows an SVG icon, hidden from screen readers, and
 * says "Sounds" in words (pressed or not). */
async function assertDrawnIcon(toggle) {
  assert.equal(await toggle.locator('svg[aria-hidden="true"]').count(), 1, "an SVG icon");
  assert.equal((await toggle.innerText()).trim(), "Sounds", "nothing but words beside it");
  assert.equal(await toggle.page().getByRole("button", { name: "Sounds", exact: true }).count(), 1, "its name in words");
}

test("sounds: a remembered switch; dealing, your turn, low time, a card played and chips each sound", { timeout: 150000 }, async () => {
  const ctx = await browser.newContext(DESKTOP);
  await ctx.addInitScript(listen);
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await openTable(page, [], { preset: "pagat", seats: "2", deals: "1", turn: "12" });
  const toggle = page.locator('button[data-key="pref-sound"]');
  assert.equal(await toggle.getAttribute("aria-pressed"), "false", "off at first");
  // Its icon is drawn by the page (an emoji showed as an empty box where no
  // emoji font is installed), and its name is words. Nothing in the bar
  // hangs on such a font.
  await assertDrawnIcon(toggle);
  assert.doesNotMatch(await page.locator(".bar").innerText(), /\p{Extended_Pictographic}/u, "no emoji in the table's bar");
  await toggle.click();
  assert.equal(await toggle.getAttribute("aria-pressed"), "true");
  await assertDrawnIcon(toggle);
  await shot(page, "desktop-sound-on", false);
  await page.reload();
  assert.equal(await page.locator('button[data-key="pref-sound"]').getAttribute("aria-pressed"), "true", "the browser kept the choice");
  await axeScan(page, "lobby with the sound switch");
  // The reload was no click: the page may only sound after one.
  await page.locator('button[data-key="start"]').click();
  const hand = page.locator("section.hand.mine:not([data-decision=''])[data-decision]");
  await hand.waitFor({ timeout: 30000 });
  await page.locator(".clock.low").waitFor({ timeout: 6000 });
  const me = new Player(page, "desktop-sound");
  const heard = async () => new Set(await page.evaluate(() => window.played));
  const all = ["deal", "turn", "low", "card", "chips"];
  const done = async () => {
    const h = await heard();
    return all.every((s) => h.has(s));
  };
  assert.ok(await playUntil([me], done, 90000), `every kind of sound was played (heard: ${[...(await heard())]})`);
  assert.ok(await page.evaluate(() => window.started) >= 5, "audio sources started");
  assert.deepEqual(errors, []);
  assert.deepEqual(violations, []);
  await ctx.close();
});

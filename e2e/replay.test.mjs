// The replay of a finished game (issue 27): opened from the game-over
// screen, every step's board shows what the live table showed at that
// step, the keys move through it, and the expert's analysis lists the
// mistakes (each a click to its step) with a chart of the chips.
//
// Needs the tripoley binary (TRIPOLEY_BIN, default ../target/ci/tripoley)
// and Debian's Chromium (CHROMIUM, default /usr/bin/chromium).

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, shot, Player, playUntil, soloTable, over, PHONE } from "./harness.mjs";

serverAndBrowser();

/** The numbers a board shows: each seat's chips and each space's. */
function numbers(root) {
  return root.evaluate((r) => ({
    stacks: [...r.querySelectorAll('[data-account^="stack:"]')].map((s) => [s.dataset.account, s.querySelector(".stack").textContent.trim()]).sort(),
    spaces: [...r.querySelectorAll('[data-account^="space:"]')].map((s) => [s.dataset.account, s.querySelector(".space-count").textContent.trim()]).sort(),
  }));
}

/** The same numbers from a frame's view. */
const fromView = (v) => ({
  stacks: v.stacks.map((c, s) => ["stack:" + s, String(c)]).sort(),
  spaces: v.layout.map(([space, c]) => ["space:" + space, String(c)]).sort(),
});

test("a finished game replays step by step as it was shown, with the expert's mistakes and chart", { timeout: 180000 }, async () => {
  const { ctx, page, errors, socket } = await soloTable({ preset: "pagat", seats: "3", deals: "1", turn: "0" }, (b) => b.click());
  const me = new Player(page, "replay");
  assert.ok(await playUntil([me], async () => (await over(page)) > 0, 120000), "the game ended");
  // What the live table was sent, by event number.
  const live = new Map(socket.received.filter((m) => m.view && m.n != null).map((m) => [m.n, m.view]));
  await page.locator('button[data-key="replay"]').click();
  const viewer = page.locator("section.replay");
  const step = viewer.locator(".replay-step");
  await step.waitFor();
  const total = Number(await viewer.locator('input[data-key="replay-slider"]').getAttribute("max")) + 1;
  assert.ok(total > 20, `a whole deal's steps: ${total}`);
  await page.keyboard.press("Home");
  let compared = 0;
  for (let i = 0; i < total; i++) {
    assert.equal(await step.getAttribute("data-step"), String(i));
    const board = viewer.locator(".table");
    if (live.has(i)) {
      assert.deepEqual(await numbers(board), fromView(live.get(i)), `step ${i}`);
      compared++;
    }
    // Nothing of the replay can be answered.
    assert.equal(await board.evaluate((b) => b.inert), true);
    if (i === 1) await shot(page, "replay-desktop-deal", false);
    if (i + 1 < total) await page.keyboard.press("ArrowRight");
  }
  assert.ok(compared > total / 2, `most steps were live frames: ${compared} of ${total}`);
  assert.equal(await viewer.locator("section.game-over").count(), 1, "the last step is the end");
  // Deal by deal and back to the start.
  await page.keyboard.press("Home");
  assert.equal(await step.getAttribute("data-step"), "0");
  await page.keyboard.press("PageDown");
  const dealt = Number(await step.getAttribute("data-step"));
  assert.ok(dealt > 0 && dealt < total - 1, `the deal's first step: ${dealt}`);
  await page.keyboard.press("PageUp");
  assert.equal(await step.getAttribute("data-step"), "0");
  await page.keyboard.press("End");
  assert.equal(await step.getAttribute("data-step"), String(total - 1));
  // The expert's analysis: the mistakes list (each a click to its step) and the chart.
  await viewer.locator('button[data-key="replay-analyse"]').click();
  const analysis = viewer.locator('section.replay-analysis[aria-label="The biggest mistakes"]');
  await analysis.waitFor({ timeout: 90000 });
  assert.equal(await analysis.locator("svg.chip-chart polyline").count(), 3);
  const mistakes = analysis.locator("ol.mistakes button");
  if (await mistakes.count()) {
    const to = await mistakes.first().getAttribute("data-step");
    await mistakes.first().click();
    assert.equal(await step.getAttribute("data-step"), to);
  } else {
    assert.match(await analysis.innerText(), /no costly mistake/);
  }
  await shot(page, "replay-desktop-analysis", false);
  await page.setViewportSize(PHONE.viewport);
  await shot(page, "replay-phone-analysis", false);
  await page.keyboard.press("Home");
  await shot(page, "replay-phone-start", false);
  // Every card face up, then closed: the game-over screen is back.
  await viewer.locator('button[data-key="replay-face-up"]').click();
  await page.waitForFunction(() => document.querySelectorAll("section.replay .seat .shown .cardface").length > 0);
  assert.equal(await analysis.count(), 1, "the analysis stays");
  await shot(page, "replay-phone-face-up", false);
  await page.keyboard.press("Escape");
  assert.equal(await page.locator("section.replay").count(), 0);
  assert.ok(await over(page));
  assert.deepEqual(errors, []);
  await ctx.close();
});

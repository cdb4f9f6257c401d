// What the table shows is true: the five a hint picks are the five shown
// and sent, each deal's result adds up to the stacks the browser saw, and
// the decision is on screen whenever one is asked (issue 26, points 1-3).
//
// Needs the tripoley binary (TRIPOLEY_BIN, default ../target/ci/tripoley)
// and Debian's Chromium (CHROMIUM, default /usr/bin/chromium).

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, shot, pause, PHONE, DESKTOP, Player, playUntil, soloTable, over } from "./harness.mjs";

serverAndBrowser();

const PRESETS = ["pagat", "tripoley", "michigan-casino", "rummoli", "cosmo"];
const start = (button) => button.click();

test("the hint's five are the five on screen and the five sent", { timeout: 120000 }, async () => {
  const { ctx, page, errors, socket } = await soloTable({ preset: "pagat", seats: "2", turn: "0" }, start);
  const me = new Player(page, "hint", { skip: ["choose_five"] });
  const hand = page.locator('section.hand.mine[data-decision="choose_five"]');
  assert.ok(await playUntil([me], async () => (await hand.count()) > 0, 60000), "asked to pick five");
  // Another five than the one picked for us, so the hint has something to change.
  const pressed = () => hand.locator('button.cardface[aria-pressed="true"]').evaluateAll((b) => b.map((x) => x.dataset.card).sort());
  await hand.locator('button.cardface[aria-pressed="true"]').first().click();
  await hand.locator('button.cardface[aria-pressed="false"]').last().click();
  const mine = await pressed();
  await hand.locator('button[data-key="hint"]').click();
  await page.waitForFunction(() => false, null, { timeout: 3000 }).catch(() => {});
  const shown = await pressed();
  await shot(page, "desktop-hint-five");
  await hand.locator('button[data-key="choose"]').click();
  await pause(300);
  const acts = socket.sent.filter((m) => m.type === "act" && m.action.choose);
  assert.equal(acts.length, 1);
  const hint = socket.received.find((m) => m.type === "hint");
  assert.ok(hint, "the server answered the hint");
  assert.deepEqual([...acts[0].action.choose].sort(), shown, `sent what was shown (before the hint: ${mine})`);
  assert.deepEqual(shown, [...hint.action.choose].sort(), "the hint's five are shown");
  assert.deepEqual(errors, []);
  await ctx.close();
});

/** Each player's stack at the end of each deal (index 0: the start), walked
 * through every transfer the browser received and checked against each
 * view's stacks. */
function stacksAtDealEnds(received, seats, chips) {
  const stacks = new Array(seats).fill(chips);
  const ends = [stacks.slice()];
  for (const m of received) {
    // A full state (the start, a reconnection) says where the stacks are.
    if (m.type === "state" && m.view) stacks.splice(0, seats, ...m.view.stacks);
    if (m.type !== "update") continue;
    for (const e of m.events) {
      if (e.event === "transfer") {
        if (e.from.stack !== undefined) stacks[e.from.stack] -= e.amount;
        if (e.to.stack !== undefined) stacks[e.to.stack] += e.amount;
      }
      if (e.event === "deal_ended") ends[e.number] = stacks.slice();
    }
    if (m.view) assert.deepEqual(stacks, m.view.stacks, `the stacks walked equal the view's at ${m.n}`);
  }
  return ends;
}

for (const preset of PRESETS) {
  test(`${preset}: every deal's result shows each net as its stack change, and its lines add up to the nets`, { timeout: 240000 }, async () => {
    const { ctx, page, errors, socket } = await soloTable({ preset, seats: "3", deals: "3", turn: "0" }, start);
    const me = new Player(page, preset + "-nets");
    assert.ok(await playUntil([me], () => over(page), 200000), "the game reached its end");
    while (await me.results_());
    const ends = stacksAtDealEnds(socket.received, 3, 100);
    assert.ok(me.panels.size >= 1, "results were shown");
    for (const [deal, panel] of me.panels) {
      const change = ends[deal].map((x, s) => x - ends[deal - 1][s]);
      for (let s = 0; s < 3; s++) {
        assert.equal(panel.nets[s] ?? 0, change[s], `deal ${deal}, seat ${s + 1}: the net shown is the stack change (${JSON.stringify(panel)})`);
        const sum = panel.lines.reduce((a, l) => a + (l.delta[s] || 0), 0);
        assert.equal(sum, change[s], `deal ${deal}, seat ${s + 1}: the lines add up (${panel.lines.map((l) => l.text).join(" | ")})`);
      }
    }
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}

for (const [size, tag] of [[DESKTOP, "laptop"], [PHONE, "phone"]]) {
  for (const preset of ["pagat", "michigan-casino"]) {
    test(`${preset} on a ${tag}: the decision's controls are on screen at every decision`, { timeout: 240000 }, async () => {
      const { ctx, page, errors } = await soloTable({ preset, seats: "3", deals: "2", turn: "0" }, start, size);
      const me = new Player(page, `${tag}-${preset}-view`, { inView: true });
      assert.ok(await playUntil([me], () => over(page), 200000), "the game reached its end");
      assert.ok(me.decisions > 5, `decisions checked (${me.decisions})`);
      assert.deepEqual(me.offscreen, [], "controls off screen");
      assert.deepEqual(errors, []);
      await ctx.close();
    });
  }
}

// Movement at the table: cards fly from the board to the seats when they
// are dealt, the cards of a Michigan run land on their rows one after
// another, and chips fly from where their space is at that moment (not
// where it was before a panel moved the board); a phone that asks for
// reduced motion sees none of it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, openTable, playUntil, Player, PHONE, DESKTOP, browser } from "./harness.mjs";

serverAndBrowser();

/** Before the page's scripts: records each card back and chip that flies
 * (a chip with how far its start is from its account's place then) and
 * each played card's landing delay. */
function record() {
  window.moved = { backs: 0, chips: [], landings: [] };
  new MutationObserver((changes) => {
    for (const c of changes) for (const n of c.addedNodes) {
      if (!(n instanceof HTMLElement) || !n.classList.contains("flying")) continue;
      if (n.classList.contains("card-back")) window.moved.backs++;
      if (!n.classList.contains("chip")) continue;
      const from = document.querySelector('[data-account="' + n.dataset.from + '"]');
      const r = from && from.getBoundingClientRect();
      const x = parseFloat(n.style.left) + 9 - window.scrollX;
      const y = parseFloat(n.style.top) + 9 - window.scrollY;
      window.moved.chips.push(r ? Math.hypot(x - (r.left + r.width / 2), y - (r.top + r.height / 2)) : -1);
    }
  }).observe(document, { childList: true, subtree: true });
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    if (this.closest && this.closest(".played-rows")) window.moved.landings.push(options.delay || 0);
    return animate.call(this, frames, options);
  };
}

test("cards dealt fly to the seats, a run lands card after card, chips fly from where the space is; nothing under reduced motion", { timeout: 180000 }, async () => {
  const deskCtx = await browser.newContext(DESKTOP);
  const phoneCtx = await browser.newContext(PHONE);
  await deskCtx.addInitScript(record);
  await phoneCtx.addInitScript(record);
  const desk = await deskCtx.newPage();
  const phone = await phoneCtx.newPage();
  const errors = [];
  for (const p of [desk, phone]) p.on("pageerror", (e) => errors.push(e.message));
  await openTable(desk, [phone], { preset: "pagat", seats: "3", deals: "1", turn: "0" });
  await desk.locator('button[data-key="start"]').click();
  const players = [new Player(desk, "desktop-motion"), new Player(phone, "phone-motion")];
  const moved = (page) => page.evaluate(() => window.moved);
  const seen = async () => {
    const m = await moved(desk);
    return m.backs > 0 && m.chips.length > 0 && m.landings.some((d) => d > 0);
  };
  const ok = await playUntil(players, seen, 150000);
  const m = await moved(desk);
  assert.ok(ok, `dealt cards, chips and a run landing card after card were seen (${JSON.stringify({ backs: m.backs, chips: m.chips.length, landings: m.landings })})`);
  assert.deepEqual(m.chips.filter((d) => d < 0 || d > 2), [], "every chip starts where its account is when it flies");
  const still = await moved(phone);
  assert.deepEqual({ backs: still.backs, chips: still.chips.length, landings: still.landings.length }, { backs: 0, chips: 0, landings: 0 }, "nothing moves under reduced motion");
  assert.deepEqual(errors, []);
  await deskCtx.close();
  await phoneCtx.close();
});

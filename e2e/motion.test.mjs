// Movement at the table: cards fly from the board to the seats when they
// are dealt, the cards of a Michigan run land on their rows one after
// another, and chips fly from where their space is at that moment (not
// where it was before a panel moved the board); a phone that asks for
// reduced motion sees none of it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, openTable, playUntil, Player, PHONE, DESKTOP, browser, watchSocket, over } from "./harness.mjs";

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

/** Before the page's scripts: at every frame, each card back or chip in
 * flight that is drawn over the words of the pass-and-play cover or of the
 * game-over panel is noted (what it covered), as is whether any flew there. */
function recordOverWords() {
  window.overWords = [];
  window.flewBy = new Set();
  const words = ".pass-cover > *, section.game-over > *";
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const look = () => {
    for (const f of document.querySelectorAll(".flying")) {
      const a = f.getBoundingClientRect();
      for (const w of document.querySelectorAll(words)) {
        const b = w.getBoundingClientRect();
        if (!meet(a, b)) continue;
        window.flewBy.add(w.closest(".pass-cover") ? "cover" : "game over");
        const x = (Math.max(a.left, b.left) + Math.min(a.right, b.right)) / 2;
        const y = (Math.max(a.top, b.top) + Math.min(a.bottom, b.bottom)) / 2;
        // Flying things let clicks through: for a moment they may be hit.
        f.style.pointerEvents = "auto";
        const top = document.elementFromPoint(x, y);
        f.style.pointerEvents = "";
        if (top === f) window.overWords.push(`${f.className} over ${w.tagName.toLowerCase()} “${w.textContent.slice(0, 30)}”`);
      }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

test("nothing flies over words: dealt cards under the pass-and-play cover, chips under the game over (issue 50)", { timeout: 240000 }, async () => {
  const ctx = await browser.newContext(DESKTOP);
  await ctx.addInitScript(recordOverWords);
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const socket = watchSocket(page);
  await openTable(page, [], { preset: "pagat", seats: "3", deals: "2", turn: "0" });
  // Ann and Bob on one laptop, and a bot: a cover between them at each turn.
  const add = page.locator("form.add-player");
  await add.locator('input[name="local-name"]').fill("Bob");
  await add.locator('button[type="submit"]').click();
  await page.locator(".local-seats", { hasText: "Ann, Bob" }).waitFor();
  await page.locator('button[data-key="start"]').click();
  const me = new Player(page, "desktop-motion-words");
  const ended = () => socket.received.some((m) => m.type === "update" && m.events.some((e) => e.event === "game_over"));
  assert.ok(await playUntil([me], ended, 220000), "the game ended");
  while (await me.results_());
  await page.locator("section.game-over").waitFor({ timeout: 10000 });
  // The last chips fly to the seats as the game-over panel comes.
  await page.waitForFunction(() => !document.querySelector(".flying"), null, { timeout: 10000 });
  const seen = await page.evaluate(() => ({ over: [...new Set(window.overWords)], by: [...window.flewBy] }));
  console.log(`flew across: ${seen.by.join(", ") || "nothing"}`);
  assert.deepEqual(seen.over, [], "nothing in flight is drawn over the words");
  assert.deepEqual(errors, []);
  await ctx.close();
});

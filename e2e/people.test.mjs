// The people at the table, in the browser: a long name and a wide one
// (Japanese with emoji) never cut, on the player's own seat nor on anyone
// else's, in the lobby and in the game; chat lines that read the right way
// in a right-to-left script, an unread marker for lines that came while the
// chat was out of view, and quick reactions sent as plain chat lines.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, hostAndGuest, openTable, axeScan, violations, shot, PHONE, browser } from "./harness.mjs";

serverAndBrowser();

// 16 columns each: the widest name the server takes (a Japanese
// character or an emoji counts two).
const LONG = "Maximiliana Fern";
const WIDE = "山田花子さん🎉🎉";

/** Each name on `page` that is cut (its box narrower than its text, or its
 * text not the whole name), with the text seen. */
function cutNames(page, selector) {
  return page.locator(selector).evaluateAll((els) => els
    .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
    .map((e) => e.textContent));
}

test("long and wide names are never cut; chat reads right-to-left, marks unread lines, takes quick reactions", { timeout: 120000 }, async () => {
  const { hostCtx, guestCtx, host, guest, errors } = await hostAndGuest();
  await openTable(host, [guest], { preset: "michigan-casino", seats: "3", turn: "0" }, [LONG, WIDE]);
  const wide = WIDE;

  // A right-to-left line reads right to left in its own line.
  await host.locator('section.chat input[name="chat"]').fill("שלום לכולם");
  await host.locator('section.chat input[name="chat"]').press("Enter");
  const hebrew = guest.locator("section.chat .chat-lines li", { hasText: "שלום" });
  await hebrew.waitFor();
  assert.equal(await hebrew.locator('[dir="auto"]').count() >= 1, true, "the line's text has dir=auto");
  assert.equal(await hebrew.locator('[dir="auto"]').last().evaluate((e) => getComputedStyle(e).direction), "rtl");
  // The guest has it in view, and the page counts it read at its next
  // frames (an IntersectionObserver): the game starts only after those, or
  // the line would still be news below the board (it was, once, in CI).
  await guest.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50)))));

  await host.locator('button[data-key="start"]').click();
  await guest.locator(".seat.me").waitFor();
  await host.locator(".seat.me").waitFor();
  for (const [page, mine] of [[host, LONG], [guest, wide]]) {
    assert.ok((await page.locator(".seat.me .seat-name").textContent()).includes(mine), "the own seat's whole name");
    assert.deepEqual(await cutNames(page, ".seat-name"), [], "no seat's name is cut");
  }
  await shot(guest, "phone-long-names");
  await shot(host, "desktop-long-names");

  // On the phone the chat is below the board: a line from the host comes
  // unread, and the page says so where the player is.
  await guest.evaluate(() => window.scrollTo(0, 0));
  // Boxes are measured in one go in the page: each move draws the page
  // anew, and a box asked of an element just replaced is none.
  const box = (selector) => guest.evaluate((s) => document.querySelector(s)?.getBoundingClientRect().toJSON(), selector);
  assert.ok((await box("section.chat")).top > PHONE.viewport.height, "the chat starts out of view");
  await host.locator('section.chat input[name="chat"]').fill("Good luck!");
  await host.locator('section.chat input[name="chat"]').press("Enter");
  const badge = guest.locator("button.chat-unread");
  await badge.waitFor();
  assert.match(await badge.innerText(), /1 new/);
  const { bottom } = await box("button.chat-unread");
  assert.ok(bottom > 0 && bottom <= PHONE.viewport.height, `the unread marker is in view (${bottom})`);
  await shot(guest, "phone-chat-unread", false);
  await badge.click();
  const marker = guest.locator("section.chat .chat-lines li.unread-mark");
  await marker.waitFor();
  assert.match(await marker.evaluate((m) => m.nextElementSibling.textContent), /Good luck!/, "the marker stands before the first unread line");
  await badge.waitFor({ state: "detached" });

  // A quick reaction is a chat line like any other.
  const react = guest.locator("section.chat .reactions button", { hasText: "👍" });
  await react.click();
  await host.locator("section.chat .chat-lines li", { hasText: "👍" }).waitFor();
  assert.match(await host.locator("section.chat .chat-lines li", { hasText: "👍" }).innerText(), new RegExp(wide.slice(0, 4)));
  await axeScan(guest, "chat with unread marker and reactions");
  await shot(guest, "phone-chat-reactions");
  assert.deepEqual(errors, []);
  assert.deepEqual(violations, []);
  await hostCtx.close();
  await guestCtx.close();
});

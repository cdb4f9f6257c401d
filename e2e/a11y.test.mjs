// Accessibility, the three cases issue 26 (point 15) named: an error said
// on the green felt, a folded player's label, and the chat's lines, which a
// keyboard must reach (they scroll). axe-core scans each; the chat is
// reached with Shift+Tab from its field.
//
// Needs the tripoley binary (TRIPOLEY_BIN, default ../target/ci/tripoley)
// and Debian's Chromium (CHROMIUM, default /usr/bin/chromium).

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, axeScan, shot, soloTable } from "./harness.mjs";

serverAndBrowser();

test("accessibility: an error on the felt, a folded player's label and the chat's lines (reached by keyboard) pass axe-core", { timeout: 60000 }, async () => {
  const { ctx, page, errors } = await soloTable({ preset: "pagat", seats: "3", turn: "0" }, () => {});
  const say = async (text) => {
    await page.locator('section.chat input[name="chat"]').fill(text);
    await page.locator('section.chat input[name="chat"]').press("Enter");
    await page.locator("section.chat .chat-lines li", { hasText: text }).waitFor();
  };
  for (const text of ["one", "two", "three"]) await say(text);
  // From the field, one Shift+Tab goes back to the lines.
  await page.locator('section.chat input[name="chat"]').focus();
  await page.keyboard.press("Shift+Tab");
  assert.equal(await page.evaluate(() => document.activeElement.className), "chat-lines", "the chat's lines take the focus");
  assert.deepEqual(await axeScan(page, "the chat", "section.chat"), []);

  // A refusal said at the top of the page, on the felt (as the table says
  // "stale" or "not your turn"): the page's own error paragraph, placed there.
  await page.evaluate(() => {
    const p = document.createElement("p");
    p.className = "error";
    p.setAttribute("role", "alert");
    p.textContent = "That was refused: the table moved on. Try again.";
    document.getElementById("main").prepend(p);
  });
  assert.deepEqual(await axeScan(page, "an error on the felt", "#main > p.error"), []);
  await shot(page, "desktop-error-on-felt", false);

  await page.locator('button[data-key="start"]').click();
  const seat = page.locator(".seats-ring .seat").first();
  await seat.waitFor();
  // A folded player's box, as the betting marks it: dimmed, with its label.
  // The deal goes on while the test looks (the bots play), and a redraw
  // between the marking and the scan leaves nothing marked to scan: the
  // box is marked again until a scan finds it.
  const fold = () => seat.evaluate((s) => {
    s.classList.add("folded");
    const label = document.createElement("div");
    label.className = "seat-bet";
    label.textContent = "folded";
    s.append(label);
  });
  let folded = null;
  for (let tries = 1; folded === null; tries++) {
    await fold();
    folded = await axeScan(page, "a folded player", ".seats-ring .seat.folded").catch((e) => {
      if (tries >= 10 || !/No elements found/.test(String(e))) throw e;
      return null;
    });
  }
  assert.deepEqual(folded, []);
  await shot(page, "desktop-folded-seat", false);
  assert.deepEqual(errors, []);
  await ctx.close();
});

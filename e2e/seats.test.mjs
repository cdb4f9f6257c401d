// The lobby's seats in the host's hands (issue 26, point 17 and issue 31,
// point 9), keyboard only: the host gives one open seat a Strong bot and
// another a Relaxed one, everyone reads each bot's level in words, and the
// seats at the table say it again once the game starts; the host removes a
// guest who is still here, after a confirm, and the guest's screen says the
// host removed them (not that they were away). Spanish words for the same.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, hostAndGuest, openTable, axeScan, shot, PHONE, DESKTOP, base, browser } from "./harness.mjs";

serverAndBrowser();

test("the host picks each bot seat's level and removes a guest from the lobby", { timeout: 60000 }, async () => {
  const { hostCtx, guestCtx, host, guest, errors } = await hostAndGuest();
  const link = await openTable(host, [guest], { preset: "pagat", seats: "4", deals: "1", turn: "0" });

  // Seat 3 gets a Strong bot, by keyboard: its own control, in words.
  const seat3 = host.locator('select[data-key="seat-bot-2"]');
  assert.equal(await seat3.getAttribute("aria-label"), "Who plays Seat 3");
  await seat3.focus();
  await seat3.selectOption({ label: "A Strong bot" });
  await host.locator(".lobby-seats li", { hasText: "Bot 3: a Strong bot" }).waitFor();
  await guest.locator(".lobby-seats li", { hasText: "Bot 3: a Strong bot" }).waitFor();
  assert.equal(await guest.locator(".lobby-seats select").count(), 0, "only the host chooses");
  assert.match(await guest.locator(".lobby-seats li").nth(3).innerText(), /open: a Good bot plays if nobody sits/);
  await host.locator('select[data-key="seat-bot-3"]').selectOption({ label: "A Relaxed bot" });
  await guest.locator(".lobby-seats li", { hasText: "Bot 4: a Relaxed bot" }).waitFor();
  await shot(host, "desktop-lobby-bot-levels");
  await axeScan(host, "the host's lobby seats");

  // Bob is here; the host removes him: Remove, then a confirm, by keyboard.
  const remove = host.locator('button[data-key="remove-1"]');
  assert.equal(await remove.innerText(), "Remove Bob");
  await remove.focus();
  await host.keyboard.press("Enter");
  const confirm = host.locator('.lobby-seats [role="group"]');
  assert.match(await confirm.innerText(), /Remove Bob from the table\?/);
  // Keep him first: nothing happens, the focus is back on Remove.
  await host.locator('button[data-key="remove-no-1"]').focus();
  await host.keyboard.press("Enter");
  assert.equal(await host.evaluate(() => document.activeElement.dataset.key), "remove-1");
  await host.keyboard.press("Enter");
  assert.equal(await host.evaluate(() => document.activeElement.dataset.key), "remove-yes-1", "the confirm takes the focus");
  await shot(host, "desktop-lobby-remove-confirm");
  await host.keyboard.press("Enter");
  await host.locator(".lobby-seats li").nth(1).filter({ hasText: "open" }).waitFor();
  await guest.locator("p.error", { hasText: "The host removed you from the table before the game." }).waitFor();
  assert.equal(await guest.locator("p.error", { hasText: "while you were away" }).count(), 0);
  await guest.locator("form.sit").waitFor();
  await shot(guest, "phone-removed-by-host");

  // The game starts: the seats say each bot's level.
  await host.locator('button[data-key="start"]').click();
  await host.locator("section.board").waitFor();
  const info = await (await fetch(base + "/api/tables/" + link.split("/t/")[1])).json();
  assert.deepEqual(info.seats.map((s) => [s.kind, s.bot]), [["human", null], ["bot", "heuristic"], ["bot", "expert"], ["bot", "random"]]);
  for (const words of ["Good bot", "Strong bot", "Relaxed bot"]) {
    await host.locator(".seat .tag", { hasText: words }).first().waitFor();
  }
  assert.deepEqual(errors, []);
  await hostCtx.close();
  await guestCtx.close();
});

test("a Spanish host reads the bots' levels and the confirm in Spanish", { timeout: 30000 }, async () => {
  const ctx = await browser.newContext({ ...DESKTOP, locale: "es-ES" });
  const host = await ctx.newPage();
  const guestCtx = await browser.newContext({ ...PHONE, locale: "es-ES" });
  const guest = await guestCtx.newPage();
  await openTable(host, [guest], { preset: "pagat", seats: "3", turn: "0" }, ["Ana", "Beto"]);
  await host.locator('select[data-key="seat-bot-2"]').selectOption({ label: "Un bot fuerte" });
  await guest.locator(".lobby-seats li", { hasText: "Bot 3: un bot fuerte" }).waitFor();
  await host.locator('button[data-key="remove-1"]').click();
  await host.locator('.lobby-seats [role="group"]', { hasText: "¿Quitar a Beto de la mesa?" }).waitFor();
  await shot(host, "es-desktop-lobby-bot-levels");
  await host.locator('button[data-key="remove-yes-1"]').click();
  await guest.locator("p.error", { hasText: "El anfitrión te quitó de la mesa" }).waitFor();
  await ctx.close();
  await guestCtx.close();
});

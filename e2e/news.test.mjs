// What reaches every screen live without a move (issue 26, point 7), with
// two browsers: when Bob's grace time ends the host's "free this seat"
// control appears without a reload; when Ann starts a rematch, Bob, still
// at the finished table, reads "Ann started a new game" (not "Game over")
// and joins it with one click. Spanish words for the same.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, openTable, Player, playUntil, over, axeScan, shot, underHand, PHONE, DESKTOP, base, browser } from "./harness.mjs";

// A grace time of 2 s, so the test waits seconds, not the default 30.
serverAndBrowser(["--grace", "2"]);

test("the end of an away player's grace and a rematch reach the other screen live", { timeout: 180000 }, async () => {
  const hostCtx = await browser.newContext(DESKTOP);
  const guestCtx = await browser.newContext(PHONE);
  const host = await hostCtx.newPage();
  let guest = await guestCtx.newPage();
  const errors = [];
  const watch = (p) => p.on("pageerror", (e) => errors.push(e.message));
  watch(host);
  watch(guest);
  const link = await openTable(host, [guest], { preset: "pagat", seats: "3", deals: "1", turn: "0" });
  await host.locator('button[data-key="start"]').click();
  await guest.locator("section.board").waitFor();

  // Bob leaves mid-game; once his grace is over the host may free his seat,
  // told live (no reload, whoever's turn it is).
  await guest.close();
  // It is on Bob's seat, beside his "away" (issue 50, point 9: it sat
  // below the docked hand, out of the first screen), on a laptop and a phone.
  const free = host.locator('.seats-ring .seat:has(.tag.away) button[data-key="free-1"]', { hasText: "Free Bob's seat" });
  await free.waitFor({ timeout: 10000 });
  for (const [size, tag] of [[DESKTOP, "desktop"], [PHONE, "phone"]]) {
    await host.setViewportSize(size.viewport);
    await host.evaluate(() => scrollTo(0, 0));
    const box = await free.evaluate((b) => {
      const r = b.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    });
    await shot(host, `${tag}-free-seat-live`, false);
    assert.ok(box.top >= 0 && box.bottom <= size.viewport.height && box.left >= 0 && box.right <= size.viewport.width, `${tag}: in the first screen (${JSON.stringify(box)})`);
    assert.equal(await underHand(free), 0, `${tag}: not under the docked hand`);
  }
  await host.setViewportSize(DESKTOP.viewport);

  // Bob comes back; Ann plays the game to its end.
  guest = await guestCtx.newPage();
  watch(guest);
  await guest.goto(link);
  await guest.locator("section.board").waitFor();
  const players = [new Player(host, "news-host"), new Player(guest, "news-guest")];
  assert.ok(await playUntil(players, async () => (await over(host)) && (await over(guest)), 120000), "the game ended");
  const heading = guest.locator("section.game-over h2");
  assert.equal(await heading.innerText(), "Game over");

  // Ann asks for the rematch; Bob's screen says so at once, and takes him there.
  await host.locator('button[data-key="rematch"]').click();
  await host.waitForURL((u) => u.href !== link);
  await heading.filter({ hasText: "Ann started a new game" }).waitFor({ timeout: 10000 });
  const join = guest.locator('button[data-key="rematch"]');
  assert.equal(await join.innerText(), "Join the new game");
  await shot(guest, "phone-rematch-announced");
  await axeScan(guest, "a rematch announced");
  await join.click();
  await guest.waitForURL(host.url());
  // The guest reads their own seat as theirs and the others unmarked while
  // they are here (it read "Ann (here)", as if at the guest's device: issue 50).
  await guest.locator(".lobby-seats li .who", { hasText: /^Bob \(you\)$/ }).waitFor();
  await guest.locator(".lobby-seats li .who", { hasText: /^Ann$/ }).waitFor();
  assert.deepEqual(errors, []);
  await hostCtx.close();
  await guestCtx.close();
});

test("a Spanish player reads the server's refusals in Spanish, without the parser's words", { timeout: 60000 }, async () => {
  const ctx = await browser.newContext({ ...DESKTOP, locale: "es-ES" });
  const page = await ctx.newPage();
  await page.goto(base + "/");
  await page.locator('form:has(select[name="preset"])').waitFor();
  const said = await page.evaluate(async () => {
    const { errorText } = await import("/i18n.js");
    const { api } = await import("/state.js");
    const out = [];
    for (const body of [{ seats: 12 }, { starting_chips: 0 }, { turn_seconds: 5000 }, { rules: { ante: "mucho" } }, { seats: "cuatro" }, { host_name: "A".repeat(25) }, { host_name: "Ana (tú)" }]) {
      out.push(await api("POST", "/api/tables", body).then(() => "created", errorText));
    }
    return out;
  });
  assert.deepEqual(said.slice(0, 4), [
    "Este juego es para 2 a 9 jugadores.",
    "Las fichas iniciales van de 1 a 1.000.000.",
    "El tiempo por turno es como mucho 3600 segundos (0 para no tener límite).",
    "Una de las reglas de la casa no existe o su valor no vale.",
  ]);
  assert.equal(said[4], "El servidor no entendió el mensaje.");
  assert.deepEqual(said.slice(5), [
    "Un nombre tiene como mucho 16 letras (8 caracteres chinos, japoneses o coreanos o emojis).",
    "Un nombre no puede contener «(tú)» ni «(you)»: la mesa lo añade tras tu propio nombre.",
  ]);
  await ctx.close();
});

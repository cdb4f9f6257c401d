// Pass-and-play (issue 26, point 16): two players on one phone, a third on
// a desktop and a bot. Each time the turn goes from one player of the phone
// to the other, a cover says whom to pass it to, with nothing of any hand
// in the page, and the next player's own cards come after a tap.
//
// Needs the tripoley binary (TRIPOLEY_BIN, default ../target/ci/tripoley)
// and Debian's Chromium (CHROMIUM, default /usr/bin/chromium).

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, openTable, shot, axeScan, PHONE, DESKTOP, browser, Player, playUntil, catalogueIds, assertNoLeaks, watchSocket } from "./harness.mjs";

serverAndBrowser();

test("pass-and-play: Ann and Bob on one phone, Cy on a desktop, a bot; a cover between Ann and Bob hides every hand", { timeout: 180000 }, async () => {
  const ids = await catalogueIds();
  const phoneCtx = await browser.newContext(PHONE);
  const deskCtx = await browser.newContext(DESKTOP);
  const phone = await phoneCtx.newPage();
  const desk = await deskCtx.newPage();
  const errors = [];
  for (const p of [phone, desk]) p.on("pageerror", (e) => errors.push(e.message));
  const link = await openTable(phone, [], { preset: "pagat", seats: "4", turn: "0", deals: "1" });

  // Bob sits at Ann's phone; Cy opens the link on a desktop.
  const add = phone.locator("form.add-player");
  await add.locator('input[name="local-name"]').fill("Bob");
  await add.locator('button[type="submit"]').click();
  await phone.locator(".lobby-seats li", { hasText: "Bob" }).waitFor();
  await phone.locator(".local-seats", { hasText: "Ann, Bob" }).waitFor();
  assert.equal(await add.locator('input[name="local-name"]').inputValue(), "", "the field is empty for the next one");
  await desk.goto(link);
  await desk.locator('form.sit input[name="name"]').fill("Cy");
  await desk.locator('form.sit button[type="submit"]').click();
  await phone.locator(".lobby-seats li", { hasText: "Cy" }).waitFor();
  await shot(phone, "phone-passplay-lobby");
  // Nothing of the lobby reaches past a phone's screen (the seat's bot choice did).
  const wide = await phone.evaluate(() => [...document.querySelectorAll(".lobby-seats *")]
    .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
    .map((e) => e.tagName + " " + (e.textContent || "").slice(0, 30)));
  assert.deepEqual(wide, [], "the lobby fits the phone's width");
  await axeScan(phone, "a lobby with two players on one phone");
  await assertNoLeaks(phone, ids, "pass-and-play lobby");
  await phone.locator('button[data-key="start"]').click();

  const players = [new Player(phone, "phone-passplay", { ids }), new Player(desk, "desktop-passplay")];
  // Who the phone showed at each decision it made (the header names the seat).
  const deciders = players[0].deciders;
  // Cy writes while the phone's cover is up, its rules open above the cover
  // and its chat out of view below: nothing of the table shows over the
  // cover's words (the chat's "1 new message" button, fixed at the foot of
  // the screen, lay over them once they were scrolled down to it).
  let overCover = null;
  const chatUnderCover = async () => {
    if (overCover || !(await phone.locator("section.pass-cover").count())) return;
    await phone.locator("details.rules > summary").click();
    await phone.locator(".rules-text").waitFor();
    await phone.evaluate(() => scrollTo(0, 0));
    const chat = desk.locator('section.chat input[name="chat"]');
    await chat.fill("your turn next?");
    await chat.press("Enter");
    await phone.locator("section.chat li", { hasText: "your turn next?" }).waitFor();
    overCover = await phone.evaluate(() => {
      const words = [...document.querySelectorAll(".pass-cover > *")];
      words[1].scrollIntoView({ block: "end" });
      const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      return [...document.querySelectorAll(".chat-unread")].filter((pill) => pill.checkVisibility()
        && words.some((w) => meets(pill.getBoundingClientRect(), w.getBoundingClientRect()))).map((pill) => pill.textContent);
    });
    await shot(phone, "phone-passplay-cover-chat", false);
    await phone.locator("details.rules > summary").click();
  };
  const finished = await playUntil(players, async () => {
    await chatUnderCover();
    return overCover && players.every((p) => p.results.size > 0) && deciders.size === 2 && new Set(players[0].passedTo).size === 2;
  }, 150000);
  assert.ok(finished, `a deal played with the phone passed both ways (passed to ${players[0].passedTo}, deciding ${[...deciders]})`);
  assert.deepEqual(overCover, [], "nothing over the cover's words");
  assert.deepEqual([...deciders].sort(), ["Ann", "Bob"], "the phone showed each of its players their own decisions");
  // Whoever is shown, "your seat on another device" is their own seat's link.
  const tokens = await phone.evaluate(() => {
    const mine = JSON.parse(localStorage.getItem("tripoley:" + location.pathname.split("/t/")[1]));
    return { ann: mine.token, bob: mine.others[0].token };
  });
  await phone.locator("details.seat-link > summary").click();
  const shownLink = await phone.locator(".seat-link input").inputValue();
  const who = (await phone.locator("#conn").innerText()).replace(/^you are /, "");
  assert.ok(shownLink.endsWith("#seat=" + (who === "Bob" ? tokens.bob : tokens.ann)), `${who}'s own link`);
  assert.equal(players[1].passedTo.length, 0, "a desktop with one player is never covered");
  // The rules view on the phone: its short sections and the board's picture.
  await phone.locator("details.rules > summary").click();
  await phone.locator(".rules-text svg.board-picture").waitFor();
  // Someone else's message draws the phone's page again: a reader of the
  // rules keeps their place (it went back to the top at every redraw).
  // Scrolled once the panel can scroll (under load its text may still be
  // laid out: scrollTop set to 150 read back 0, issue 50), and read in the
  // same step (a redraw between two steps leaves a detached panel, which
  // reads 0); the page keeps the panel to see it replaced.
  const top = await (await phone.waitForFunction(() => {
    const e = document.querySelector(".rules-text");
    if (!e) return null;
    e.scrollTop = 150;
    if (e.scrollTop <= 0) return null;
    window.scrolledRules = e;
    return e.scrollTop;
  })).jsonValue();
  await desk.locator('section.chat input[name="chat"]').fill("still reading?");
  await desk.locator('section.chat input[name="chat"]').press("Enter");
  await phone.waitForFunction(() => !window.scrolledRules.isConnected);
  assert.ok(top > 0, "the rules scroll");
  // Read in one step (a panel found, then drawn out of the page, reads 0).
  assert.equal(await phone.evaluate(() => document.querySelector(".rules-text").scrollTop), top, "the rules keep their place");
  // Scrolled to its top in one step (the panel and the page): a redraw
  // between finding the section and scrolling to it would leave it out of
  // the page.
  await phone.locator(".rules-text section.quick-rules").evaluate((e) => e.scrollIntoView({ block: "start" }));
  await shot(phone, "phone-rules-short", false);
  await axeScan(phone, "the rules view on a phone");
  assert.deepEqual(errors, []);
  await phoneCtx.close();
  await deskCtx.close();
});

/** Seats Bob at the phone of the host (Ann) in the lobby. */
async function addBob(phone) {
  const add = phone.locator("form.add-player");
  await add.locator('input[name="local-name"]').fill("Bob");
  await add.locator('button[type="submit"]').click();
  await phone.locator(".local-seats", { hasText: "Ann, Bob" }).waitFor();
}

test("the end of a pass-and-play game: its game-over panel, not a cover, and nobody there is “you”", { timeout: 180000 }, async () => {
  const ctx = await browser.newContext(PHONE);
  const phone = await ctx.newPage();
  const errors = [];
  phone.on("pageerror", (e) => errors.push(e.message));
  const socket = watchSocket(phone);
  await openTable(phone, [], { preset: "pagat", seats: "3", turn: "0", deals: "1" });
  await addBob(phone);
  await phone.locator('button[data-key="start"]').click();
  const me = new Player(phone, "phone-passplay-end");
  const ended = () => socket.received.some((m) => m.type === "update" && m.events.some((e) => e.event === "game_over"));
  assert.ok(await playUntil([me], ended, 160000), "the game ended");
  while (await me.results_());
  // The cover gives way to the game over (it was once seen staying up over
  // it: issue 50; not met again in this game).
  const shown = await phone.waitForFunction(() => document.querySelector("section.game-over") && !document.querySelector("section.pass-cover"), null, { timeout: 10000 })
    .then(() => true, () => false);
  await shot(phone, "phone-passplay-game-over", false);
  assert.ok(shown, `the game-over panel, not the cover (${await phone.locator("section.pass-cover h2").innerText().catch(() => "no cover")})`);
  // On a shared device nobody is "you": failed before, the winners, the
  // standings and the final pot said "Bob (you)" for whoever was shown last.
  const words = await phone.locator("section.game-over").innerText();
  assert.doesNotMatch(words, /\(you\)/, words);
  assert.deepEqual(errors, []);
  await ctx.close();
});

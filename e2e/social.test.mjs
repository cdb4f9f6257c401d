// Around the table, in the browser: a public table found in the home page's
// list by a stranger and joined; chat between two people (escaped, one mutes
// the other, the mute kept in the browser); the invite's QR code decoded
// back to the link; the host freeing the seat of a player who left, who is
// told so when she comes back; axe-core on each new screen; screenshots of
// the list and the chat on a phone and a desktop.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, openTable, packageScript, axeScan, violations, shot, PHONE, DESKTOP, base, browser } from "./harness.mjs";

serverAndBrowser();

const JSQR = packageScript("jsqr/dist/jsQR.js");

/** Writes a chat line from `page`. */
async function say(page, text) {
  const form = page.locator("section.chat form.chat-form");
  await form.locator('input[name="chat"]').fill(text);
  await form.locator('input[name="chat"]').press("Enter");
}

const chatLine = (page, text) => page.locator("section.chat .chat-lines li", { hasText: text });

/** The QR code on `page`, drawn on a canvas and read by jsQR. */
async function readQr(page) {
  return page.evaluate(async (source) => {
    if (!window.jsQR) (0, eval)(source + "\nwindow.jsQR = jsQR;");
    const svg = document.querySelector("figure.qr svg");
    const img = new Image();
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(new XMLSerializer().serializeToString(svg));
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.width * 2;
    canvas.height = img.height * 2;
    const ctx = canvas.getContext("2d");
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const found = window.jsQR(data.data, canvas.width, canvas.height);
    return { text: found && found.data, width: svg.getAttribute("width"), view: svg.getAttribute("viewBox") };
  }, JSQR);
}

test("a public table is found and joined; chat with mute; the QR code; the host frees a seat", { timeout: 180000 }, async () => {
  const hostCtx = await browser.newContext(DESKTOP);
  const guestCtx = await browser.newContext(PHONE);
  const strangerCtx = await browser.newContext(PHONE);
  const host = await hostCtx.newPage();
  const guest = await guestCtx.newPage();
  const stranger = await strangerCtx.newPage();
  const errors = [];
  for (const p of [host, guest, stranger]) p.on("pageerror", (e) => errors.push(e.message));

  // A private table, which no list shows.
  const privateTable = await (await fetch(base + "/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seats: 3, host_name: "Zed" }),
  })).json();
  const link = await openTable(host, [guest], { preset: "michigan-casino", seats: "3", turn: "0", public: true });
  const invite = link.split("/t/")[1];

  // A stranger finds it on the home page, in words, and joins it.
  await stranger.goto(base + "/");
  const entry = stranger.locator(`.public-list li[data-invite="${invite}"]`);
  await entry.waitFor();
  const words = await entry.innerText();
  assert.match(words, /Michigan Rummy \(casino rules\)/);
  assert.match(words, /2 of 3 seats taken/);
  assert.match(words, /no turn timer/);
  assert.doesNotMatch(words, /[a-z]+_[a-z]+/, "no rule identifiers");
  assert.equal(await stranger.locator(`.public-list li[data-invite="${privateTable.invite}"]`).count(), 0);
  await shot(stranger, "phone-public-list");
  await axeScan(stranger, "home with public tables");
  const desktopCtx = await browser.newContext(DESKTOP);
  const desktop = await desktopCtx.newPage();
  await desktop.goto(base + "/");
  await desktop.locator(`.public-list li[data-invite="${invite}"]`).waitFor();
  await shot(desktop, "desktop-public-list");
  await desktopCtx.close();
  await entry.locator("a", { hasText: "Join" }).click();
  await stranger.waitForURL(/\/t\//);
  const sit = stranger.locator("form.sit");
  await sit.locator('input[name="name"]').fill("Cy");
  await sit.locator('button[type="submit"]').click();
  await host.locator(".lobby-seats li", { hasText: "Cy" }).waitFor();
  // Full: off the list.
  const listed = await (await fetch(base + "/api/tables")).json();
  assert.ok(!listed.tables.some((x) => x.invite === invite), "a full table is not listed");

  // Chat: lines reach everyone, as text.
  await say(host, "Hello Bob, ready?");
  await chatLine(guest, "Hello Bob, ready?").waitFor();
  await chatLine(stranger, "Hello Bob, ready?").waitFor();
  await say(guest, "<b>yes</b> \u202Eready");
  const escaped = chatLine(host, "<b>yes</b>");
  await escaped.waitFor();
  assert.equal(await escaped.locator("b").count(), 1, "only the name is bold: the line is text");
  assert.match(await escaped.innerText(), /Bob:\s+<b>yes<\/b> ready$/);
  await say(stranger, "Hi all");
  await chatLine(host, "Hi all").waitFor();
  await shot(host, "desktop-chat");
  await shot(guest, "phone-chat");
  await axeScan(host, "lobby with chat and QR code");

  // Ann mutes Bob: his lines are hidden for her only, and stay hidden
  // after a reload; unmuting brings them back.
  await host.locator("section.chat details.chat-mute summary").click();
  await host.locator("section.chat button.mute", { hasText: "Mute Bob" }).click();
  await host.locator("section.chat .note", { hasText: "One message from someone you muted is hidden." }).waitFor();
  assert.equal(await chatLine(host, "<b>yes</b>").count(), 0);
  await say(guest, "can Ann read this?");
  await chatLine(stranger, "can Ann read this?").waitFor();
  await host.locator("section.chat .note", { hasText: "2 messages from people you muted are hidden." }).waitFor();
  assert.equal(await chatLine(host, "can Ann read this?").count(), 0);
  assert.equal(await chatLine(host, "Hi all").count(), 1, "Cy is not muted");
  await host.reload();
  await host.locator("section.chat .note", { hasText: "2 messages from people you muted are hidden." }).waitFor();
  await axeScan(host, "chat with a muted player");
  await host.locator("section.chat details.chat-mute summary").click();
  await host.locator("section.chat button.mute", { hasText: "Unmute Bob" }).click();
  await chatLine(host, "can Ann read this?").waitFor();

  // The QR code holds the invite link.
  await host.locator("figure.qr svg").waitFor();
  const qr = await readQr(host);
  assert.equal(qr.text, link);
  assert.match(qr.view, /^0 0 \d+ \d+$/);
  assert.ok(Number(qr.width) >= 100, "big enough for a phone's camera");

  // Cy leaves; the host removes her from the lobby; she is told when she
  // comes back.
  await stranger.goto("about:blank");
  await host.locator(".lobby-seats li .who", { hasText: "Cy (away)" }).waitFor();
  await host.locator('button[data-key="remove-2"]').click();
  await shot(host, "desktop-free-seat");
  await axeScan(host, "the host's seat tools");
  await host.locator('button[data-key="remove-yes-2"]').click();
  await host.locator(".lobby-seats li", { hasText: "open" }).waitFor();
  assert.equal(await host.locator(".lobby-seats li", { hasText: "Cy" }).count(), 0);
  await stranger.goto(link);
  await stranger.locator("p.error", { hasText: "The host removed you from the table" }).waitFor();
  await stranger.locator("form.sit").waitFor();

  // The game starts; chat goes on under the board.
  await host.locator('button[data-key="start"]').click();
  await guest.locator("section.board").waitFor();
  await say(guest, "good luck!");
  await chatLine(host, "good luck!").waitFor();
  await shot(guest, "phone-chat-in-game");
  assert.deepEqual(errors, []);
  for (const c of [hostCtx, guestCtx, strangerCtx]) await c.close();
});

test("accessibility of the new screens: no serious or critical violation", () => {
  assert.ok(violations.length === 0, violations.join("\n"));
});

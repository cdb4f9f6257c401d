// The replay of a finished game (issue 27): opened from the game-over
// screen, every step's board shows what the live table showed at that
// step, read-only (never "Your turn", no control), the keys move through
// it, and the expert's analysis lists the mistakes (each a click to its
// step) with a chart of the chips. The game is then in "My games" on the
// home page, whose link (a share link) opens its replay for anyone; a
// record file opened or dropped on the page replays too (seen as a player
// saw it without calling that player "you") and is analysed, and a hostile
// one is refused in words.
//
// Needs the tripoley binary (TRIPOLEY_BIN, default ../target/ci/tripoley)
// and Debian's Chromium (CHROMIUM, default /usr/bin/chromium).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { serverAndBrowser, shot, Player, playUntil, soloTable, over, axeScan, PHONE, DESKTOP, base, browser } from "./harness.mjs";

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
  assert.ok(total > 10, `a whole deal's steps: ${total}`);
  // Its arrows are named in words.
  for (const name of ["Step back", "Step forward"]) assert.equal(await viewer.getByRole("button", { name, exact: true }).count(), 1, name);
  await page.keyboard.press("Home");
  let compared = 0;
  for (let i = 0; i < total; i++) {
    assert.equal(await step.getAttribute("data-step"), String(i));
    const board = viewer.locator(".table");
    if (live.has(i)) {
      assert.deepEqual(await numbers(board), fromView(live.get(i)), `step ${i}`);
      compared++;
    }
    // Nothing of the replay can be answered, nor says it could.
    assert.equal(await board.evaluate((b) => b.inert), true);
    assert.equal(await board.locator("button, input, select, textarea").count(), 0, `step ${i}: a control`);
    assert.doesNotMatch(await board.locator(".status").innerText(), /Your turn/, `step ${i}`);
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
  // The player's own decisions, said as theirs.
  assert.equal(await analysis.locator("h3").first().innerText(), "Your biggest mistakes");
  const mistakes = analysis.locator("ol.mistakes button[data-step]");
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
  await viewer.locator('button[data-key="replay-face-up"][aria-pressed="true"]').waitFor();
  // From the start (Home works after a click on a mistake): the hands once dealt.
  assert.ok(await stepUntil(page, viewer.locator(".table .seat .shown .cardface")), "hands face up");
  assert.equal(await analysis.count(), 1, "the analysis stays");
  await shot(page, "replay-phone-face-up", false);
  await page.keyboard.press("Escape");
  assert.equal(await page.locator("section.replay").count(), 0);
  assert.ok(await over(page));
  // The game is in My games, with its link, once the server has stored it.
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("tripoley:games") || "[]").length === 1);
  const [kept] = await page.evaluate(() => JSON.parse(localStorage.getItem("tripoley:games")));
  assert.match(kept.share, /^[0-9a-f]{32}$/);
  assert.equal(kept.players.length, 3);
  assert.equal(kept.result.length, 3);
  const invite = new URL(page.url()).pathname.split("/")[2];
  // A spectator who opens the finished table keeps the game too, with the
  // link the player made (a spectator makes none).
  const watcher = await browser.newContext(DESKTOP);
  const watching = await watcher.newPage();
  await watching.goto(page.url());
  await watching.waitForFunction(() => JSON.parse(localStorage.getItem("tripoley:games") || "[]").length === 1);
  assert.equal((await watching.evaluate(() => JSON.parse(localStorage.getItem("tripoley:games"))))[0].share, kept.share);
  await watcher.close();
  await page.setViewportSize(DESKTOP.viewport);
  await page.goto(base + "/");
  await page.locator('button[data-key="my-games"]').click();
  const list = page.locator("section.my-games");
  assert.equal(await list.locator("ol.games li").count(), 1);
  assert.match(await list.innerText(), /Ann/);
  await shot(page, "replay-desktop-my-games", false);
  assert.deepEqual(await axeScan(page, "my games", "section.my-games"), []);
  await page.setViewportSize(PHONE.viewport);
  await shot(page, "replay-phone-my-games", false);
  await list.locator('a[data-key="game-replay"]').click();
  await page.waitForURL(/\/replay\/[0-9a-f]{32}$/);
  shared = page.url();
  assert.ok(!shared.includes(invite), "the link is not the table's code");
  assert.deepEqual(errors, []);
  await ctx.close();
});

/** Steps on (at most 10 steps) until `what` is drawn; whether it was. */
async function stepUntil(page, what) {
  for (let i = 0; i < 10; i++) {
    if (await what.count()) return true;
    await page.keyboard.press("ArrowRight");
  }
  return false;
}

/** The link of the game played above. */
let shared = null;

test("a share link opens the game face up for anyone, read-only, with the expert's analysis", { timeout: 60000 }, async () => {
  assert.ok(shared, "the game above was shared");
  for (const [size, tag] of [[DESKTOP, "desktop"], [PHONE, "phone"]]) {
    const ctx = await browser.newContext(size);
    const page = await ctx.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(shared);
    const viewer = page.locator("section.replay");
    await viewer.locator(".replay-step").waitFor();
    const board = viewer.locator(".table");
    assert.equal(await board.locator("button, input, select, textarea").count(), 0);
    // Face up: every player's cards once they are dealt.
    assert.ok(await stepUntil(page, viewer.locator(".table .seat .shown .cardface")), "hands face up");
    if (tag === "desktop") {
      await viewer.locator('button[data-key="replay-analyse"]').click();
      await viewer.locator('section.replay-analysis[aria-label="The biggest mistakes"] svg.chip-chart').waitFor({ timeout: 30000 });
    }
    await shot(page, `replay-${tag}-share`, false);
    assert.deepEqual(await axeScan(page, "shared replay " + tag, "section.replay"), []);
    if (tag === "desktop") {
      // "Try it yourself" from the link: the server gives the record, the
      // game goes on here from the mistake, that player's seat the viewer's.
      const tries = viewer.locator('ol.mistakes button[data-key="replay-try"]');
      if (await tries.count()) {
        await tries.first().click();
        await page.waitForURL(/#offline$/);
        await page.locator("section.hand.mine[data-decision]").waitFor({ timeout: 30000 });
        const kept = await page.evaluate(() => JSON.parse(localStorage.getItem("tripoley:offline")));
        assert.equal(JSON.parse(kept.saved).names.length, 3);
        await shot(page, "replay-desktop-share-tried", false);
      }
    }
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test("a record file opened or dropped on the page replays; a hostile one is refused in words", { timeout: 60000 }, async () => {
  const record = readFileSync(new URL("../crates/engine/tests/golden/pagat.json", import.meta.url), "utf8");
  for (const [size, tag] of [[DESKTOP, "desktop"], [PHONE, "phone"]]) {
    const ctx = await browser.newContext(size);
    const page = await ctx.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(base + "/");
    await page.locator('button[data-key="my-games"]').click();
    assert.match(await page.locator("section.my-games").innerText(), /No finished game yet/);
    await page.locator('input[data-key="record-file"]').setInputFiles({ name: "game.json", mimeType: "application/json", buffer: Buffer.from(record) });
    const viewer = page.locator("section.replay:not(.my-games)");
    const step = viewer.locator(".replay-step");
    await step.waitFor();
    const total = Number(await viewer.locator('input[data-key="replay-slider"]').getAttribute("max")) + 1;
    assert.ok(total > 20, `the whole game: ${total}`);
    await page.keyboard.press("End");
    assert.equal(await viewer.locator(".table section.game-over").count(), 1, "to the end");
    // As one player saw it: their hand only.
    await viewer.locator('select[data-key="replay-seen-by"]').selectOption("1");
    await viewer.locator(".table .hand").waitFor();
    await page.keyboard.press("Home");
    assert.ok(await stepUntil(page, viewer.locator(".table .hand .cardface")), "seat 2's hand");
    assert.equal(await viewer.locator(".table .seat .shown .cardface").count(), 0, "nobody else's");
    // The events name the players as the board does.
    assert.match(await viewer.locator(".replay-what").innerText(), /P\d deals/);
    // Seen as P1 saw it by someone who is not P1: nobody is "you".
    const seen = await viewer.evaluate((v) => v.textContent);
    assert.doesNotMatch(seen, /\(you\)|You are dealt|Your new hand|Your hand/);
    assert.match(seen, /P1 is dealt/);
    assert.match(seen, /P1's hand/);
    await shot(page, `replay-${tag}-file`, false);
    if (tag === "desktop") {
      // The expert's verdicts on the file, sent again (nothing kept).
      await viewer.locator('button[data-key="replay-analyse"]').click();
      const analysis = viewer.locator('section.replay-analysis[aria-label="The biggest mistakes"]');
      await analysis.locator("svg.chip-chart").waitFor({ timeout: 30000 });
      assert.equal(await analysis.locator("svg.chip-chart polyline").count(), 3);
      await shot(page, "replay-desktop-file-analysis", false);
      await page.setViewportSize(PHONE.viewport);
      await shot(page, "replay-phone-file-analysis", false);
      await page.setViewportSize(DESKTOP.viewport);
    }
    await page.keyboard.press("Escape");
    // A broken Napalm game and a file that is no record, dropped on the page: words.
    for (const [text, words] of [['{"game": "napalm", "names": ["A", "B"]}', /not a game record that can be replayed \(not a Napalm game record/], ["\u0000 not a game", /not a game record/]]) {
      const dropped = await page.evaluateHandle((t) => {
        const dt = new DataTransfer();
        dt.items.add(new File([t], "dropped.json", { type: "application/json" }));
        return dt;
      }, text);
      await page.dispatchEvent("main", "drop", { dataTransfer: dropped });
      const alert = page.locator("section.replay:not(.my-games) p.error[role=alert]");
      await alert.waitFor();
      assert.match(await alert.innerText(), words);
      if (tag === "phone") await shot(page, "replay-phone-file-refused", false);
      await page.keyboard.press("Escape");
    }
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

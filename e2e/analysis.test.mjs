// The expert's analysis screens (issue 47): the keys keep working after
// "Ask the expert" and a click on a mistake; a mistake tapped on a phone
// shows its board; the chips chart has axes, values and deal labels; seen
// as a player, the mistakes are that player's (no card the board hides);
// seen as a player by someone else (a link's, a file's), never "your" cards; the error margins are the
// verdicts' own; Spanish says the move made as made, not in the
// conditional; each player's chips lost to mistakes by stage; the
// expert's line after a mistake; and, at the live table, "the best five
// are picked for you" only while they are.
//
// Needs the tripoley binary (TRIPOLEY_BIN, default ../target/ci/tripoley)
// and Debian's Chromium (CHROMIUM, default /usr/bin/chromium).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverAndBrowser, shot, Player, playUntil, soloTable, over, axeScan, PHONE, DESKTOP, TRIPOLEY, base, browser } from "./harness.mjs";

serverAndBrowser();

const record = readFileSync(new URL("../crates/engine/tests/golden/pagat.json", import.meta.url), "utf8");

/** A page with the golden record's replay open (a file: nobody there is
 * "you"), in `size` and `locale`. */
async function openRecord(size, locale = "en-GB", text = record) {
  const ctx = await browser.newContext({ ...size, locale });
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base + "/");
  await page.locator('button[data-key="my-games"]').click();
  await page.locator('input[data-key="record-file"]').setInputFiles({ name: "game.json", mimeType: "application/json", buffer: Buffer.from(text) });
  const viewer = page.locator("section.replay:not(.my-games)");
  await viewer.locator(".replay-step").waitFor();
  return { ctx, page, errors, viewer, step: viewer.locator(".replay-step") };
}

/** Asks the expert and waits for the verdicts. */
async function analyse(viewer) {
  await viewer.locator('button[data-key="replay-analyse"]').click();
  const panel = viewer.locator("section.replay-analysis");
  await panel.locator("svg.chip-chart").waitFor({ timeout: 60000 });
  return panel;
}

/** The server's analysis of the record (cached: the page asked it first). */
const verdicts = (page) => page.evaluate(async (text) => (await fetch("/api/replays/analysis", { method: "POST", headers: { "Content-Type": "application/json" }, body: text })).json(), record);

/** A tenth below 10 chips, whole above, as the page writes them. */
const chips = (x) => String(x < 10 ? Math.round(x * 10) / 10 : Math.round(x));
/** A margin: to a hundredth under 0.05, never "± 0" for one that is not. */
const margin = (x) => (x < 0.05 ? String(Math.round(x * 100) / 100) : chips(x));

test("the analysis keeps the keys, says its margins, and charts the chips with axes", { timeout: 120000 }, async () => {
  const { ctx, page, errors, viewer, step } = await openRecord(DESKTOP);
  const last = String(Number(await viewer.locator('input[data-key="replay-slider"]').getAttribute("max")));
  // The keys after "Ask the expert" (failed before: the focus fell to the body).
  const panel = await analyse(viewer);
  await page.keyboard.press("End");
  assert.equal(await step.getAttribute("data-step"), last, "End after asking the expert");
  await page.keyboard.press("Home");
  assert.equal(await step.getAttribute("data-step"), "0", "Home after asking the expert");
  // ... and after a click on a mistake.
  const a = await verdicts(page);
  const listed = a.decisions.filter((d) => d.cost >= 0.5).slice(0, 10);
  assert.ok(listed.length >= 2, `mistakes to click: ${listed.length}`);
  const mistakes = panel.locator("ol.mistakes > li > button[data-step]");
  assert.equal(await mistakes.count(), listed.length);
  const to = Number(await mistakes.nth(1).getAttribute("data-step"));
  await mistakes.nth(1).click();
  assert.equal(await step.getAttribute("data-step"), String(to));
  await page.keyboard.press("ArrowRight");
  assert.equal(await step.getAttribute("data-step"), String(to + 1), "→ after a click on a mistake");
  await page.keyboard.press("Home");
  assert.equal(await step.getAttribute("data-step"), "0", "Home after a click on a mistake");
  // Each margin is the verdict's own, not "± 1" for all (failed before);
  // a cost the same in every sample game says so, not "about 10 chips, ± 0"
  // (failed before).
  for (let i = 0; i < listed.length; i++) {
    const text = await mistakes.nth(i).innerText();
    const exact = listed[i].std_error < 0.005;
    assert.ok(text.includes(exact ? " in every sample game)" : `, ± ${margin(listed[i].std_error)})`), `${text} against ${listed[i].std_error}`);
    assert.equal(text.includes("about"), !exact, text);
  }
  assert.ok(listed.some((d) => chips(d.std_error) !== "1"), "some margin is not 1");
  assert.ok(listed.some((d) => d.std_error < 0.005), "some verdict is exact");
  // The chart: chips up the side, each point of the game along the bottom,
  // each line's value at the end in its key (failed before: no text at all).
  const chart = panel.locator("svg.chip-chart");
  assert.deepEqual(await chart.locator("text.deal-label").allTextContents(), a.chips.map((c, i) => (i === 0 ? "start" : i > 0 && a.chips[i - 1].deals === c.deals ? "end" : String(c.deals))));
  const values = (await chart.locator("text.axis-value").allTextContents()).map(Number);
  const all = a.chips.flatMap((c) => c.stacks);
  assert.ok(values.includes(Math.min(...all)) && values.includes(Math.max(...all)), `${values}`);
  const end = a.chips[a.chips.length - 1].stacks;
  assert.deepEqual(await panel.locator("figcaption .seat-key").allTextContents(), a.names.map((n, s) => `${n}: ${end[s]}`));
  assert.equal(await chart.locator("circle.point title").count(), a.chips.length * a.names.length);
  // Each player's chips lost to mistakes, by stage.
  const rows = panel.locator("table.analysis-summary tbody tr");
  assert.equal(await rows.count(), a.names.length);
  assert.deepEqual(await panel.locator("table.analysis-summary thead th").allTextContents(), ["Player", "In all", "Spare hand and bids", "Poker", "Michigan"]);
  for (let s = 0; s < a.names.length; s++) {
    const cells = await rows.nth(s).locator("td").allTextContents();
    const by = a.cost_by_part[s];
    assert.deepEqual(cells, [a.cost_by_seat[s], by.spare, by.poker, by.michigan].map(chips), `seat ${s}`);
  }
  // Each mistake says why, from the search's numbers: the reason's chips
  // are the verdict's own.
  const whys = panel.locator("ol.mistakes > li .why");
  assert.equal(await whys.count(), listed.filter((d) => d.why).length);
  assert.ok(listed.every((d) => d.why), "every listed mistake has a reason");
  for (let i = 0; i < listed.length; i++) {
    const text = await panel.locator("ol.mistakes > li").nth(i).locator(".why").innerText();
    assert.ok(text.includes(String(chips(/** @type {any} */ (listed[i].why).chips))), `${text} against ${JSON.stringify(listed[i].why)}`);
  }
  // The expert's line after the costliest mistakes.
  const line = panel.locator("ol.mistakes > li .best-line").first();
  assert.match(await line.innerText(), /^The expert's line: P\d: .+/);
  await shot(page, "analysis-desktop", false);
  assert.deepEqual(await axeScan(page, "analysis", "section.replay"), []);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("seen as a player, the mistakes are that player's, and nobody else's cards are named", { timeout: 120000 }, async () => {
  const { ctx, page, errors, viewer } = await openRecord(DESKTOP);
  const panel = await analyse(viewer);
  const a = await verdicts(page);
  const seat = [0, 1, 2].find((s) => a.decisions.some((d) => d.seat === s && d.cost >= 0.5) && a.decisions.some((d) => d.seat !== s && d.cost >= 0.5));
  assert.ok(seat != null, "a seat with mistakes beside another's");
  await viewer.locator('select[data-key="replay-seen-by"]').selectOption(String(seat));
  await viewer.locator(".table .hand").waitFor();
  const items = panel.locator("ol.mistakes > li");
  assert.ok((await items.count()) > 0);
  // Failed before: everyone's mistakes, with their cards, were listed.
  for (const text of await items.locator("button[data-step]").allInnerTexts()) assert.match(text, new RegExp(`^Deal \\d+: P${seat} — `), text);
  assert.equal(await panel.locator("h3").first().innerText(), `P${seat}'s biggest mistakes`);
  // Another seat's move in a line names no card of theirs.
  for (const text of await items.locator(".best-line").allInnerTexts()) {
    for (const part of text.replace(/^The expert's line: /, "").split(" · ")) {
      if (!part.startsWith(`P${seat}:`)) assert.doesNotMatch(part, /[♣♦♥♠]/, text);
    }
  }
  await shot(page, "analysis-desktop-seen-as", false);
  // Seen as a player by someone else, that player's own cards are theirs,
  // never "your" cards (failed before: "Your five poker cards: …").
  const step = viewer.locator(".replay-step");
  const total = Number(await viewer.locator('input[data-key="replay-slider"]').getAttribute("max")) + 1;
  await page.keyboard.press("Home");
  const said = [];
  for (let i = 0; i < total; i++) {
    assert.equal(await step.getAttribute("data-step"), String(i));
    said.push(await viewer.locator(".replay-what").innerText());
    await page.keyboard.press("ArrowRight");
  }
  const text = said.join("\n");
  assert.doesNotMatch(text, /\bYour\b|\bYou\b/);
  assert.match(text, new RegExp(`P${seat}'s five poker cards: `));
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("on a phone a tapped mistake shows its board", { timeout: 120000 }, async () => {
  // Long names (16 columns, the most a name may take), as families give
  // them, so the chart's key fills its lines.
  const named = JSON.stringify({ ...JSON.parse(record), names: ["Grandma Rosalind", "Uncle Barnabas", "Cousin Maximilia"] });
  const { ctx, page, errors, viewer, step } = await openRecord(PHONE, "en-GB", named);
  const panel = await analyse(viewer);
  const mistake = panel.locator("ol.mistakes > li > button[data-step]").first();
  await mistake.scrollIntoViewIfNeeded();
  const to = await mistake.getAttribute("data-step");
  await mistake.tap();
  assert.equal(await step.getAttribute("data-step"), to);
  // Failed before: the board stayed some 400 px below the screen.
  const top = await viewer.locator(".table").evaluate((b) => b.getBoundingClientRect().top);
  const height = PHONE.viewport.height;
  assert.ok(top >= -1 && top < height / 2, `the board's top at ${top}`);
  await shot(page, "analysis-phone-mistake-tapped", false);
  await panel.locator("table.analysis-summary").scrollIntoViewIfNeeded();
  await shot(page, "analysis-phone-summary", false);
  // Each name in the chart's key stays on one line with its chips (before,
  // "Bot 3: 116" broke across lines on a phone).
  const lines = await panel.locator("figcaption .seat-key").evaluateAll((keys) => keys.map((k) => k.getClientRects().length));
  assert.ok(lines.length > 0 && lines.every((n) => n === 1), `lines per key: ${lines}`);
  // Nor does the key or the table of chips lost run past the panel's edge.
  const past = await panel.evaluate((p) => {
    const edge = p.getBoundingClientRect().right;
    return [...p.querySelectorAll("table.analysis-summary, figcaption .seat-key")]
      .map((e) => Math.round(e.getBoundingClientRect().right - edge)).filter((d) => d > 1);
  });
  assert.deepEqual(past, [], "pixels past the panel's edge");
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("in Spanish the move made is said as made, the expert's in the conditional", { timeout: 120000 }, async () => {
  const { ctx, errors, viewer } = await openRecord(DESKTOP, "es-ES");
  const panel = await analyse(viewer);
  const texts = await panel.locator("ol.mistakes > li > button[data-step]").allInnerTexts();
  assert.ok(texts.length > 0);
  for (const text of texts) {
    const [, played, best] = text.match(/^Reparto \d+: P\d — (.+); el experto: (.+) \(/) || [];
    assert.ok(played && best, text);
    // Failed before: "P1 — pujaría 50".
    assert.doesNotMatch(played, /(ía|ían)\b/, text);
    assert.match(best, /ía\b/, text);
  }
  // The reasons in Spanish.
  const whys = await panel.locator("ol.mistakes > li .why").allInnerTexts();
  assert.ok(whys.length > 0 && whys.every((w) => /fichas|bote/.test(w) && !/\bchips\b|\bthe\b/.test(w)), whys.join("\n"));
  assert.match(await panel.locator("table.analysis-summary caption").innerText(), /Fichas perdidas en errores/);
  await shot(viewer.page(), "analysis-desktop-es", false);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("at the table, the five are said to be picked for you only while they are", { timeout: 120000 }, async () => {
  const { ctx, page, errors } = await soloTable({ preset: "pagat", seats: "3", deals: "1", turn: "0" }, (b) => b.click());
  const me = new Player(page, "five-picked", { skip: ["choose_five"] });
  const hand = page.locator('section.hand.mine[data-decision="choose_five"]');
  assert.ok(await playUntil([me], async () => (await hand.count()) > 0, 90000), "the five are asked");
  const note = hand.locator(".controls .note");
  assert.equal(await note.innerText(), "5 of 5 picked (the best five are picked for you)");
  // Another five: one of the best out, another card in.
  const out = await hand.locator("button.cardface.chosen").first().getAttribute("data-card");
  await hand.locator(`button.cardface[data-card="${out}"]`).click();
  assert.equal(await note.innerText(), "4 of 5 picked");
  await hand.locator(`button.cardface:not(.chosen):not([data-card="${out}"])`).first().click();
  // Failed before: still "(the best five are picked for you)".
  assert.equal(await note.innerText(), "5 of 5 picked");
  await shot(page, "five-picked-own", false);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("try it yourself: a mistake's position becomes a game on this device, that player's seat yours", { timeout: 180000 }, async () => {
  const { ctx, page, errors, viewer } = await openRecord(DESKTOP);
  const panel = await analyse(viewer);
  const a = await verdicts(page);
  const listed = a.decisions.filter((d) => d.cost >= 0.5).slice(0, 10);
  const tries = panel.locator('ol.mistakes > li button[data-key="replay-try"]');
  assert.equal(await tries.count(), listed.length, "each mistake can be tried");
  assert.match(await tries.first().getAttribute("aria-label"), /^Try it yourself: play on from here as P\d, against bots, on this device$/);
  await shot(page, "analysis-desktop-try", false);
  // Nothing unfinished on this device: the game starts at once.
  await tries.first().click();
  await page.waitForURL(/#offline$/);
  const hand = page.locator("section.hand.mine[data-decision]");
  await hand.waitFor({ timeout: 30000 });
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem("tripoley:offline")));
  const saved = JSON.parse(kept.saved);
  const d = listed[0];
  assert.equal(saved.play.human, d.seat);
  assert.deepEqual(kept.people, [d.seat]);
  assert.equal(saved.play.bots.filter((b) => b === null).length, 1);
  // The game as it stood before the mistake: its steps, then the same decision.
  assert.ok(saved.steps.length >= d.step, `${saved.steps.length} steps, the mistake at ${d.step}`);
  assert.deepEqual(saved.steps.slice(0, d.step), JSON.parse(record).steps.slice(0, d.step));
  const kind = typeof d.played === "string" ? d.played : Object.keys(d.played)[0];
  const asked = { raise: "respond", call: "respond", fold: "respond", bet: "open", check: "open", lead: "lead", keep: "spare_option", swap: "spare_option" }[kind];
  if (asked) assert.equal(await hand.getAttribute("data-decision"), asked, `the decision of ${JSON.stringify(d.played)}`);
  await shot(page, "analysis-desktop-tried", false);
  // A second try while that game is unfinished asks first.
  await page.goto(base + "/");
  await page.locator('button[data-key="my-games"]').click();
  await page.locator('input[data-key="record-file"]').setInputFiles({ name: "game.json", mimeType: "application/json", buffer: Buffer.from(record) });
  const again = await analyse(page.locator("section.replay:not(.my-games)"));
  await again.locator('ol.mistakes > li button[data-key="replay-try"]').nth(1).click();
  const confirm = again.locator('button[data-key="replay-try-confirm"]');
  await confirm.waitFor();
  assert.match(await again.locator(".confirm").innerText(), /This replaces the unfinished game on this device\./);
  await shot(page, "analysis-desktop-try-confirm", false);
  await confirm.click();
  await page.waitForURL(/#offline$/);
  await page.locator("section.hand.mine[data-decision]").waitFor({ timeout: 30000 });
  const second = JSON.parse((await page.evaluate(() => JSON.parse(localStorage.getItem("tripoley:offline")))).saved);
  assert.equal(second.play.human, listed[1].seat);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("a long game's chart labels every few deals, and no label runs into the next", { timeout: 180000 }, async () => {
  // A 16-deal game of heuristic bots, saved by the simulator.
  const dir = mkdtempSync(join(tmpdir(), "tripoley-long-"));
  writeFileSync(join(dir, "long.toml"), 'preset = "pagat"\ndeals = 16\n');
  const sim = spawnSync(TRIPOLEY, ["sim", "--players", "3", "--deals", "16", "--house-rules", join(dir, "long.toml"), "--bots", "heuristic", "--seed", "3", "--save-records", join(dir, "games"), "--save-limit", "1"], { encoding: "utf8" });
  assert.equal(sim.status, 0, sim.stderr);
  const { ctx, errors, viewer } = await openRecord(DESKTOP, "en-GB", readFileSync(join(dir, "games", "game-000000.json"), "utf8"));
  const panel = await analyse(viewer);
  const chart = panel.locator("svg.chip-chart");
  assert.equal(await chart.locator("polyline").count(), 3);
  assert.equal(await chart.locator("circle.point").count(), 18 * 3, "a point at the start, after each deal and after the final pot");
  const labels = await chart.locator("text.deal-label").evaluateAll((ts) => ts.map((t) => {
    const b = /** @type {SVGTextElement} */ (t).getBBox();
    return { text: t.textContent, box: { x: b.x, width: b.width } };
  }));
  assert.ok(labels.length <= 13, `${labels.length} labels`);
  assert.equal(labels[0].text, "start");
  assert.equal(labels[labels.length - 1].text, "end");
  for (let i = 1; i < labels.length; i++) {
    assert.ok(labels[i - 1].box.x + labels[i - 1].box.width < labels[i].box.x, `${labels[i - 1].text} runs into ${labels[i].text}: ${JSON.stringify(labels)}`);
  }
  await chart.scrollIntoViewIfNeeded();
  await shot(viewer.page(), "analysis-desktop-long-game", false);
  assert.deepEqual(errors, []);
  await ctx.close();
});

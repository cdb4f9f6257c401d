// Unit tests of the web client's pure modules (no browser): the poker
// evaluator that preselects the best five, and a deal's result read from
// its events.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bestFive, cardWords, handName, sortCards } from "../web/cards.js";
import { DealTally } from "../web/summary.js";
import { coachStage } from "../web/coach.js";
import { t, useCatalogue, chooseLanguage } from "../web/i18n.js";

/** A language's catalogue as the server gives it to the page: every file
 * of locales/<lang>/ but the ones only Rust reads. */
function catalogue(lang) {
  const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "locales", lang);
  return readdirSync(dir).filter((f) => f.endsWith(".ftl") && !["rules.ftl", "terminal.ftl"].includes(f))
    .map((f) => readFileSync(join(dir, f), "utf8")).join("\n");
}
useCatalogue("en", catalogue("en"));

const same = (a, b) => assert.deepEqual([...a].sort(), [...b].sort());

test("the best five: each category beats the ones below it", () => {
  // Two pair (aces and queens) over a hand with many small pairs and no flush.
  same(bestFive(["3C", "QC", "AC", "2D", "7D", "8D", "AD", "6S", "9S", "QS", "3H", "6H", "9H"]).filter((c) => c[0] !== "9"),
    ["QC", "AC", "AD", "QS"]);
  // A flush beats a pair of aces.
  same(bestFive(["2H", "5H", "9H", "JH", "KH", "AS", "AD"]), ["2H", "5H", "9H", "JH", "KH"]);
  // A full house beats a flush.
  same(bestFive(["2H", "5H", "9H", "JH", "KH", "KS", "KD", "2C"]), ["2H", "2C", "KH", "KS", "KD"]);
  // Four of a kind, with the best kicker.
  same(bestFive(["7C", "7D", "7H", "7S", "2C", "AC", "KD"]), ["7C", "7D", "7H", "7S", "AC"]);
  // A straight beats three of a kind.
  same(bestFive(["5C", "6D", "7H", "8S", "9C", "9D", "9H"]).map((c) => c.slice(0, -1)).sort(), ["5", "6", "7", "8", "9"]);
});

test("the ace is low in A-2-3-4-5 unless the table plays it always high", () => {
  same(bestFive(["2C", "3D", "4H", "5S", "AC", "KD", "9H"]), ["2C", "3D", "4H", "5S", "AC"]);
  same(bestFive(["2C", "3D", "4H", "5S", "AC", "KD", "9H"], true), ["4H", "5S", "AC", "KD", "9H"]);
});

test("hand names come from the engine's rank (category above bit 26)", () => {
  assert.equal(handName(0), "high card");
  assert.equal(handName((5 << 26) | 1234), "a flush");
  assert.equal(handName(8 << 26), "a straight flush");
});

test("in Spanish, hand names, cards and numbers are the language's own", () => {
  useCatalogue("es", catalogue("es"));
  try {
    assert.equal(handName((5 << 26) | 1234), "un color");
    assert.equal(handName((6 << 26) | 1), "un full");
    assert.equal(cardWords("10H"), "diez de corazones");
    assert.equal(cardWords("QS"), "reina de picas");
    assert.equal(t("chips-n", { n: 12345 }), "12.345 fichas");
    // Four digits stand together, as the terminal writes them (locales/es/GUIA.md).
    assert.equal(t("chips-n", { n: 3000 }), "3000 fichas");
    assert.equal(t("words-chips", { n: 1 }), "1 ficha");
  } finally {
    useCatalogue("en", catalogue("en"));
  }
  assert.equal(cardWords("10H"), "ten of hearts");
  assert.equal(t("chips-n", { n: 12345 }), "12,345 chips");
  assert.equal(t("chips-n", { n: 3000 }), "3,000 chips");
});

test("the language: the player's choice, else the browser's first we have, else English", () => {
  assert.equal(chooseLanguage(null, ["es-MX", "en-US"]), "es");
  assert.equal(chooseLanguage(null, ["de-DE", "es"]), "es");
  assert.equal(chooseLanguage("en", ["es-ES"]), "en", "the switch wins over the browser");
  assert.equal(chooseLanguage(null, ["de-DE", "fr"]), "en");
  assert.equal(chooseLanguage("klingon", []), "en", "a stored value we do not have is ignored");
});

test("a hand is sorted by suit, colours alternating, low to high", () => {
  assert.deepEqual(sortCards(["AH", "2C", "10S", "3D", "9S", "JC"]), ["2C", "JC", "3D", "9S", "10S", "AH"]);
});

/** A table's names for its seats, as a tally takes them (the controller's `name` and `own`). */
const seen = (names) => ({ name: (s) => names[s], own: () => true });

test("a deal's result: antes in one line, spaces taken, the pot, Michigan, nets", () => {
  const t = new DealTally(2, 3, seen(["Ann (you)", "Bob", "Cy"]));
  const move = (from, to, amount, reason) => ({ event: "transfer", from, to, amount, reason });
  const events = [
    { event: "deal_started", number: 2, dealer: 0, pay_suit: "hearts", sequence: "8" },
    ...[0, 1, 2].flatMap((s) => ["ace", "pot"].map((space) => move({ stack: s }, { space }, 1, "ante"))),
    move({ space: "ace" }, { stack: 1 }, 3, "pay_card"),
    move({ stack: 2 }, { space: "pot" }, 4, "bet"),
    { event: "showed", seat: 2, cards: ["2H", "5H", "9H", "JH", "KH"], rank: 5 << 26 },
    move({ space: "pot" }, { stack: 2 }, 7, "pot_won"),
    { event: "led", seat: 0, card: "4C", misplay: false },
    { event: "played", seat: 0, card: "5C" },
    { event: "went_out", seat: 0 },
    move({ space: "kitty" }, { stack: 0 }, 2, "went_out"),
    move({ stack: 1 }, { stack: 0 }, 3, "cards_left"),
    { event: "deal_ended", number: 2 },
  ];
  for (const e of events) t.add(e);
  const text = (lines) => lines.map((l) => l.text);
  assert.equal(t.anteLine().text, "Everyone put 1 on each space (6 in all).");
  assert.deepEqual(t.anteLine().delta, { 0: -2, 1: -2, 2: -2 });
  assert.deepEqual(text(t.claims), ["Bob took the Ace ♥: 3"]);
  assert.deepEqual(text(t.pokerLines()), ["Cy: 2♥ 5♥ 9♥ J♥ K♥ (a flush)", "Cy bet 4 in all", "Cy won the Pot: 7"]);
  assert.equal(t.michiganEnd().text, "Ann (you) went out on 5♣.");
  assert.deepEqual(text(t.michigan), ["Ann (you) took the Kitty: 2", "Bob paid Ann (you) 3 for cards left"]);
  assert.deepEqual(t.net, [-2 + 2 + 3, -2 + 3 - 3, -2 - 4 + 7]);
  assert.ok(t.ended);
  // Every line's chips add up to the nets.
  const lines = [t.anteLine(), ...t.claims, ...t.pokerLines(), ...t.michigan, ...t.other];
  assert.deepEqual([0, 1, 2].map((s) => lines.reduce((a, l) => a + (l.delta[s] || 0), 0)), t.net);
  assert.equal(t.ledger.length, 11);
});

test("a casino's final pot: each hand once, named at the showdown, and each bet (issue 50)", () => {
  const t = new DealTally(2, 2, seen(["Ann (you)", "Bob"]));
  const move = (from, to, amount, reason) => ({ event: "transfer", from, to, amount, reason });
  t.add({ event: "final_pot_round", round: 1, chips: 9 });
  t.add({ event: "face_up", seat: 0, cards: ["KH", "2H", "5H", "9H", "JH"] });
  t.add({ event: "face_up", seat: 1, cards: ["3C", "3D", "7S", "8S", "QD"] });
  t.add(move({ stack: 0 }, { space: "pot" }, 2, "bet"));
  t.add(move({ stack: 1 }, { space: "pot" }, 2, "bet"));
  t.add({ event: "showed", seat: 0, cards: ["2H", "5H", "9H", "JH", "KH"], rank: 5 << 26 });
  t.add({ event: "showed", seat: 1, cards: ["3D", "3C", "7S", "8S", "QD"], rank: 1 << 26 });
  t.add(move({ space: "pot" }, { stack: 0 }, 13, "final_pot"));
  // Failed before: each hand came twice, face up and again at the showdown.
  assert.deepEqual(t.pokerLines().map((l) => l.text), ["Ann (you): 2♥ 5♥ 9♥ J♥ K♥ (a flush)", "Bob: 3♣ 3♦ Q♦ 7♠ 8♠ (a pair)",
    "Ann (you) bet 2 in all", "Bob bet 2 in all", "Ann (you) won the final pot: 13"]);
});

test("a misplay paid to each other player is one line, and the spare's price is a line", () => {
  const t = new DealTally(1, 4, seen(["Ann (you)", "Bob", "Cy", "Di"]));
  const move = (from, to, amount, reason) => ({ event: "transfer", from, to, amount, reason });
  t.add(move({ stack: 1 }, { stack: 2 }, 3, "auction_price"));
  t.add({ event: "led", seat: 0, card: "9C", misplay: true });
  for (const s of [1, 2, 3]) t.add(move({ stack: 0 }, { stack: s }, 1, "misled"));
  assert.deepEqual(t.michigan.map((l) => l.text), ["Ann (you) paid 1 each to Bob, Cy and Di for a misplay"]);
  assert.deepEqual(t.michigan[0].delta, { 0: -3, 1: 1, 2: 1, 3: 1 });
  assert.deepEqual(t.other.map((l) => l.delta), [{ 1: -3, 2: 3 }]);
});

test("the guide's explanation on screen stays until the player has got it, however fast the game moves", () => {
  const at = (stage, deal = 2) => ({ stage, deal_number: deal });
  // The first deal starts with the overview, then each stage as it comes.
  assert.equal(coachStage(at("spare", 1), [], null), "first");
  assert.equal(coachStage(at("spare", 1), ["first"], null), "spare");
  // Bots bid while the player reads about the spare: the spare stays on
  // screen (its "Got it" dismisses it, not the auction's text drawn under it).
  assert.equal(coachStage(at("auction", 1), ["first"], "spare"), "spare");
  assert.equal(coachStage(at("betting"), ["first"], "spare"), "spare");
  // Once read, the stage the game is in now; one passed meanwhile comes next time.
  assert.equal(coachStage(at("betting"), ["first", "spare"], "spare"), "betting");
  assert.equal(coachStage(at("auction"), ["first", "spare", "betting"], "betting"), "auction");
  // Nothing for a stage seen, or one the guide does not explain.
  assert.equal(coachStage(at("michigan"), ["first", "michigan"], null), null);
  assert.equal(coachStage(at("dealing"), ["first"], null), null);
});

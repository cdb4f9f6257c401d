// @ts-check
// The Napalm poker table (RULES.md section 7): seats, the pot, your cards
// and your Yes or No, and the result.

import { el } from "./dom.js";
import { prefs } from "./state.js";
import { cardFace, cardText, sortCards } from "./cards.js";
import { logPanel, dealerButton, clock, replayButton } from "./board.js";
import { names, dealtLine } from "./words.js";
import { overHeading, rematchButton } from "./seats.js";
import { t } from "./i18n.js";

/** @typedef {import("./table.js").Table} Table */
/** @typedef {import("./words.js").Names} Names */
/** @typedef {import("./frames.js").GameEvent} GameEvent */
/** @typedef {import("./frames.js").NapalmView} NapalmView */
/** @typedef {import("./frames.js").SeatInfo} SeatInfo */

/** Each round's number; what a Yes claims and what is dealt are in the
 * catalogue, chosen by the round's name. */
/** @type {Record<string, number>} */
const ROUNDS = { best_two: 1, lowest_five: 2, best_of_seven: 3 };

function seatsOf(/** @type {number} */ mask) {
  const out = [];
  for (let s = 0; s < 16; s++) if ((mask >> s) & 1) out.push(s);
  return out;
}

const cards = (/** @type {string[]} */ cs) => sortCards(cs).map(cardText).join(" ");

/** One Napalm event in plain words (null: not worth a line), naming the
 * seats as `namer` (a table's screen) does.
 * @param {GameEvent} e @param {Names} namer */
export function describeNapalm(e, namer) {
  const n = (/** @type {number} */ s) => namer.name(s);
  switch (e.event) {
    case "hand_started": return t("nev-hand-started", { number: e.number, dealer: n(e.dealer) });
    case "player_out": return t("ev-player-out", { who: n(e.seat), chips: e.chips });
    case "transfer":
      if (e.reason === "side_bet") return t("nev-side-bet", { from: n(e.from.stack), to: n(e.to.stack), amount: e.amount });
      if (e.reason === "pot_won") return t("nev-pot-won", { who: n(e.to.stack), amount: e.amount });
      return null;
    case "dealt": return dealtLine(e, cards(e.cards), namer);
    case "round_started": return ROUNDS[e.round] ? t("nev-round-started", { number: ROUNDS[e.round], round: e.round }) : null;
    case "declared": return t("nev-declared", { who: n(e.seat), yes: e.yes ? "yes" : "no" });
    case "challenged": return t("nev-challenged", { who: n(e.seat), yes: e.yes ? "yes" : "no" });
    case "compared": {
      const hands = e.hands.map((/** @type {[number, string[]]} */ [s, cs]) => n(s) + ": " + cards(cs));
      const best = seatsOf(e.best).map(n);
      return t("nev-compared", { hands: hands.join("; "), best: names(best), count: best.length });
    }
    case "token": return t("nev-token", { who: n(e.seat), tokens: e.tokens });
    case "hand_ended": return t("nev-hand-ended", { number: e.number });
    case "game_over":
      return t("nev-game-over", { winners: names(e.winners.map(n)), count: e.winners.length });
    default: return null;
  }
}

export function napalmView(/** @type {Table} */ ctl) {
  const v = /** @type {NapalmView} */ (ctl.view);
  const wrap = el("div", { class: "table napalm" + (prefs.fourColour ? " four-colour" : "") });
  const turnSeat = ctl.turn ? ctl.turn.seat : v.to_act;
  const round = v.round && ROUNDS[v.round] ? v.round : null;
  // A replayed step is over only once its game has ended.
  const over = ctl.replaying ? !!ctl.winners : ctl.table.status === "finished" || ctl.winners;
  wrap.append(el("section", { class: "status", "aria-label": t("table-status") },
    el("span", {}, t("napalm-hand", { n: Math.max(v.hand_number, 1) }) + (round ? " · " + t("napalm-round", { number: ROUNDS[round], round }) : "")),
    turnSeat != null && !over ? el("span", { class: "turn-line" }, turnSeat === ctl.seat && !ctl.replaying ? t("table-your-turn") : t("table-to-play", { who: ctl.name(turnSeat) }),
      el("span", { class: "timer" })) : null));
  if (over) wrap.append(el("div", { class: "notices" }, result(ctl, v)));
  wrap.append(el("section", { class: "seats-ring", "aria-label": t("table-players") }, v.stacks.map((chips, s) => {
    const info = ctl.table.seats[s] || /** @type {Partial<SeatInfo>} */ ({});
    const said = v.declared[s];
    const seen = v.seen[s] || [];
    return el("div", { class: "seat" + (s === turnSeat ? " active" : "") + (s === ctl.seat ? " me" : ""), role: "group",
      "aria-label": t("napalm-seat-label", { who: ctl.name(s), chips, tokens: v.tokens[s] }) },
    el("div", { class: "seat-top" }, el("strong", { class: "seat-name", dir: "auto" }, ctl.name(s)),
      s === v.dealer ? dealerButton() : null,
      info.kind === "bot" ? el("span", { class: "tag" }, t("tag-bot", { level: t("bot-level-in-sentence", { level: info.bot || ctl.table.settings.bot }) })) : !info.connected && s !== ctl.seat ? el("span", { class: "tag away" }, t("tag-away")) : null,
      v.out[s] ? el("span", { class: "tag" }, t("tag-out")) : null),
    el("div", { class: "seat-nums" },
      el("span", { class: "stack" }, el("span", { class: "chip-icon", "aria-hidden": "true" }), chips),
      el("span", {}, "★ " + v.tokens[s]),
      el("span", { class: "cards-left" }, el("span", { class: "back-icon", "aria-hidden": "true" }), v.card_counts[s])),
    said != null ? el("div", { class: "seat-bet" }, t("napalm-said", { yes: said ? "yes" : "no" })) : null,
    s === turnSeat && !over && !ctl.replaying ? clock() : null,
    seen.length ? el("div", { class: "shown" }, sortCards(seen).map((c) => cardFace(c, { small: true }))) : null);
  })));
  wrap.append(el("section", { class: "board napalm-pot", "aria-label": t("space", { space: "pot" }) },
    el("div", { class: "space space-pot", "data-account": "pot" }, el("span", { class: "space-name" }, t("space", { space: "pot" })), el("span", { class: "space-count" }, v.pot)),
    round ? el("p", { class: "board-note" }, t("napalm-yes-means", { round })) : null));
  if (ctl.seat != null) wrap.append(hand(ctl, v, turnSeat));
  wrap.append(logPanel(ctl, true));
  return wrap;
}

function result(/** @type {Table} */ ctl, /** @type {NapalmView} */ v) {
  const order = v.stacks.map((chips, s) => ({ s, chips, tokens: v.tokens[s] }))
    .sort((a, b) => b.tokens - a.tokens || b.chips - a.chips);
  return el("section", { class: "game-over panel", "aria-label": t("napalm-result") }, overHeading(ctl),
    ctl.winners ? el("p", { class: "winner" }, t("napalm-winners", { who: names(ctl.winners.map((s) => ctl.name(s))), count: ctl.winners.length })) : null,
    el("ol", { class: "standings" }, order.map((p) => el("li", {}, el("span", {}, ctl.name(p.s)),
      el("span", { class: "chips" }, t("napalm-chips-tokens", { chips: p.chips, tokens: p.tokens })),
      ctl.winners && ctl.winners.includes(p.s) ? el("span", { class: "tag win" }, t("tag-winner")) : null))),
    ctl.replaying ? null : rematchButton(ctl, ctl.seat != null),
    ctl.rematchFailed ? el("p", { class: "error", role: "alert" }, ctl.rematchFailed) : null,
    replayButton(ctl));
}

function hand(/** @type {Table} */ ctl, /** @type {NapalmView} */ v, /** @type {number | null} */ turnSeat) {
  const d = v.decision;
  const kind = d && Object.keys(d)[0];
  const round = d && d[kind].round;
  const controls = el("div", { class: "controls" });
  const button = (/** @type {string} */ label, /** @type {string} */ action, cls = "") => el("button", { "data-key": action, class: cls, onclick: () => ctl.act(action) }, label);
  const label = ctl.ownWords(t("napalm-your-cards"), (who) => t("napalm-your-cards-of", { who }), ctl.seat);
  let question = label;
  if (kind === "declare") {
    question = t("napalm-do-you-hold", { round });
    controls.append(button(t("napalm-yes"), "yes", "primary"), button(t("napalm-no"), "no"));
  } else if (kind === "challenge") {
    question = t("napalm-challenge-question");
    controls.append(button(t("napalm-challenge"), "challenge", "primary"), button(t("napalm-decline"), "decline"));
  }
  if (d) {
    controls.append(el("button", { "data-key": "hint", class: "hint", onclick: () => ctl.send({ type: "hint" }) }, t("btn-hint")));
    if (ctl.hint) controls.append(el("span", { class: "hint-text", role: "status" }, t("hint-bot", { action: t("action", { action: ctl.hint }) })));
  }
  return el("section", { class: "hand" + (d && turnSeat === ctl.seat ? " mine" : ""), "aria-label": label, "data-decision": kind || false },
    el("h2", { class: "prompt" }, question),
    el("div", { class: "cards" }, sortCards(v.cards).map((c) => cardFace(c))), controls);
}

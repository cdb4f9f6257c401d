// The Napalm poker table (RULES.md section 7): seats, the pot, your cards
// and your Yes or No, and the result.

import { el } from "./dom.js";
import { S, act, send, name } from "./state.js";
import { cardFace, cardText, sortCards } from "./cards.js";
import { logPanel } from "./board.js";

const ROUNDS = {
  best_two: { number: 1, claim: "the best two cards", dealt: "two cards each" },
  lowest_five: { number: 2, claim: "the lowest five-card hand", dealt: "three more cards each" },
  best_of_seven: { number: 3, claim: "the best five cards of seven", dealt: "two more cards each" },
};

function seatsOf(mask) {
  const out = [];
  for (let s = 0; s < 16; s++) if ((mask >> s) & 1) out.push(s);
  return out;
}

const cards = (cs) => sortCards(cs).map(cardText).join(" ");

/** One Napalm event in plain words (null: not worth a line). */
export function describeNapalm(e) {
  const n = name;
  switch (e.event) {
    case "hand_started": return "Hand " + e.number + ": " + n(e.dealer) + " deals; everyone antes.";
    case "player_out": return n(e.seat) + " cannot ante and leaves the game with " + e.chips + " chips.";
    case "transfer":
      if (e.reason === "side_bet") return n(e.from.stack) + " pays " + n(e.to.stack) + " " + e.amount + " (a side bet worth the pot).";
      if (e.reason === "pot_won") return n(e.to.stack) + " takes the pot: " + e.amount + " chips.";
      return null;
    case "dealt": return "You are dealt " + cards(e.cards) + ".";
    case "round_started": {
      const r = ROUNDS[e.round];
      return r ? "Round " + r.number + " (" + r.dealt + "): a Yes claims " + r.claim + "." : null;
    }
    case "declared": return n(e.seat) + " says " + (e.yes ? "Yes." : "No.");
    case "challenged": return n(e.seat) + (e.yes ? " challenges the dealer: now Yes." : " keeps their No.");
    case "compared": {
      const hands = e.hands.map(([s, cs]) => n(s) + ": " + cards(cs));
      const best = seatsOf(e.best).map(n);
      return "Compared privately: " + hands.join("; ") + ". Best: " + best.join(" and ") + (best.length > 1 ? " (a tie)." : ".");
    }
    case "token": return n(e.seat) + " is the only Yes and takes a token (" + e.tokens + " now).";
    case "hand_ended": return "Hand " + e.number + " is over.";
    case "game_over":
      S.winners = e.winners;
      return "Game over. " + e.winners.map(n).join(" and ") + (e.winners.length > 1 ? " share the pot." : " takes the pot and wins.");
    default: return null;
  }
}

export function napalmView() {
  const v = S.view;
  const wrap = el("div", { class: "table napalm" + (S.prefs.fourColour ? " four-colour" : "") });
  const turnSeat = S.turn ? S.turn.seat : v.to_act;
  const round = v.round && ROUNDS[v.round];
  const over = S.table.status === "finished" || S.winners;
  wrap.append(el("section", { class: "status", "aria-label": "Status" },
    el("span", {}, "Hand " + Math.max(v.hand_number, 1) + (round ? " · round " + round.number + " of 3: a Yes claims " + round.claim : "")),
    turnSeat != null && !over ? el("span", { class: "turn-line" }, turnSeat === S.seat ? "Your turn" : name(turnSeat) + " to play",
      el("span", { class: "timer" })) : null));
  if (over) wrap.append(el("div", { class: "notices" }, result(v)));
  wrap.append(el("section", { class: "seats-ring", "aria-label": "Players" }, v.stacks.map((chips, s) => {
    const info = S.table.seats[s] || {};
    const said = v.declared[s];
    const seen = v.seen[s] || [];
    return el("div", { class: "seat" + (s === turnSeat ? " active" : "") + (s === S.seat ? " me" : ""), role: "group",
      "aria-label": name(s) + ", " + chips + " chips, " + v.tokens[s] + " tokens" },
    el("div", { class: "seat-top" }, el("strong", { class: "seat-name" }, name(s)),
      s === v.dealer ? el("span", { class: "dealer-button", "aria-label": "dealer" }, "D") : null,
      info.kind === "bot" ? el("span", { class: "tag" }, "bot") : !info.connected && s !== S.seat ? el("span", { class: "tag away" }, "away") : null,
      v.out[s] ? el("span", { class: "tag" }, "out") : null),
    el("div", { class: "seat-nums" },
      el("span", { class: "stack" }, el("span", { class: "chip-icon", "aria-hidden": "true" }), chips),
      el("span", {}, "★ " + v.tokens[s]),
      el("span", { class: "cards-left" }, el("span", { class: "back-icon", "aria-hidden": "true" }), v.card_counts[s])),
    said != null ? el("div", { class: "seat-bet" }, said ? "said Yes" : "said No") : null,
    s === turnSeat && !over ? el("div", { class: "clock" }, el("span", { class: "timer" })) : null,
    seen.length ? el("div", { class: "shown" }, sortCards(seen).map((c) => cardFace(c, { small: true }))) : null);
  })));
  wrap.append(el("section", { class: "board napalm-pot", "aria-label": "Pot" },
    el("div", { class: "space space-pot", "data-account": "pot" }, el("span", { class: "space-name" }, "Pot"), el("span", { class: "space-count" }, v.pot)),
    round ? el("p", { class: "board-note" }, "Yes means: I hold " + round.claim + ".") : null));
  if (S.seat != null) wrap.append(hand(v, turnSeat));
  wrap.append(logPanel(true));
  return wrap;
}

function result(v) {
  const order = v.stacks.map((chips, s) => ({ s, chips, tokens: v.tokens[s] }))
    .sort((a, b) => b.tokens - a.tokens || b.chips - a.chips);
  return el("section", { class: "game-over panel", "aria-label": "Final result" }, el("h2", {}, "Game over"),
    S.winners ? el("p", { class: "winner" }, (S.winners.length > 1 ? "Winners: " : "Winner: ") + S.winners.map(name).join(" and ")) : null,
    el("ol", { class: "standings" }, order.map((p) => el("li", {}, el("span", {}, name(p.s)),
      el("span", { class: "chips" }, p.chips + " chips, " + p.tokens + (p.tokens === 1 ? " token" : " tokens")),
      S.winners && S.winners.includes(p.s) ? el("span", { class: "tag win" }, "winner") : null))),
    S.seat != null ? el("button", { "data-key": "rematch", class: "primary", onclick: () => document.dispatchEvent(new Event("tripoley:rematch")) }, "Rematch") : null,
    S.rematch ? el("p", { class: "error", role: "alert" }, S.rematch) : null);
}

function hand(v, turnSeat) {
  const d = v.decision;
  const kind = d && Object.keys(d)[0];
  const round = d && ROUNDS[d[kind].round];
  const controls = el("div", { class: "controls" });
  const button = (label, action, cls = "") => el("button", { "data-key": action, class: cls, onclick: () => act(action) }, label);
  let question = "Your cards";
  if (kind === "declare") {
    question = "Do you hold " + round.claim + "?";
    controls.append(button("Yes", "yes", "primary"), button("No", "no"));
  } else if (kind === "challenge") {
    question = "The dealer alone said Yes. Change your No to Yes?";
    controls.append(button("Challenge: say Yes", "challenge", "primary"), button("Keep my No", "decline"));
  }
  if (d) {
    controls.append(el("button", { "data-key": "hint", class: "hint", onclick: () => send({ type: "hint" }) }, "Hint"));
    if (S.hint) controls.append(el("span", { class: "hint-text", role: "status" }, "The bot would say " + S.hint + "."));
  }
  return el("section", { class: "hand" + (d && turnSeat === S.seat ? " mine" : ""), "aria-label": "Your cards", "data-decision": kind || false },
    el("h2", { class: "prompt" }, question),
    el("div", { class: "cards" }, sortCards(v.cards).map((c) => cardFace(c))), controls);
}

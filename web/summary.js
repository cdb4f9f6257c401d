// The result of a deal, read from the deal's events as this viewer saw
// them (so it shows nothing the viewer may not see): who took which space,
// the poker hands shown and who won, how Michigan ended, each net.

import { cardText, sortCards, handName } from "./cards.js";
import { who, spaceName, account, stopWhy } from "./words.js";

const CLAIMS = new Set(["pay_card", "king_queen", "sequence"]);
const MICHIGAN = new Set(["blocked", "went_out", "cards_left", "misled", "withheld"]);

/** Collects one deal's events; `result()` says what happened. */
export class DealTally {
  constructor(number, players) {
    this.number = number;
    this.players = players;
    this.net = new Array(players).fill(0);
    this.antes = new Map(); // amount per space -> count, for the one-line ante
    this.anteTotal = 0;
    this.paySuit = null;
    this.claims = [];
    this.poker = [];
    this.pots = [];
    this.folded = [];
    this.michigan = [];
    this.wentOut = null;
    this.lastCard = null;
    this.blocked = false;
    this.ledger = [];
    this.final = false;
  }

  /** Takes one event in. */
  add(e) {
    switch (e.event) {
      case "deal_started": if (e.pay_suit) this.paySuit = e.pay_suit; break;
      case "pay_suit_named": this.paySuit = e.suit; break;
      case "final_pot_round": this.final = true; break;
      case "showed": this.poker.push(who(e.seat) + ": " + sortCards(e.cards).map(cardText).join(" ") + " (" + handName(e.rank) + ")"); break;
      case "face_up": this.poker.push(who(e.seat) + " had " + sortCards(e.cards).map(cardText).join(" ") + " face up"); break;
      case "folded": this.folded.push(who(e.seat)); break;
      case "led":
      case "played": this.lastCard = e.card; break;
      case "went_out": this.wentOut = { seat: e.seat, card: this.lastCard }; break;
      case "play_blocked": this.blocked = true; break;
      case "run_stopped": this.stop = stopWhy(e); break;
      case "transfer": this.transfer(e); break;
      default: break;
    }
  }

  transfer(t) {
    this.ledger.push(t);
    if (t.from.stack !== undefined) this.net[t.from.stack] -= t.amount;
    if (t.to.stack !== undefined) this.net[t.to.stack] += t.amount;
    const r = t.reason;
    if (r === "ante") {
      this.anteTotal += t.amount;
      const key = account(t.from) + "|" + t.amount;
      this.antes.set(key, (this.antes.get(key) || 0) + 1);
    } else if (CLAIMS.has(r) && t.from.space) {
      this.claims.push(who(t.to.stack) + " took the " + spaceName(t.from.space, this.paySuit) + ": " + t.amount);
    } else if (r === "pot_won" || r === "final_pot" || r === "poker_pool") {
      const what = r === "poker_pool" ? "the Poker Pool" : r === "final_pot" ? "the final pot" : "the Pot";
      this.pots.push(who(t.to.stack) + " won " + what + ": " + t.amount);
    } else if (MICHIGAN.has(r)) {
      this.michigan.push(michiganLine(t));
    }
  }

  /** Antes in one line: "Everyone put 1 on each space (27 in all)." */
  anteLine() {
    if (!this.anteTotal) return null;
    const amounts = new Set([...this.antes.keys()].map((k) => k.split("|")[1]));
    const each = amounts.size === 1 ? [...amounts][0] : null;
    return (each ? "Everyone put " + each + " on each space" : "Antes went onto every space (the dealer paid more)") +
      " (" + this.anteTotal + " in all).";
  }

  /** How play in Michigan ended, in one sentence. */
  michiganEnd() {
    if (this.wentOut) {
      return who(this.wentOut.seat) + " went out" + (this.wentOut.card ? " on " + cardText(this.wentOut.card) : "") + ".";
    }
    if (this.blocked) return "Play was blocked: nobody could lead.";
    return null;
  }
}

function michiganLine(t) {
  const amount = t.amount;
  switch (t.reason) {
    case "blocked": return account(t.from) + " put " + amount + " in the Kitty (cards left when play was blocked)";
    case "went_out": return account(t.to) + " took the Kitty: " + amount;
    case "cards_left": return account(t.from) + " paid " + account(t.to) + " " + amount + " for cards left";
    case "misled": return account(t.from) + " paid " + account(t.to) + " " + amount + " for a misplay";
    case "withheld": return account(t.from) + " paid " + account(t.to) + " " + amount + " for a card held back";
    default: return account(t.from) + " → " + account(t.to) + ": " + amount;
  }
}

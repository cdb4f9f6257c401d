// The result of a deal, read from the deal's events as this viewer saw
// them (so it shows nothing the viewer may not see): who took which space,
// the poker hands shown and who won, how Michigan ended, each net.

import { cardText, sortCards, handName } from "./cards.js";
import { who, account, stopWhy, suitSymbol } from "./words.js";
import { t } from "./i18n.js";

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
      case "showed": this.poker.push(t("sum-showed", { who: who(e.seat), cards: sortCards(e.cards).map(cardText).join(" "), hand: handName(e.rank) })); break;
      case "face_up": this.poker.push(t("sum-face-up", { who: who(e.seat), cards: sortCards(e.cards).map(cardText).join(" ") })); break;
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

  transfer(x) {
    this.ledger.push(x);
    if (x.from.stack !== undefined) this.net[x.from.stack] -= x.amount;
    if (x.to.stack !== undefined) this.net[x.to.stack] += x.amount;
    const r = x.reason;
    if (r === "ante") {
      this.anteTotal += x.amount;
      const key = account(x.from) + "|" + x.amount;
      this.antes.set(key, (this.antes.get(key) || 0) + 1);
    } else if (CLAIMS.has(r) && x.from.space) {
      this.claims.push(t("sum-claim", { who: who(x.to.stack), space: x.from.space, symbol: suitSymbol(this.paySuit) || "none", n: x.amount }));
    } else if (r === "pot_won" || r === "final_pot" || r === "poker_pool") {
      this.pots.push(t("sum-pot-won", { who: who(x.to.stack), pot: r, n: x.amount }));
    } else if (MICHIGAN.has(r)) {
      this.michigan.push(michiganLine(x));
    }
  }

  /** Antes in one line: "Everyone put 1 on each space (27 in all)." */
  anteLine() {
    if (!this.anteTotal) return null;
    const amounts = new Set([...this.antes.keys()].map((k) => k.split("|")[1]));
    const each = amounts.size === 1 ? [...amounts][0] : null;
    return each ? t("sum-antes", { each: Number(each), total: this.anteTotal }) : t("sum-antes-dealer", { total: this.anteTotal });
  }

  /** How play in Michigan ended, in one sentence. */
  michiganEnd() {
    if (this.wentOut) {
      return t("sum-went-out", { who: who(this.wentOut.seat), card: this.wentOut.card ? cardText(this.wentOut.card) : "none" });
    }
    if (this.blocked) return t("sum-blocked");
    return null;
  }
}

/** A Michigan payment in a sentence ("Bob paid Ann 3 for cards left"). */
function michiganLine(x) {
  return t("sum-michigan", { reason: x.reason, from: account(x.from), to: account(x.to), n: x.amount });
}

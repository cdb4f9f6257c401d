// @ts-check
// The result of a deal, read from the deal's events as this viewer saw
// them (so it shows nothing the viewer may not see): who took which space,
// the poker hands shown and who won, how Michigan ended, each net.

import { cardText, sortCards, handName } from "./cards.js";
import { account, stopWhy, suitSymbol, names, ledgerLine, spaceAntesWords } from "./words.js";
import { t } from "./i18n.js";

/** @typedef {import("./words.js").Names} Names */
/** @typedef {import("./frames.js").GameEvent} GameEvent */
/** A line of a result. @typedef {{ text: string, delta: Record<number, number> }} Line */

const CLAIMS = new Set(["pay_card", "king_queen", "sequence"]);
const MICHIGAN = new Set(["blocked", "went_out", "cards_left", "misled", "withheld"]);

/** One line of a result: its words and what it moved, chips per seat
 * (`{0: -3, 1: 3}`), so a panel's lines add up to its nets. */
function line(/** @type {string} */ text, /** @type {Record<number, number>} */ delta = {}) {
  return { text, delta };
}

/** What a transfer moves, chips per seat. @param {GameEvent} x */
function moved(x) {
  /** @type {Record<number, number>} */
  const delta = {};
  if (x.from.stack !== undefined) delta[x.from.stack] = -x.amount;
  if (x.to.stack !== undefined) delta[x.to.stack] = (delta[x.to.stack] || 0) + x.amount;
  return delta;
}

/** Collects one deal's events, from its antes (which come before its
 * `deal_started`) to its `deal_ended`; says what happened in lines, naming
 * the seats as `names` (the table's screen) does. */
export class DealTally {
  /** @param {number} number @param {number} players @param {Names} names */
  constructor(number, players, names) {
    this.number = number;
    this.names = names;
    this.players = players;
    this.net = new Array(players).fill(0);
    /** @type {Map<string, number>} */
    this.antes = new Map(); // amount per space -> count, for the one-line ante
    this.anteTotal = 0;
    /** @type {Record<number, number>} */
    this.anteDelta = {};
    /** @type {Map<string, Set<number>>} */
    this.anteOnSpace = new Map(); // space -> the amounts each payer put there
    /** @type {string | null} */
    this.paySuit = null;
    /** @type {Line[]} */
    this.claims = [];
    /** @type {Line[]} */
    this.shown = [];
    /** Each hand dealt face up (a casino's final pot), and where its line
     * is in `shown`. @type {Map<number, { cards: string, at: number }>} */
    this.faceUp = new Map();
    /** @type {Map<number, number>} */
    this.bets = new Map(); // seat -> chips bet in all
    /** @type {Line[]} */
    this.pots = [];
    /** @type {string[]} */
    this.folded = [];
    /** @type {Line[]} */
    this.michigan = [];
    /** @type {Line[]} */
    this.other = [];
    /** @type {{ from: number, amount: number, to: number[], line: Line } | null} */
    this.misplay = null; // the misplay being paid, one line for all it pays
    /** @type {{ seat: number, card: string | null } | null} */
    this.wentOut = null;
    /** @type {string | null} */
    this.lastCard = null;
    this.blocked = false;
    /** @type {GameEvent[]} */
    this.ledger = [];
    this.final = false;
    this.ended = false;
  }

  /** A seat's name. @param {number} seat */
  who(seat) {
    return this.names.name(seat);
  }

  /** Takes one event in. @param {GameEvent} e */
  add(e) {
    if (e.event !== "transfer") this.misplay = null;
    switch (e.event) {
      case "deal_started":
        this.number = e.number;
        if (e.pay_suit) this.paySuit = e.pay_suit;
        break;
      case "deal_ended": this.ended = true; break;
      case "pay_suit_named": this.paySuit = e.suit; break;
      case "final_pot_round": this.final = true; break;
      case "showed": this.showed(e.seat, e.cards, t("sum-showed", { who: this.who(e.seat), cards: sortCards(e.cards).map(cardText).join(" "), hand: handName(e.rank) })); break;
      case "face_up":
        this.faceUp.set(e.seat, { cards: sortCards(e.cards).join(), at: this.shown.length });
        this.shown.push(line(t("sum-face-up", { who: this.who(e.seat), cards: sortCards(e.cards).map(cardText).join(" ") })));
        break;
      case "folded": this.folded.push(this.who(e.seat)); break;
      case "led":
      case "played": this.lastCard = e.card; break;
      case "went_out": this.wentOut = { seat: e.seat, card: this.lastCard }; break;
      case "play_blocked": this.blocked = true; break;
      case "run_stopped": this.stop = stopWhy(e); break;
      case "transfer": this.transfer(e); break;
      default: break;
    }
  }

  /** A hand shown at a showdown. A hand that lay face up already (the
   * casino's final pot) is said once, its face-up line now naming the hand:
   * the final pot listed each hand twice (issue 50).
   * @param {number} seat @param {string[]} cards @param {string} text */
  showed(seat, cards, text) {
    const up = this.faceUp.get(seat);
    if (up && up.cards === sortCards(cards).join()) this.shown[up.at] = line(text);
    else this.shown.push(line(text));
  }

  /** @param {GameEvent} x */
  transfer(x) {
    this.ledger.push(x);
    const delta = moved(x);
    for (const [s, n] of Object.entries(delta)) this.net[Number(s)] += n;
    const r = x.reason;
    if (r !== "misled") this.misplay = null;
    if (r === "ante") {
      this.anteTotal += x.amount;
      this.anteDelta[x.from.stack] = (this.anteDelta[x.from.stack] || 0) - x.amount;
      const key = account(x.from, this.names) + "|" + x.amount;
      this.antes.set(key, (this.antes.get(key) || 0) + 1);
      const space = x.to.space || "pot";
      this.anteOnSpace.set(space, (this.anteOnSpace.get(space) || new Set()).add(x.amount));
    } else if (CLAIMS.has(r) && x.from.space) {
      this.claims.push(line(t("sum-claim", { who: this.who(x.to.stack), space: x.from.space, symbol: suitSymbol(this.paySuit) || "none", n: x.amount }), delta));
    } else if (r === "bet") {
      this.bets.set(x.from.stack, (this.bets.get(x.from.stack) || 0) + x.amount);
    } else if (r === "pot_won" || r === "final_pot" || r === "poker_pool") {
      this.pots.push(line(t("sum-pot-won", { who: this.who(x.to.stack), pot: r, n: x.amount }), delta));
    } else if (r === "misled") {
      this.misplayPaid(x, delta);
    } else if (MICHIGAN.has(r)) {
      this.michigan.push(line(michiganLine(x, this.names), delta));
    } else if (Object.keys(delta).length) {
      // The spare hand's price, a bid for the pay suit: in the ledger's words.
      this.other.push(line(ledgerLine(x, this.names), delta));
    }
  }

  /** A misplay pays each other player: one line for all of them. */
  /** @param {GameEvent} x @param {Record<number, number>} delta */
  misplayPaid(x, delta) {
    const m = this.misplay;
    if (!m || m.from !== x.from.stack || m.amount !== x.amount) {
      this.misplay = { from: x.from.stack, amount: x.amount, to: [], line: line("", {}) };
      this.michigan.push(this.misplay.line);
    }
    const p = this.misplay;
    p.to.push(x.to.stack);
    for (const [s, n] of Object.entries(delta)) p.line.delta[Number(s)] = (p.line.delta[Number(s)] || 0) + n;
    p.line.text = t("sum-misplay-paid", { from: this.who(p.from), to: names(p.to.map((/** @type {number} */ s) => this.who(s))), count: p.to.length, n: p.amount });
  }

  /** Antes in one line: "Everyone put 1 on each space (27 in all)", or
   * per space when the house rule puts more on some (T5's space antes):
   * "Everyone put 2 on the Pot and the Kitty, 1 on every other space". */
  anteLine() {
    if (!this.anteTotal) return null;
    const amounts = new Set([...this.antes.keys()].map((k) => k.split("|")[1]));
    if (amounts.size === 1) return line(t("sum-antes", { each: Number([...amounts][0]), total: this.anteTotal }), this.anteDelta);
    const bySpace = [...this.anteOnSpace].map(([space, paid]) => [space, paid.size === 1 ? [...paid][0] : null]);
    if (bySpace.some(([, n]) => n == null)) return line(t("sum-antes-dealer", { total: this.anteTotal }), this.anteDelta);
    return line(t("sum-antes-spaces", { spaces: spaceAntesWords(Object.fromEntries(bySpace)), total: this.anteTotal }), this.anteDelta);
  }

  /** The poker: hands shown, what each player bet, who folded, pots won. */
  pokerLines() {
    const bets = [...this.bets].map(([s, n]) => line(t("sum-bet", { who: this.who(s), n }), { [s]: -n }));
    const folded = this.folded.length ? [line(t("result-folded", { who: names(this.folded), count: this.folded.length }))] : [];
    return [...this.shown, ...bets, ...folded, ...this.pots];
  }

  /** How play in Michigan ended, in one sentence. */
  michiganEnd() {
    if (this.wentOut) {
      return line(t("sum-went-out", { who: this.who(this.wentOut.seat), card: this.wentOut.card ? cardText(this.wentOut.card) : "none" }));
    }
    if (this.blocked) return line(t("sum-blocked"));
    return null;
  }
}

/** A Michigan payment in a sentence ("Bob paid Ann 3 for cards left"). */
function michiganLine(/** @type {GameEvent} */ x, /** @type {Names} */ n) {
  return t("sum-michigan", { reason: x.reason, from: account(x.from, n), to: account(x.to, n), n: x.amount });
}

// What the table says, in the words players use: events, spaces, rules.
// No rule id or option name ever reaches the screen.

import { cardText, sortCards, handName, SUIT_SYMBOLS } from "./cards.js";

const SPACE_WORDS = {
  ace: "Ace", king: "King", queen: "Queen", jack: "Jack", ten: "Ten",
  king_queen: "King-Queen", sequence: "Sequence", kitty: "Kitty", pot: "Pot",
};
const SUIT_LETTER = { clubs: "C", diamonds: "D", hearts: "H", spades: "S" };

/** Who a seat is, as this screen names it ("you" for the viewer). */
let namer = (s) => "Seat " + (s + 1);
export function setNamer(f) {
  namer = f;
}
export const who = (s) => namer(s);

/** A line that may start with "you" starts with a capital. */
export const capital = (line) => line[0].toUpperCase() + line.slice(1);

/** "Ace", or "Ace ♥" once the pay suit is known. */
export function spaceName(space, paySuit) {
  const w = SPACE_WORDS[space] || space;
  const single = ["ace", "king", "queen", "jack", "ten", "king_queen"].includes(space);
  return single && paySuit ? w + " " + SUIT_SYMBOLS[SUIT_LETTER[paySuit]] : w;
}

export function suitSymbol(suit) {
  return SUIT_SYMBOLS[SUIT_LETTER[suit]] || "";
}

/** A ledger account: a player, a space or the pot. */
export function account(a) {
  if (a === "pot") return "the pot";
  if (a.stack !== undefined) return who(a.stack);
  return "the " + spaceName(a.space);
}

const REASON_WORDS = {
  ante: "ante", pay_card: "pay card", king_queen: "King-Queen", sequence: "Sequence",
  auction_price: "price of a hand", pay_suit_bid: "bid for the pay suit", bet: "bet",
  pot_won: "won the pot", blocked: "blocked play", went_out: "went out", cards_left: "cards left",
  misled: "misplay", withheld: "withheld card", poker_pool: "poker pool",
  final_pot_gathered: "board gathered for the final pot", final_pot: "final pot",
};
export const reasonWords = (r) => REASON_WORDS[r] || r.replace(/_/g, " ");

const cards = (cs) => sortCards(cs).map(cardText).join(" ");

export function stopWhy(e) {
  if (e.reason === "ace") return "it reached an ace";
  const next = e.next ? cardText(e.next) : "the next card";
  if (e.reason === "already_played") return next + " was played earlier";
  return "nobody played " + next;
}

/** One Tripoley event as a line of the log (null: not worth a line). */
export function describe(e) {
  const n = who;
  switch (e.event) {
    case "drew_for_dealer": return "Draw for dealer: " + e.draws.map(([s, c]) => n(s) + " " + cardText(c)).join(", ") + ".";
    case "first_dealer": return n(e.seat) + " deals first.";
    case "player_out": return n(e.seat) + " cannot ante and leaves the game with " + e.chips + " chips.";
    case "deal_started":
      return "Deal " + e.number + ": " + n(e.dealer) + " deals" +
        (e.pay_suit ? "; the pay suit is " + e.pay_suit : "") + "; the Sequence starts at " + e.sequence + ".";
    case "transfer":
      if (e.reason === "ante" || e.reason === "bet") return null;
      return capital(account(e.from)) + " → " + account(e.to) + ": " + e.amount + " (" + reasonWords(e.reason) + ")";
    case "dealt": return "You are dealt " + cards(e.cards) + ".";
    case "dealer_kept": return n(e.seat) + " keeps the hand dealt.";
    case "swapped": return n(e.seat) + " swaps for the other hand.";
    case "new_hand": return "Your new hand: " + cards(e.cards) + ".";
    case "auction_opened": return "Up for auction: " + (e.item === "spare" ? "the spare hand" : "the dealer's old hand") + ".";
    case "bid": return n(e.seat) + " bids " + e.amount + ".";
    case "passed": return n(e.seat) + " passes.";
    case "auction_sold": return n(e.seat) + " buys it for " + e.price + ".";
    case "auction_unsold": return "Nobody buys it.";
    case "pay_suit_named": return "The pay suit is " + e.suit + (e.seat != null ? ", named by " + n(e.seat) : "") + ".";
    case "pay_cards_shown": return n(e.seat) + " shows " + cards(e.cards) + ".";
    case "sequence_shared": return "The Sequence is shared; " + e.remainder + " stays on it.";
    case "checked": return n(e.seat) + " checks.";
    case "bet": return n(e.seat) + " bets " + e.amount + ".";
    case "called": return n(e.seat) + " calls " + e.amount + (e.all_in ? " (all in)" : "") + ".";
    case "raised": return n(e.seat) + " raises by " + e.by + ".";
    case "folded": return n(e.seat) + " folds.";
    case "chose_five": return "Your five poker cards: " + cards(e.cards) + ".";
    case "set_five_apart": return n(e.seat) + " sets five cards apart.";
    case "showed": return n(e.seat) + " shows " + cards(e.cards) + ": " + handName(e.rank) + ".";
    case "led": return n(e.seat) + " leads " + cardText(e.card) + (e.misplay ? " (a misplay: not the lowest of the suit)" : "") + ".";
    case "played": return null;
    case "withheld": return "You hold back " + cardText(e.card) + ".";
    case "run_stopped": return "The run stops: " + stopWhy(e) + ".";
    case "cannot_lead": return n(e.seat) + " cannot lead; the turn passes on.";
    case "play_blocked": return "Nobody can lead: play is blocked.";
    case "went_out": return n(e.seat) + " plays their last card and goes out.";
    case "final_pot_round": return "Final pot " + e.round + ": " + e.chips + " chips.";
    case "face_up": return n(e.seat) + " is dealt " + cards(e.cards) + " face up.";
    case "deal_ended": return "Deal " + e.number + " is over.";
    case "game_over": return "Game over: " + e.winners.map(n).join(" and ") + (e.winners.length > 1 ? " share the win." : " wins.");
    default: return null;
  }
}

/** An action the engine takes, in words (the hint line). */
export function actionText(a) {
  const plain = {
    keep: "keep the hand", swap: "swap for the spare", auction_spare: "auction the spare",
    swap_and_auction: "swap and auction the old hand", pass: "pass", check: "check", call: "call",
    fold: "fold", play: "play the card", withhold: "hold the card back",
  };
  if (typeof a === "string") return plain[a] || a;
  const [k, v] = Object.entries(a)[0];
  if (k === "lead") return "lead " + cardText(v);
  if (k === "name_suit") return "name " + v;
  if (Array.isArray(v)) return "pick " + cards(v);
  return k + " " + v;
}

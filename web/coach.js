// The guided first game: when a player asks for it, each stage is
// explained as it comes, in a few plain sentences fitted to this table's
// rules, until they say they have got it.

import { el } from "./dom.js";
import { S, savePrefs } from "./state.js";

/** What a stage is about at a table with rules `r` (null: nothing to say). */
function explain(stage, r) {
  const inPlay = r.pay_cards === "in_play";
  switch (stage) {
    case "spare":
      return "The dealer looks at their hand and decides about the spare: the extra hand dealt face down. " +
        "They may keep their hand, swap it for the spare without looking, or have the spare auctioned to the others.";
    case "auction":
      return "An auction: each player in turn bids more chips than the last bid, or passes for good. " +
        "The last bidder swaps their hand for the one on sale and pays the price to the dealer.";
    case "pay_suit":
      return "This deal's pay suit is bid for: the highest bidder names it.";
    case "choose_five":
    case "showdown":
      return "Poker: each player picks five cards of their hand as their poker hand (the best five are picked for you; " +
        "tap cards to change them). The best hand wins the Pot.";
    case "betting":
      return "Poker betting: check or bet, then call, raise or fold. Bets go to the Pot, which the best five-card hand " +
        "among those still in takes. Folding costs nothing more, but gives up the Pot.";
    case "michigan":
      return "Michigan: the leader plays a card, the lowest they hold of a suit, and whoever holds the next card up of " +
        "that suit plays it, on and on until the run stops (an ace, or a card nobody can play). The last player leads again. " +
        (inPlay ? "Playing an Ace, King, Queen, Jack or Ten of the pay suit takes its space on the board. " : "") +
        "The first to play all their cards takes the Kitty and a chip for every card the others still hold." +
        (r.misplays === "penalised" ? " Here leading a card that is not your lowest of its suit, or holding back a card, is allowed but costs chips." : "");
    case "final_pot":
      return "The game's last deals are over: the chips left on the board are played for as a final poker pot.";
    case "game_over":
      return "The game is over: the player with the most chips wins. Rematch starts a new game with the same people.";
    default:
      return null;
  }
}

const FIRST = "Tripoley in three stages each deal: first the pay cards (whoever holds the Ace, King, Queen, Jack or Ten " +
  "of the pay suit takes the chips on its space), then a hand of poker for the Pot, then Michigan, where the first " +
  "to play out their cards takes the Kitty. Chips left on a space stay for the next deal.";

/** The explanation for the stage the game is in, or null. */
export function coachPanel(v) {
  if (!S.prefs.guide || S.table.settings.game === "napalm") return null;
  const r = S.table.settings.rules;
  const key = v.deal_number <= 1 && !S.prefs.seen.includes("first") ? "first" : v.stage;
  const text = key === "first" ? FIRST : explain(key, r);
  if (!text || S.prefs.seen.includes(key)) return null;
  return el("section", { class: "coach panel", "aria-label": "How this works", "data-stage": key },
    el("h2", {}, "How this works"),
    el("p", {}, text),
    el("button", {
      "data-key": "coach-ok", class: "primary",
      onclick: () => {
        S.prefs.seen.push(key);
        savePrefs();
        document.dispatchEvent(new Event("tripoley:render"));
      },
    }, "Got it"),
    el("button", {
      "data-key": "coach-off",
      onclick: () => {
        S.prefs.guide = false;
        savePrefs();
        document.dispatchEvent(new Event("tripoley:render"));
      },
    }, "Stop explaining"));
}

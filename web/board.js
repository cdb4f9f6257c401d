// The Tripoley table: seats around the board, the board with its chip
// piles, the cards played in Michigan by suit, your hand, your decision in
// words, the result of each deal and the end of the game.

import { el } from "./dom.js";
import { S, act, send, name, CHOOSE_FIVE } from "./state.js";
import { cardFace, cardWords, cardText, sortCards, suitOf, rankOf, bestFive, RANKS, SUIT_LETTERS, SUIT_SYMBOLS } from "./cards.js";
import { coachPanel } from "./coach.js";
import { spaceName, suitSymbol, account, reasonWords, actionText, capital } from "./words.js";

const STAGES = {
  draw_for_dealer: "Drawing for the first dealer", dealing: "Dealing", spare: "The spare hand",
  auction: "Auction", pay_suit: "Naming the pay suit", choose_five: "Poker: choosing five cards",
  betting: "Poker: betting", showdown: "Poker: showing hands", michigan: "Michigan",
  final_pot: "The final pot", game_over: "Game over",
};

/** Seats in the order they sit, starting left of the viewer (the viewer last). */
function seatOrder(n) {
  const me = S.seat ?? n - 1;
  return Array.from({ length: n }, (_, i) => (me + 1 + i) % n);
}

/** Up to ten chips drawn as two short stacks (the number says the rest).
 * Placed from script: the page's CSP allows no inline style attributes. */
function chipPile(count) {
  return el("span", { class: "pile", "aria-hidden": "true" },
    Array.from({ length: Math.min(count, 10) }, (_, i) => {
      const chip = el("span", { class: "chip" });
      chip.style.setProperty("--col", String(Math.floor(i / 5)));
      chip.style.setProperty("--row", String(i % 5));
      return chip;
    }));
}

export function tableView() {
  const v = S.view;
  const turnSeat = S.turn ? S.turn.seat : v.to_act;
  const wrap = el("div", { class: "table tripoley" + (S.prefs.fourColour ? " four-colour" : "") });
  const notices = [coachPanel(v), ...S.results.filter((x) => !x.seen).map(resultPanel), v.standings ? gameOver(v) : null].filter(Boolean);
  wrap.append(statusBar(v, turnSeat));
  if (notices.length) wrap.append(el("div", { class: "notices" }, notices));
  // The others sit around the board as at a real table: clockwise from the
  // viewer's left, up the left side, across the top, down the right side.
  const others = seatOrder(v.players).filter((s) => s !== S.seat).map((s) => seatBox(v, s, turnSeat));
  const side = Math.floor((others.length + 1) / 3);
  const seats = el("section", { class: "seats-ring", "aria-label": "Players" },
    el("div", { class: "side side-left" }, others.slice(0, side)),
    el("div", { class: "side side-top" }, others.slice(side, others.length - side)),
    el("div", { class: "side side-right" }, others.slice(others.length - side)));
  const parts = [seats, board(v), playedRows(v), S.seat != null ? handView(v, turnSeat) : null, ledgerPanel(), logPanel()];
  wrap.append(...parts.filter(Boolean));
  return wrap;
}

function statusBar(v, turnSeat) {
  const bits = ["Deal " + Math.max(v.deal_number, 1) + " of " + v.deals_total, STAGES[v.stage] || v.stage];
  return el("section", { class: "status", "aria-label": "Status" },
    el("span", {}, bits.join(" · ")),
    turnSeat != null && !v.standings ? el("span", { class: "turn-line" },
      turnSeat === S.seat ? "Your turn" : name(turnSeat) + " to play",
      S.turn && S.turn.bot && turnSeat !== S.seat ? " (a bot plays)" : "",
      el("span", { class: "timer" })) : null);
}

function seatBox(v, s, turnSeat) {
  const info = S.table.seats[s] || {};
  const marks = [];
  if (s === v.dealer) marks.push(el("span", { class: "dealer-button", title: "Dealer", "aria-label": "dealer" }, "D"));
  if (info.kind === "bot") marks.push(el("span", { class: "tag" }, "bot"));
  else if (!info.connected && s !== S.seat) marks.push(el("span", { class: "tag away" }, "away"));
  if (v.out[s]) marks.push(el("span", { class: "tag" }, "out"));
  const betting = v.betting;
  const shown = s === S.seat ? [] : sortCards(v.known_cards[s] || []);
  const label = name(s) + ", " + v.stacks[s] + " chips, " + v.hand_sizes[s] + " cards" +
    (s === v.dealer ? ", dealer" : "") + (s === turnSeat ? ", to play" : "");
  return el("div", {
    class: "seat" + (s === turnSeat ? " active" : "") + (betting && betting.folded[s] ? " folded" : "") + (s === S.seat ? " me" : ""),
    "data-account": "stack:" + s, "aria-label": label, role: "group",
  },
  el("div", { class: "seat-top" }, el("strong", { class: "seat-name" }, name(s)), marks),
  el("div", { class: "seat-nums" },
    el("span", { class: "stack" }, el("span", { class: "chip-icon", "aria-hidden": "true" }), v.stacks[s]),
    el("span", { class: "cards-left", title: "cards in hand" }, el("span", { class: "back-icon", "aria-hidden": "true" }), v.hand_sizes[s])),
  betting ? el("div", { class: "seat-bet" }, betting.folded[s] ? "folded" : betting.contributed[s] ? "bet " + betting.contributed[s] : "") : null,
  // Once fives are chosen before the betting (the engine's `chose_five`).
  v.chose_five && v.chose_five[s] && !(betting && betting.folded[s]) ? el("div", { class: "seat-bet" }, "five cards set apart") : null,
  s === turnSeat && !v.standings ? el("div", { class: "clock" }, el("span", { class: "timer" })) : null,
  shown.length ? el("div", { class: "shown" }, shown.map((c) => cardFace(c, { small: true }))) : null);
}

function board(v) {
  const spaces = new Map(v.layout);
  const pay = v.pay_suit;
  const cell = (space) => spaces.has(space)
    ? el("div", { class: "space space-" + space, "data-account": "space:" + space, "aria-label": spaceName(space, pay) + ": " + spaces.get(space) + " chips", role: "img" },
      el("span", { class: "space-name" }, spaceName(space, pay)),
      chipPile(spaces.get(space)),
      el("span", { class: "space-count" }, spaces.get(space)))
    : null;
  const centre = spaces.has("pot") ? cell("pot") : el("div", { class: "space centre" },
    el("span", { class: "space-name" }, pay ? "Pay suit " + suitSymbol(pay) : "Pay suit to come"));
  const seq = v.sequence ? "Sequence " + sequenceWords(v.sequence) : null;
  return el("section", { class: "board", "aria-label": "The board" + (pay ? ", pay suit " + pay : "") },
    el("div", { class: "board-grid" },
      cell("ace"), cell("king"), cell("queen"),
      cell("jack"), centre, cell("ten"),
      cell("king_queen"), cell("sequence"), cell("kitty")),
    el("p", { class: "board-note" },
      pay ? "Pay suit " + suitSymbol(pay) + " " + pay : "Pay suit not yet named", seq ? " · " + seq : "",
      v.betting ? " · highest bet " + v.betting.current : "",
      v.auction && v.auction.high ? " · high bid " + v.auction.high[1] + " by " + name(v.auction.high[0]) : ""));
}

function sequenceWords(low) {
  const i = RANKS.indexOf(low);
  return i >= 0 && i + 2 < RANKS.length ? RANKS.slice(i, i + 3).join("-") : low;
}

function playedRows(v) {
  const all = v.played.flat();
  if (!all.length && v.stage !== "michigan") return null;
  const last = v.last_played && v.last_played[1];
  return el("section", { class: "played-rows", "aria-label": "Cards played" },
    SUIT_LETTERS.map((s) => {
      const row = sortCards(all.filter((c) => suitOf(c) === s));
      return el("div", { class: "suit-row" },
        el("span", { class: "row-suit suit-" + s, "aria-hidden": "true" }, SUIT_SYMBOLS[s]),
        row.map((c) => cardFace(c, { small: true, attrs: { class: c === last ? "landing last" : "" } })));
    }),
    v.last_played ? el("p", { class: "board-note" }, "Last card: " + cardText(v.last_played[1]) + " by " + name(v.last_played[0]),
      S.stopped ? " · the last run stopped: " + S.stopped : "") : null);
}

/** Players still in the game other than the viewer: who a misplay pays. */
function othersIn(v) {
  return v.out.filter((o, s) => !o && s !== S.seat).length;
}

function isMisplay(v, c) {
  const mine = v.hand.filter((x) => suitOf(x) === suitOf(c));
  return Math.min(...mine.map(rankOf)) !== rankOf(c);
}

/** Asks once before a costly move when a free one exists. */
function costly(key, question, yes, action) {
  if (S.confirm && S.confirm.key === key) return act(action);
  S.confirm = { key, question, yes, action };
  return null;
}

function handView(v, turnSeat) {
  const d = v.decision;
  const kind = d && (typeof d === "string" ? d : Object.keys(d)[0]);
  const body = d && typeof d === "object" ? d[kind] : null;
  const leads = kind === "lead" ? new Set(body.cards) : new Set();
  const choosing = kind === "choose_five";
  if (choosing && S.chosenFor !== S.last) {
    S.chosen = new Set(bestFive(body.from, S.table.settings.rules.ace_always_high));
    S.chosenFor = S.last;
  }
  const rerender = () => document.dispatchEvent(new Event("tripoley:render"));
  const misplayPrice = othersIn(v);
  const hand = sortCards(v.hand).map((c) => {
    const playable = leads.has(c) || choosing || (kind === "follow" && body.card === c);
    const misplay = leads.has(c) && isMisplay(v, c);
    const chosen = S.chosen.has(c);
    const inFive = !choosing && v.my_five && v.my_five.includes(c);
    const cls = (playable ? "playable" : leads.size || kind === "follow" ? "dimmed" : "") + (inFive ? " in-five" : "") + (chosen && choosing ? " chosen" : "") + (misplay ? " misplay" : "");
    // Only the cards that can be played now are buttons; the others are
    // dimmed while a card must be chosen, and plain otherwise.
    if (!playable) return cardFace(c, { attrs: { class: cls, "aria-label": cardWords(c) + (inFive ? ", in your poker five" : "") } });
    const face = cardFace(c, {
      tag: "button",
      attrs: {
        class: cls, "data-card": c,
        "aria-pressed": choosing ? String(chosen) : false,
        "aria-label": cardText(c) + (misplay ? ", a misplay: costs " + misplayPrice + " chips" : playable && !choosing ? ", play it" : ""),
        onclick: () => {
          if (leads.has(c)) {
            if (misplay) costly("lead-" + c, "Lead " + cardText(c) + "? It is not your lowest " + suitName(c) +
              ": a misplay. You pay 1 chip to each other player (" + misplayPrice + " in all) and can collect no pay space for the rest of this deal.", "Lead it anyway", { lead: c });
            else act({ lead: c });
          } else if (kind === "follow") act("play");
          else if (choosing) {
            if (chosen) S.chosen.delete(c);
            else if (S.chosen.size < 5) S.chosen.add(c);
          }
          rerender();
        },
      },
    });
    return misplay ? el("span", { class: "card-slot" }, face, el("span", { class: "price" }, "misplay −" + misplayPrice)) : face;
  });
  const controls = decisionControls(v, kind, body, rerender);
  const mine = !!d;
  return el("section", { class: "hand" + (mine ? " mine" : ""), "aria-label": "Your hand", "data-decision": (mine && kind) || false },
    el("div", { class: "hand-head" },
      seatBox(v, S.seat, turnSeat),
      el("h2", { class: "prompt" }, d ? prompt(kind, body) : "Your hand")),
    el("div", { class: "cards" }, hand),
    v.my_five && v.my_five.length && !choosing ? el("p", { class: "note" }, "Your poker five are marked with a gold bar.") : null,
    controls);
}

function suitName(c) {
  return { C: "club", D: "diamond", H: "heart", S: "spade" }[suitOf(c)];
}

function prompt(kind, body) {
  switch (kind) {
    case "spare_option": return "Swap your hand for the spare (unseen)?";
    case "auction_bid": return body.item === "spare" ? "Bid for the spare hand" : "Bid for the dealer's old hand";
    case "pay_suit_bid": return "Bid for the right to name the pay suit";
    case "name_pay_suit": return "Name the pay suit";
    case "open": return "Check or bet?";
    case "respond": return "Call " + body.to_call + ", raise or fold?";
    case "choose_five": return "Pick your five poker cards";
    case "lead": return "Lead a card";
    case "follow": return "Play " + cardText(body.card) + " or hold it back?";
    default: return "Your move";
  }
}

function decisionControls(v, kind, body, rerender) {
  const controls = el("div", { class: "controls" });
  const button = (label, action, key, cls = "") => el("button", { "data-key": key || action, class: cls, onclick: () => act(action) }, label);
  const amount = (label, verb, min, max) => {
    const input = el("input", { type: "number", min, max, value: min, "aria-label": label + " (" + min + " to " + max + ")", "data-key": verb + "-n" });
    return el("span", { class: "amount" }, input, el("button", { "data-key": verb, class: "primary", onclick: () => act({ [verb]: Number(input.value) }) }, label));
  };
  switch (kind) {
    case "spare_option":
      controls.append(button("Keep my hand", "keep"));
      if (body.can_swap) controls.append(button("Swap for the spare", "swap"));
      if (body.can_auction) controls.append(button("Keep, and auction the spare", "auction_spare"));
      if (body.can_swap_and_auction) controls.append(button("Swap, then auction my old hand", "swap_and_auction"));
      break;
    case "auction_bid":
    case "pay_suit_bid":
      controls.append(amount("Bid", "bid", body.min, body.max), button("Pass", "pass"));
      break;
    case "name_pay_suit":
      for (const s of ["clubs", "diamonds", "hearts", "spades"]) controls.append(button(suitSymbol(s) + " " + s, { name_suit: s }, "suit-" + s));
      break;
    case "open":
      controls.append(button("Check", "check", "check", "primary"));
      if (body.max_bet > 0) controls.append(amount("Bet", "bet", 1, body.max_bet));
      break;
    case "respond": {
      const fold = el("button", {
        "data-key": "fold",
        onclick: () => {
          // Folding costs nothing more only when calling would cost something.
          if (body.to_call === 0) costly("fold", "Fold? You could stay in for free.", "Fold anyway", "fold");
          else act("fold");
          rerender();
        },
      }, "Fold");
      controls.append(fold, button(body.to_call ? "Call " + body.to_call : "Stay in", "call", "call", "primary"));
      if (body.max_raise > 0) controls.append(amount("Raise", "raise", 1, body.max_raise));
      break;
    }
    case "choose_five":
      controls.append(el("span", { class: "note" }, S.chosen.size + " of 5 picked (the best five are picked for you)"),
        el("button", {
          "data-key": "choose", class: "primary", disabled: S.chosen.size !== 5,
          onclick: () => act({ [CHOOSE_FIVE]: [...S.chosen] }),
        }, "These five"));
      break;
    case "lead":
      controls.append(el("span", { class: "note" }, "Tap a raised card to lead it."));
      break;
    case "follow":
      controls.append(button("Play " + cardText(body.card), "play", "play", "primary"),
        el("button", {
          "data-key": "withhold",
          onclick: () => {
            costly("withhold", "Hold back " + cardText(body.card) + "? The run stops; you can collect no pay space for the rest of this deal, " +
              "and after Michigan you pay the chips on each pay space whose card, of a suit you held back in, is still in another player's hand.",
            "Hold it back anyway", "withhold");
            rerender();
          },
        }, "Hold it back"));
      break;
    default:
      break;
  }
  if (S.confirm) {
    controls.append(el("div", { class: "confirm", role: "alertdialog", "aria-label": "Are you sure?" },
      el("p", {}, S.confirm.question),
      el("button", { "data-key": "confirm", class: "danger", onclick: () => act(S.confirm.action) }, S.confirm.yes),
      el("button", { "data-key": "cancel", onclick: () => { S.confirm = null; rerender(); } }, "Cancel")));
  }
  if (kind) {
    controls.append(el("button", { "data-key": "hint", class: "hint", onclick: () => send({ type: "hint" }) }, "Hint"));
    if (S.hint) {
      const fill = kind === "choose_five" && S.hint[CHOOSE_FIVE];
      if (fill) {
        S.chosen = new Set(fill);
        S.hint = null;
        rerender();
      } else controls.append(el("span", { class: "hint-text", role: "status" }, "The expert would " + actionText(S.hint) + "."));
    }
  }
  return controls;
}

function resultPanel(r) {
  const t = r.tally;
  const sec = (title, lines) => (lines.length ? el("div", { class: "result-part" }, el("h3", {}, title), el("ul", {}, lines.map((l) => el("li", {}, capital(l))))) : null);
  const nets = t.net.map((x, s) => ({ s, x })).filter((p) => p.x !== 0 || S.view.stacks[p.s] > 0);
  const michigan = [t.michiganEnd(), ...t.michigan].filter(Boolean);
  return el("section", { class: "result panel", "aria-label": "Result of deal " + t.number, "data-deal": t.number },
    el("h2", {}, t.final ? "The final pot" : "Deal " + t.number + ": the result"),
    t.anteLine() ? el("p", {}, t.anteLine()) : null,
    sec("Spaces taken", t.claims),
    sec("Poker", [...t.poker, ...(t.folded.length ? [t.folded.join(", ") + " folded"] : []), ...t.pots]),
    sec("Michigan", michigan),
    el("div", { class: "result-part" }, el("h3", {}, "This deal"),
      el("ul", { class: "nets" }, nets.map((p) => el("li", { class: p.x > 0 ? "up" : p.x < 0 ? "down" : "" },
        name(p.s) + " " + (p.x > 0 ? "+" : "") + p.x)))),
    el("button", { "data-key": "seen-" + t.number, class: "primary", onclick: () => { r.seen = true; document.dispatchEvent(new Event("tripoley:render")); } }, "Got it"));
}

function gameOver(v) {
  const order = [...v.standings].sort((a, b) => b.chips - a.chips);
  const winners = order.filter((s) => s.winner).map((s) => name(s.seat));
  return el("section", { class: "game-over panel", "aria-label": "Final standings" },
    el("h2", {}, "Game over"),
    el("p", { class: "winner" }, winners.length > 1 ? winners.join(" and ") + " share the win." : winners[0] + " wins!"),
    el("ol", { class: "standings" }, order.map((s) => el("li", {}, el("span", {}, name(s.seat)), el("span", { class: "chips" }, s.chips + " chips"), s.winner ? el("span", { class: "tag win" }, "winner") : null))),
    S.finalTally && S.finalTally.poker.length ? el("p", {}, "Final pot: " + [...S.finalTally.poker, ...S.finalTally.pots].join("; ") + ".") : null,
    S.seat != null || S.host ? el("button", { "data-key": "rematch", class: "primary", onclick: () => document.dispatchEvent(new Event("tripoley:rematch")) }, "Rematch") : null,
    S.rematch ? el("p", { class: "error", role: "alert" }, S.rematch) : null);
}

function ledgerPanel() {
  const t = S.deal;
  if (!t) return null;
  const moves = t.ledger.filter((x) => x.reason !== "ante");
  const line = (x) => el("li", {}, capital(account(x.from)) + " → " + account(x.to) + ": " + x.amount + " (" + reasonWords(x.reason) + ")");
  return el("section", { class: "ledger panel", "aria-label": "This deal's ledger" },
    el("h2", {}, "This deal's chips"),
    t.anteLine() ? el("p", {}, t.anteLine()) : null,
    el("ul", {}, moves.slice(-12).map(line)),
    el("details", {}, el("summary", {}, "Full ledger"), el("ol", {}, t.ledger.map(line))));
}

/** What happened, newest last (a scrolled list, so it takes the focus). */
export function logPanel(open = false) {
  const log = el("ol", { class: "log", "aria-live": "polite", tabindex: 0, "aria-label": "What happened" },
    S.log.slice(-60).map((l) => el("li", {}, l.text)));
  requestAnimationFrame(() => { log.scrollTop = log.scrollHeight; });
  return el("details", { class: "panel log-panel", open }, el("summary", {}, "What happened"), log);
}

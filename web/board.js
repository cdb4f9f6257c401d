// @ts-check
// The Tripoley table: seats around the board, the board with its chip
// piles, the cards played in Michigan by suit, your hand, your decision in
// words, the result of each deal and the end of the game.

import { el, keptOpen } from "./dom.js";
import { prefs, CHOOSE_FIVE } from "./state.js";
import { cardFace, cardWords, cardText, sortCards, suitOf, rankOf, bestFive, RANKS, SUIT_LETTERS, SUIT_SYMBOLS } from "./cards.js";
import { coachPanel } from "./coach.js";
import { freeSeatButton, overHeading, rematchButton } from "./seats.js";
import { spaceName, suitSymbol, suitWord, actionText, capital, names, ledgerLine } from "./words.js";
import { t } from "./i18n.js";

/** @typedef {import("./table.js").Table} Table */
/** @typedef {import("./frames.js").View} View */
/** @typedef {import("./frames.js").SeatInfo} SeatInfo */

/** Seats in the order they sit, starting left of the viewer (the viewer last). */
function seatOrder(/** @type {Table} */ ctl, /** @type {number} */ n) {
  const me = ctl.seat ?? n - 1;
  return Array.from({ length: n }, (_, i) => (me + 1 + i) % n);
}

/** Up to ten chips drawn as two short stacks (the number says the rest).
 * Placed from script: the page's CSP allows no inline style attributes. */
function chipPile(/** @type {number} */ count) {
  return el("span", { class: "pile", "aria-hidden": "true" },
    Array.from({ length: Math.min(count, 10) }, (_, i) => {
      const chip = el("span", { class: "chip" });
      chip.style.setProperty("--col", String(Math.floor(i / 5)));
      chip.style.setProperty("--row", String(i % 5));
      return chip;
    }));
}

export function tableView(/** @type {Table} */ ctl) {
  const v = /** @type {View} */ (ctl.view);
  const turnSeat = ctl.turn ? ctl.turn.seat : v.to_act;
  const unread = ctl.results.filter((x) => !x.seen);
  // While a deal's result is up, the hand stays in its place below the
  // board instead of docking over the result's last lines.
  const wrap = el("div", { class: "table tripoley" + (prefs.fourColour ? " four-colour" : "") + (unread.length ? " reading" : "") });
  // A replayed step (`ctl.replaying`) is words only: no guide, no control.
  const notices = [ctl.replaying ? null : coachPanel(ctl, v), ...unread.map((r) => resultPanel(ctl, r)), v.standings ? gameOver(ctl, v) : null].filter(Boolean);
  wrap.append(statusBar(ctl, v, turnSeat));
  if (ctl.timedOut) notices.unshift(el("p", { class: "panel timed-out", role: "alert" }, t("notice-time-ran-out")));
  if (notices.length) wrap.append(el("div", { class: "notices" }, notices));
  // The others sit around the board as at a real table: clockwise from the
  // viewer's left, up the left side, across the top, down the right side.
  const others = seatOrder(ctl, v.players).filter((s) => s !== ctl.seat).map((s) => seatBox(ctl, v, s, turnSeat));
  const side = Math.floor((others.length + 1) / 3);
  const seats = el("section", { class: "seats-ring", "aria-label": t("table-players") },
    el("div", { class: "side side-left" }, others.slice(0, side)),
    el("div", { class: "side side-top" }, others.slice(side, others.length - side)),
    el("div", { class: "side side-right" }, others.slice(others.length - side)));
  const parts = [seats, board(ctl, v), playedRows(ctl, v), ctl.seat != null ? handView(ctl, v, turnSeat) : null, ledgerPanel(ctl), logPanel(ctl)];
  wrap.append(...parts.filter(Boolean));
  return wrap;
}

function statusBar(/** @type {Table} */ ctl, /** @type {View} */ v, /** @type {number | null} */ turnSeat) {
  const bits = [t("table-deal-of", { n: Math.max(v.deal_number, 1), total: v.deals_total }), t("stage", { stage: v.stage })];
  return el("section", { class: "status", "aria-label": t("table-status") },
    el("span", {}, bits.join(" · ")),
    turnSeat != null && !v.standings ? el("span", { class: "turn-line" },
      turnSeat === ctl.seat && !ctl.replaying ? t("table-your-turn") : t("table-to-play", { who: ctl.name(turnSeat) }),
      ctl.turn && ctl.turn.bot && turnSeat !== ctl.seat ? " " + t("table-bot-plays") : "",
      el("span", { class: "timer" })) : null);
}

/** The seats' chips as the deal whose result is open left them: the next
 * deal's antes, and whatever it has moved since, are taken back out, so
 * the result's nets are what the stacks beside them changed by (issue 50).
 * @param {Table} ctl @param {View} v @returns {number[]} */
export function stacksShown(ctl, v) {
  const open = ctl.results.find((r) => !r.seen);
  if (!open) return v.stacks;
  const later = ctl.results.filter((r) => r.tally.number > open.tally.number).map((r) => r.tally);
  if (ctl.deal && ctl.deal !== open.tally && !later.includes(ctl.deal)) later.push(ctl.deal);
  return v.stacks.map((x, s) => later.reduce((left, tally) => left - (tally.net[s] || 0), x));
}

function seatBox(/** @type {Table} */ ctl, /** @type {View} */ v, /** @type {number} */ s, /** @type {number | null} */ turnSeat) {
  const info = ctl.table.seats[s] || /** @type {Partial<SeatInfo>} */ ({});
  const marks = [];
  if (s === v.dealer) marks.push(dealerButton());
  if (info.kind === "bot") marks.push(el("span", { class: "tag" }, t("tag-bot", { level: t("bot-level-in-sentence", { level: info.bot || ctl.table.settings.bot }) })));
  else if (!info.connected && s !== ctl.seat) marks.push(el("span", { class: "tag away" }, t("tag-away")));
  if (v.out[s]) marks.push(el("span", { class: "tag" }, t("tag-out")));
  const betting = v.betting;
  const shown = s === ctl.seat ? [] : sortCards(v.known_cards[s] || []);
  const chips = stacksShown(ctl, v)[s];
  const label = t("seat-label", { who: ctl.name(s), chips, cards: v.hand_sizes[s],
    dealer: s === v.dealer ? "yes" : "no", turn: s === turnSeat ? "yes" : "no" });
  return el("div", {
    class: "seat" + (s === turnSeat ? " active" : "") + (betting && betting.folded[s] ? " folded" : "") + (s === ctl.seat ? " me" : ""),
    "data-account": "stack:" + s, "aria-label": label, role: "group",
  },
  el("div", { class: "seat-top" }, el("strong", { class: "seat-name", dir: "auto" }, ctl.name(s)), marks),
  freeSeatButton(ctl, info),
  el("div", { class: "seat-nums" },
    el("span", { class: "stack" }, el("span", { class: "chip-icon", "aria-hidden": "true" }), chips),
    el("span", { class: "cards-left", title: t("seat-cards-title") }, el("span", { class: "back-icon", "aria-hidden": "true" }), v.hand_sizes[s])),
  betting ? el("div", { class: "seat-bet" }, betting.folded[s] ? t("seat-folded") : betting.contributed[s] ? t("seat-bet", { n: betting.contributed[s] }) : "") : null,
  // Once fives are chosen before the betting (the engine's `chose_five`).
  v.chose_five && v.chose_five[s] && !(betting && betting.folded[s]) ? el("div", { class: "seat-bet" }, t("seat-five-apart")) : null,
  s === turnSeat && !v.standings ? clock() : null,
  shown.length ? el("div", { class: "shown" }, shown.map((c) => cardFace(c, { small: true }))) : null);
}

/** The clock of whoever must act: the seconds left, or "to play" when the
 * table has no timer (the style sheet shows the word when it is empty). */
export function clock() {
  return el("div", { class: "clock" }, el("span", { class: "timer", "data-empty": t("clock-to-play") }));
}

/** The dealer's button: "D" in English, "R" (repartidor) in Spanish. */
export function dealerButton() {
  return el("span", { class: "dealer-button", title: t("dealer"), "aria-label": t("dealer") }, t("dealer-mark"));
}

function board(/** @type {Table} */ ctl, /** @type {View} */ v) {
  const spaces = new Map(v.layout);
  const pay = v.pay_suit;
  const cell = (/** @type {string} */ space) => spaces.has(space)
    ? el("div", { class: "space space-" + space, "data-account": "space:" + space, "aria-label": t("space-label", { space: spaceName(space, pay), chips: spaces.get(space) }), role: "img" },
      el("span", { class: "space-name" }, spaceName(space, pay)),
      chipPile(spaces.get(space)),
      el("span", { class: "space-count" }, spaces.get(space)))
    : null;
  const centre = spaces.has("pot") ? cell("pot") : el("div", { class: "space centre" },
    el("span", { class: "space-name" }, pay ? t("board-pay-suit", { symbol: suitSymbol(pay) }) : t("board-pay-suit-to-come")));
  const seq = v.sequence ? t("board-sequence", { run: sequenceWords(v.sequence) }) : null;
  return el("section", { class: "board", "aria-label": pay ? t("board-label-suit", { suit: pay }) : t("board-label") },
    el("div", { class: "board-grid" },
      cell("ace"), cell("king"), cell("queen"),
      cell("jack"), centre, cell("ten"),
      cell("king_queen"), cell("sequence"), cell("kitty")),
    el("p", { class: "board-note" },
      pay ? t("board-pay-suit-named", { symbol: suitSymbol(pay), suit: pay }) : t("board-pay-suit-unnamed"), seq ? " · " + seq : "",
      v.betting ? " · " + t("board-highest-bet", { n: v.betting.current }) : "",
      v.auction && v.auction.high ? " · " + t("board-high-bid", { n: v.auction.high[1], who: ctl.name(v.auction.high[0]) }) : ""));
}

function sequenceWords(/** @type {string} */ low) {
  const i = RANKS.indexOf(low);
  return i >= 0 && i + 2 < RANKS.length ? RANKS.slice(i, i + 3).join("-") : low;
}

function playedRows(/** @type {Table} */ ctl, /** @type {View} */ v) {
  const all = v.played.flat();
  if (!all.length && v.stage !== "michigan") return null;
  const last = v.last_played && v.last_played[1];
  return el("section", { class: "played-rows", "aria-label": t("played-label") },
    SUIT_LETTERS.map((s) => {
      const row = sortCards(all.filter((c) => suitOf(c) === s));
      return el("div", { class: "suit-row" },
        el("span", { class: "row-suit suit-" + s, "aria-hidden": "true" }, SUIT_SYMBOLS[s]),
        row.map((c) => cardFace(c, { small: true, attrs: { class: c === last ? "last" : "", "data-played": c } })));
    }),
    v.last_played ? el("p", { class: "board-note" }, t("played-last", { card: cardText(v.last_played[1]), who: ctl.name(v.last_played[0]) }),
      ctl.stopped ? " · " + t("played-stopped", { why: ctl.stopped }) : "") : null);
}

/** Players still in the game other than the viewer: who a misplay pays. */
function othersIn(/** @type {Table} */ ctl, /** @type {View} */ v) {
  return v.out.filter((o, s) => !o && s !== ctl.seat).length;
}

function isMisplay(/** @type {View} */ v, /** @type {string} */ c) {
  const mine = v.hand.filter((x) => suitOf(x) === suitOf(c));
  return Math.min(...mine.map(rankOf)) !== rankOf(c);
}

/** Asks once before a costly move when a free one exists. */
/** Whether this player held the card a run waits at back, at a server:
 * the answer is in, and the server shows the stop when the clock runs out;
 * until then it takes no other answer. */
function heldBack(/** @type {Table} */ ctl) {
  return ctl.withheldAt === ctl.last && !!ctl.turn && ctl.turn.ms != null;
}

function costly(/** @type {Table} */ ctl, /** @type {string} */ key, /** @type {string} */ question, /** @type {string} */ yes, /** @type {unknown} */ action) {
  if (ctl.confirm && ctl.confirm.key === key) return ctl.act(action);
  ctl.confirm = { key, question, yes, action };
  return null;
}

function handView(/** @type {Table} */ ctl, /** @type {View} */ v, /** @type {number | null} */ turnSeat) {
  const d = v.decision;
  const kind = d && (typeof d === "string" ? d : Object.keys(d)[0]);
  const body = d && typeof d === "object" ? d[kind] : null;
  const leads = kind === "lead" ? new Set(body.cards) : new Set();
  const choosing = kind === "choose_five";
  // The best five are picked once, when the choice is first drawn; later
  // updates (another player's move) keep what the player picked since.
  const choice = choosing && v.deal_number + ":" + body.from.join(",");
  if (choosing && ctl.chosenFor !== choice) {
    ctl.best = bestFive(body.from, ctl.table.settings.rules.ace_always_high);
    ctl.chosen = new Set(ctl.best);
    ctl.chosenFor = choice;
  }
  const rerender = () => ctl.redraw();
  const misplayPrice = othersIn(ctl, v);
  const hand = sortCards(v.hand).map((c) => {
    const playable = leads.has(c) || choosing || (kind === "follow" && body.card === c && !heldBack(ctl));
    const misplay = leads.has(c) && isMisplay(v, c);
    const chosen = ctl.chosen.has(c);
    const inFive = !choosing && v.my_five && v.my_five.includes(c);
    const cls = (playable ? "playable" : leads.size || kind === "follow" ? "dimmed" : "") + (inFive ? " in-five" : "") + (chosen && choosing ? " chosen" : "") + (misplay ? " misplay" : "");
    // Only the cards that can be played now are buttons; the others are
    // dimmed while a card must be chosen, and plain otherwise.
    if (!playable) return cardFace(c, { attrs: { class: cls, "aria-label": inFive ? t("card-in-five", { card: cardWords(c) }) : cardWords(c) } });
    const face = cardFace(c, {
      tag: "button",
      attrs: {
        class: cls, "data-card": c,
        "aria-pressed": choosing ? String(chosen) : false,
        "aria-label": misplay ? t("card-misplay-label", { card: cardText(c), n: misplayPrice }) : !choosing ? t("card-play-label", { card: cardText(c) }) : cardText(c),
        onclick: () => {
          if (leads.has(c)) {
            if (misplay) costly(ctl, "lead-" + c, t("confirm-misplay", { card: cardText(c), suit: suitOf(c), n: misplayPrice }), t("confirm-misplay-yes"), { lead: c });
            else ctl.act({ lead: c });
          } else if (kind === "follow") ctl.act("play");
          else if (choosing) {
            if (chosen) ctl.chosen.delete(c);
            else if (ctl.chosen.size < 5) ctl.chosen.add(c);
          }
          rerender();
        },
      },
    });
    return misplay ? el("span", { class: "card-slot" }, face, el("span", { class: "price" }, t("misplay-price", { n: misplayPrice }))) : face;
  });
  const controls = decisionControls(ctl, v, kind, body, rerender);
  const mine = !!d;
  const label = ctl.ownWords(t("hand-label"), (who) => t("hand-label-of", { who }), ctl.seat);
  return el("section", { class: "hand" + (mine ? " mine" : ""), "aria-label": label, "data-decision": (mine && kind) || false, "data-n": ctl.last },
    el("div", { class: "hand-head" },
      seatBox(ctl, v, ctl.seat, turnSeat),
      el("h2", { class: "prompt" }, d ? prompt(kind, body) : label)),
    mine && ctl.turn && ctl.turn.ms != null ? el("div", { class: "turn-bar", "aria-hidden": "true" }) : null,
    el("div", { class: "cards" }, hand),
    v.my_five && v.my_five.length && !choosing ? el("p", { class: "note" }, ctl.ownWords(t("hand-five-marked"), (who) => t("hand-five-marked-of", { who }), ctl.seat)) : null,
    controls);
}

function prompt(/** @type {string} */ kind, /** @type {any} */ body) {
  return t("prompt", {
    kind, item: (body && body.item) || "other", n: (body && body.to_call) || 0,
    card: body && body.card ? cardText(body.card) : "",
  });
}

function decisionControls(/** @type {Table} */ ctl, /** @type {View} */ v, /** @type {string} */ kind, /** @type {any} */ body, /** @type {() => void} */ rerender) {
  const controls = el("div", { class: "controls" });
  const button = (/** @type {string} */ label, /** @type {unknown} */ action, /** @type {string} */ key = "", cls = "") => el("button", { "data-key": key || action, class: cls, onclick: () => ctl.act(action) }, label);
  const amount = (/** @type {string} */ label, /** @type {string} */ verb, /** @type {number} */ min, /** @type {number} */ max) => {
    const input = el("input", { type: "number", min, max, value: min, "aria-label": t("amount-label", { what: label, min, max }), "data-key": verb + "-n" });
    return el("span", { class: "amount" }, input, el("button", { "data-key": verb, class: "primary", onclick: () => ctl.act({ [verb]: Number(input.value) }) }, label));
  };
  switch (kind) {
    case "spare_option":
      controls.append(button(t("btn-keep"), "keep"));
      if (body.can_swap) controls.append(button(t("btn-swap"), "swap"));
      if (body.can_auction) controls.append(button(t("btn-auction-spare"), "auction_spare"));
      if (body.can_swap_and_auction) controls.append(button(t("btn-swap-and-auction"), "swap_and_auction"));
      break;
    case "auction_bid":
    case "pay_suit_bid":
      if (body.min > body.max) {
        // Nothing to bid: a bonus card in hand (michigan-casino) or no chips.
        // The player passes by themselves, as everyone does, so nobody can
        // tell why.
        const why = (v.stacks[ctl.seat] || 0) < body.min ? "chips" : "bonus";
        controls.append(el("span", { class: "note" }, t("bid-none", { why })), button(t("btn-pass"), "pass", "pass", "primary"));
      } else {
        controls.append(amount(t("btn-bid"), "bid", body.min, body.max), button(t("btn-pass"), "pass"));
      }
      break;
    case "name_pay_suit":
      for (const s of ["clubs", "diamonds", "hearts", "spades"]) controls.append(button(suitSymbol(s) + " " + suitWord(s), { name_suit: s }, "suit-" + s));
      break;
    case "open":
      controls.append(button(t("btn-check"), "check", "check", "primary"));
      if (body.max_bet > 0) controls.append(amount(t("btn-bet"), "bet", 1, body.max_bet));
      break;
    case "respond": {
      const fold = el("button", {
        "data-key": "fold",
        onclick: () => {
          // Folding costs nothing more only when calling would cost something.
          if (body.to_call === 0) costly(ctl, "fold", t("confirm-fold"), t("confirm-fold-yes"), "fold");
          else ctl.act("fold");
          rerender();
        },
      }, t("btn-fold"));
      controls.append(fold, button(body.to_call ? t("btn-call", { n: body.to_call }) : t("btn-stay"), "call", "call", "primary"));
      if (body.max_raise > 0) controls.append(amount(t("btn-raise"), "raise", 1, body.max_raise));
      break;
    }
    case "choose_five":
      // "Picked for you" only while they are: not once the player changed them.
      controls.append(el("span", { class: "note" }, t("five-picked", { n: ctl.chosen.size, best: ctl.best.length === ctl.chosen.size && ctl.best.every((c) => ctl.chosen.has(c)) ? "yes" : "no" })),
        el("button", {
          "data-key": "choose", class: "primary", disabled: ctl.chosen.size !== 5,
          onclick: () => ctl.act({ [CHOOSE_FIVE]: [...ctl.chosen] }),
        }, t("btn-these-five")));
      break;
    case "lead":
      // One card: still asked (the others must not learn that it was the
      // only one), so the button says so and plays it.
      if (body.cards.length === 1) controls.append(button(t("btn-lead-only", { card: cardText(body.cards[0]) }), { lead: body.cards[0] }, "lead-only", "primary"));
      else controls.append(el("span", { class: "note" }, t("lead-help")));
      break;
    case "follow":
      if (heldBack(ctl)) {
        controls.append(el("span", { class: "note withheld", role: "status" }, t("follow-withheld", { card: cardText(body.card) })));
        break;
      }
      controls.append(button(t("btn-play", { card: cardText(body.card) }), "play", "play", "primary"),
        el("button", {
          "data-key": "withhold",
          onclick: () => {
            costly(ctl, "withhold", t("confirm-withhold", { card: cardText(body.card) }), t("confirm-withhold-yes"), "withhold");
            rerender();
          },
        }, t("btn-withhold")));
      // At a server the answer is time-boxed (issue 49): the stop shows
      // when the clock runs out, withheld or not.
      if (ctl.turn && ctl.turn.ms != null) controls.append(el("span", { class: "note" }, t("follow-window", { card: cardText(body.card) })));
      break;
    default:
      break;
  }
  if (ctl.confirm) {
    controls.append(el("div", { class: "confirm", role: "alertdialog", "aria-label": t("confirm-label") },
      el("p", {}, ctl.confirm.question),
      el("button", { "data-key": "confirm", class: "danger", onclick: () => ctl.act(ctl.confirm.action) }, ctl.confirm.yes),
      el("button", { "data-key": "cancel", onclick: () => { ctl.confirm = null; rerender(); } }, t("btn-cancel"))));
  }
  if (kind) {
    controls.append(el("button", { "data-key": "hint", class: "hint", onclick: () => ctl.send({ type: "hint" }) }, t("btn-hint")));
    if (ctl.hint) controls.append(el("span", { class: "hint-text", role: "status" }, t("hint-expert", { action: actionText(ctl.hint) })));
    // A hint's five are picked on screen: say so, or that they already were.
    const hinted = ctl.hintFive;
    if (kind === "choose_five" && hinted && hinted.five.join() === [...ctl.chosen].sort().join()) {
      controls.append(el("span", { class: "hint-text", role: "status" }, t("hint-five", { same: hinted.same ? "yes" : "no" })));
    }
  }
  return controls;
}

/** One line of a result; what it moved per seat rides along as
 * `data-delta` ("0:-3 1:3"), which the browser tests add up. */
function resultLine(/** @type {import("./summary.js").Line} */ l) {
  return el("li", { "data-delta": Object.entries(l.delta).map(([s, n]) => s + ":" + n).join(" ") }, capital(l.text));
}

function resultPanel(/** @type {Table} */ ctl, /** @type {{ tally: import("./summary.js").DealTally, seen: boolean }} */ r) {
  const tally = r.tally;
  const sec = (/** @type {string} */ title, /** @type {import("./summary.js").Line[]} */ lines) => (lines.length ? el("div", { class: "result-part" }, el("h3", {}, title), el("ul", {}, lines.map(resultLine))) : null);
  const nets = tally.net.map((x, s) => ({ s, x })).filter((p) => p.x !== 0 || ctl.view.stacks[p.s] > 0);
  const michigan = [tally.michiganEnd(), ...tally.michigan].filter(Boolean);
  const ante = tally.anteLine();
  // Said of the open result's deal only, and never after the last deal.
  const stays = !(/** @type {View} */ (ctl.view)).standings && tally === (ctl.results.find((x) => !x.seen) || {}).tally ? onTheBoard(ctl) : 0;
  return el("section", { class: "result panel", "aria-label": t("result-label", { n: tally.number }), "data-deal": tally.number },
    el("h2", {}, tally.final ? t("result-final") : t("result-title", { n: tally.number })),
    ante ? el("ul", { class: "antes" }, resultLine(ante)) : null,
    sec(t("result-spaces"), tally.claims),
    sec(t("result-other"), tally.other),
    sec(t("result-poker"), tally.pokerLines()),
    sec(t("result-michigan"), michigan),
    el("div", { class: "result-part" }, el("h3", {}, t("result-this-deal")),
      el("ul", { class: "nets" }, nets.map((p) => el("li", { class: p.x > 0 ? "up" : p.x < 0 ? "down" : "", "data-seat": p.s, "data-net": p.x },
        t("result-net", { who: ctl.name(p.s), n: (p.x > 0 ? "+" : "") + p.x })))),
      stays ? el("p", { class: "stays", "data-stays": stays }, t("result-stays", { n: stays })) : null),
    el("button", { "data-key": "seen-" + tally.number, class: "primary", onclick: () => {
      r.seen = true;
      // The button goes away with the result: the focus goes (back) to the decision waiting.
      ctl.focusedFor = null;
      ctl.redraw();
    } }, t("btn-got-it")));
}

/** The chips left on the board when the open result's deal ended: every
 * chip in play (the seats' and the board's now) less the seats' then. Why
 * the nets do not add up to nothing. @param {Table} ctl */
function onTheBoard(ctl) {
  const v = /** @type {View} */ (ctl.view);
  const sum = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0);
  const inPlay = sum(v.stacks) + sum(v.layout.map(([, n]) => n));
  return inPlay - sum(stacksShown(ctl, v));
}

function gameOver(/** @type {Table} */ ctl, /** @type {View} */ v) {
  const order = [...v.standings].sort((a, b) => b.chips - a.chips);
  const winners = order.filter((s) => s.winner).map((s) => ctl.name(s.seat));
  return el("section", { class: "game-over panel", "aria-label": t("standings-label") },
    overHeading(ctl),
    el("p", { class: "winner" }, t("winners", { who: names(winners), count: winners.length })),
    el("ol", { class: "standings" }, order.map((s) => el("li", {}, el("span", {}, ctl.name(s.seat)), el("span", { class: "chips" }, t("chips-n", { n: s.chips })), s.winner ? el("span", { class: "tag win" }, t("tag-winner")) : null))),
    ctl.finalTally && ctl.finalTally.shown.length ? el("p", {}, t("final-pot-line", { what: ctl.finalTally.pokerLines().map((l) => l.text).join("; ") })) : null,
    ctl.replaying ? null : rematchButton(ctl, ctl.seat != null || ctl.host),
    ctl.rematchFailed ? el("p", { class: "error", role: "alert" }, ctl.rematchFailed) : null,
    replayButton(ctl));
}

/** The game-over screen's way into the replay (none inside a replay). */
export function replayButton(/** @type {Table} */ ctl) {
  return ctl.replaying ? null : el("button", { "data-key": "replay", onclick: () => import("./replay.js").then((m) => m.openReplay(ctl)) }, t("btn-replay"));
}

function ledgerPanel(/** @type {Table} */ ctl) {
  const tally = ctl.deal;
  if (!tally) return null;
  const moves = tally.ledger.filter((x) => x.reason !== "ante");
  const line = (/** @type {import("./frames.js").GameEvent} */ x) => el("li", {}, ledgerLine(x, ctl));
  return el("section", { class: "ledger panel", "aria-label": t("ledger-label") },
    el("h2", {}, t("ledger-title")),
    tally.anteLine() ? el("p", {}, tally.anteLine().text) : null,
    el("ul", {}, moves.slice(-12).map(line)),
    keptOpen(ctl.open, "ledger-full", t("ledger-full"), () => el("ol", {}, tally.ledger.map(line))));
}

/** What happened, newest last (a scrolled list, so it takes the focus). It
 * stays open or closed as the player left it, and follows the newest line
 * unless the player scrolled back to read (`data-follow`: see app.js). */
export function logPanel(/** @type {Table} */ ctl, openAtFirst = false) {
  const log = () => el("ol", { class: "log", "aria-live": "polite", tabindex: 0, "aria-label": t("log-title"), "data-keep-scroll": "log", "data-follow": true },
    ctl.log.slice(-60).map((l) => el("li", {}, l.text)));
  // Opened, it shows the newest line.
  return keptOpen(ctl.open, "log-panel", t("log-title"), log, {
    attrs: { class: "panel" }, openAtFirst,
    onOpen: (panel) => requestAnimationFrame(() => {
      const list = panel.querySelector(".log");
      list.scrollTop = list.scrollHeight;
    }),
  });
}

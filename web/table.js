// @ts-check
// One table in the page: its controller. It holds the table's state (what
// the viewer knows of it, and what its screen keeps between two drawings)
// and its link (a websocket to the server, the offline game's worker, or
// none for a replay); it takes in what comes over the link and sends what
// the player does. Views take the controller as their argument and read
// nothing else of the table; `redraw()` draws it again through the one
// render path (render.js). Nothing of a table is global, so the page can
// hold a live table and a replay at once without either touching the other.

import { t, errorText } from "./i18n.js";
import { CHOOSE_FIVE, PROTOCOL, api, save, saved, socketTo, storeKey } from "./state.js";
import { describe, stopWhy } from "./words.js";
import { describeNapalm } from "./napalm.js";
import { DealTally } from "./summary.js";
import { play, soundsOf } from "./sounds.js";
import { buzz } from "./notify.js";
import { chatState, onChatMessage, onChatReply } from "./chat.js";
import { onSeatFreed, onRematch } from "./seats.js";
import { onWelcome, sharedDevice, shownToken } from "./passplay.js";
import { OfflineLink } from "./offline.js";
import { render } from "./render.js";

/** @typedef {import("./frames.js").TableInfo} TableInfo */
/** @typedef {import("./frames.js").AnyView} AnyView */
/** @typedef {import("./frames.js").Turn} Turn */
/** @typedef {import("./frames.js").GameEvent} GameEvent */
/** @typedef {import("./frames.js").Transfer} Transfer */
/** @typedef {import("./frames.js").ServerMessage} ServerMessage */
/** @typedef {import("./frames.js").Preset} Preset */
/** @typedef {import("./chat.js").Chat} Chat */
/** @typedef {import("./passplay.js").PassPlay} PassPlay */

/** Where a table is played: with the server, on this device (the worker),
 * or nowhere (a finished game replayed). @typedef {"online" | "offline" | "replay"} Kind */

/** What a table draws: its parts, in order (null: nothing to draw yet).
 * @typedef {(ctl: Table) => (Node | null)[] | null} Page */

/** Events that begin a deal's (or the final pot's) tally. */
const OPENS_TALLY = new Set(["transfer", "deal_started", "final_pot_round"]);

/** How long a table takes to move to another server at most: its lease
 * (5 s by default), a beat, and its reload. */
const MOVE_MS = 8000;

/** Failing for longer than this is an outage: a move, the second its
 * players may take to come back after it, and a second to spare (a server
 * away for all of a move's 8 s is still a move: `deal.test.mjs`). */
const OUTAGE_MS = MOVE_MS + 2000;

/** How long to wait before the `retry`-th attempt to reconnect, `failedFor`
 * ms after the connection dropped: growing from a quarter second, never over
 * a second (a table moves to another server within its lease, and its
 * players should be back within a second of that), and spread at random
 * over its second half, so that the thousand players of a server that went
 * away do not all knock in the same instant. Failing for longer than a move
 * takes, and a second or two, is an outage (the database out of reach: every server stopped its
 * tables at once): then each pause is drawn from 2 to 7 s, so that when
 * it ends the players come back spread over seven seconds (a quarter at
 * most in any one) instead of all in the same one (as the load generator's clients do: `reconnect_pause` in
 * crates/loadtest/src/lib.rs). @param {number} retry @param {number} failedFor */
function reconnectPause(retry, failedFor) {
  if (failedFor >= OUTAGE_MS) return 2000 + Math.random() * 5000;
  return Math.min(1000, 250 * 2 ** retry) * (0.5 + Math.random() / 2);
}

/** Says how the page's live table is connected, in the header. */
function say(/** @type {string} */ text) {
  const conn = document.getElementById("conn");
  if (conn) conn.textContent = text;
}

export class Table {
  /** @param {{ kind: Kind, invite: string | null, root: HTMLElement, page: Page }} where */
  constructor({ kind, invite, root, page }) {
    this.kind = kind;
    this.invite = invite;
    /** Where the table is drawn, and what it draws there. */
    this.root = root;
    this.page = page;
    /** @type {WebSocket | OfflineLink | null} */
    this.link = null;
    /** @type {TableInfo | null} */
    this.table = null;
    /** The presets (`GET /api/presets`), to name the one this table's rules start from.
     * @type {Preset[] | null} */
    this.presets = null;
    /** Whether the host is this viewer (their token says so). */
    this.host = false;
    /** When the connection dropped (`Date.now()`), if it is not back yet. @type {number | null} */
    this.droppedAt = null;
    /** Reconnection attempts since the server last took us in (the backoff). */
    this.retry = 0;
    /** Until the server takes us in again, the page says so and nothing can
     * be clicked that would be lost. */
    this.reconnecting = false;
    /** A replay of a game this viewer did not play (a link, a file), or a
     * game over on a device passed around (pass-and-play): seen as a player
     * saw it, but nobody there is "you". */
    this.onlooker = false;
    /** Why a rematch could not be made, in words (null: none failed). @type {string | null} */
    this.rematchFailed = null;
    /** The next game, once someone started it (`rematch`). @type {{ path: string, by: string | null } | null} */
    this.next = null;
    /** The rule book in words, once asked for. @type {string | null} */
    this.rules = null;
    /** Which folding panels are open, by name, kept across redraws (`keptOpen`, dom.js).
     * @type {Record<string, boolean>} */
    this.open = {};
    /** What the invite's copy button last said: nothing yet (null), copied, or copy by hand. @type {boolean | null} */
    this.copied = null;
    /** The clock's warning was given for the turn that started then. @type {number | null} */
    this.warnedAt = null;
    /** The stage the guided game's explanation on screen is about (coach.js). @type {string | null} */
    this.coaching = null;
    /** The lobby seat whose removal the host is asked to confirm (seats.js), by
     * seat and name: someone new in that seat is not asked about. @type {string | null} */
    this.removing = null;
    /** @type {Chat} */
    this.chat = chatState();
    /** @type {PassPlay} */
    this.pass = { watchers: new Map(), shown: null };
    this.forget();
  }

  /** Forgets what this viewer knew of the game: another seat of this device
   * is about to be shown (and at first, nothing is known yet). */
  forget() {
    /** The frames' event number last seen (sent back on reconnecting). @type {number | null} */
    this.last = null;
    /** @type {AnyView | null} */
    this.view = null;
    /** @type {Turn | null} */
    this.turn = null;
    /** When `turn` came (its `ms` counts from then). */
    this.turnAt = 0;
    /** Milliseconds on the clock when the turn came. */
    this.turnTotal = 0;
    /** The log's lines, newest last. @type {{ n: number, text: string }[]} */
    this.log = [];
    /** @type {"player" | "spectator" | null} */
    this.role = null;
    /** The seat this viewer plays (or sees a replay as). @type {number | null} */
    this.seat = null;
    /** The five cards picked for the poker, and the decision they were picked for.
     * @type {Set<string>} */
    this.chosen = new Set();
    /** The best five of that decision, as first picked. @type {string[]} */
    this.best = [];
    /** @type {string | null} */
    this.chosenFor = null;
    /** Why the last Michigan run stopped, in words. @type {string | null} */
    this.stopped = null;
    /** What went wrong last, in words (shown on the felt). */
    this.error = "";
    /** The game's winners, from its `game_over` event. @type {number[] | null} */
    this.winners = null;
    /** The hint's action. @type {unknown} */
    this.hint = null;
    /** The five a hint picked, and whether they were already the ones
     * picked (its words stay while that five is the one picked).
     * @type {{ five: string[], same: boolean } | null} */
    this.hintFive = null;
    /** A costly move waiting for its confirm.
     * @type {{ key: string, question: string, yes: string, action: unknown } | null} */
    this.confirm = null;
    /** The deal being tallied, each ended deal's result, the final pot's.
     * @type {DealTally | null} */
    this.deal = null;
    /** @type {{ tally: DealTally, seen: boolean }[]} */
    this.results = [];
    /** @type {DealTally | null} */
    this.finalTally = null;
    /** Chips to fly, cards to land, whether cards were just dealt: the last
     * live step's movements, for the next drawing. @type {Transfer[]} */
    this.flights = [];
    /** @type {string[]} */
    this.landing = [];
    this.dealing = false;
    /** The decision that last took the focus. @type {string | null} */
    this.focusedFor = null;
    /** The table decided for this player: their time ran out. */
    this.timedOut = false;
    /** The event number at which this player held a card back: the answer
     * is in, and the stop shows when their clock runs out (the server holds
     * it till then). @type {number | null} */
    this.withheldAt = null;
    /** Offline: who must act next, as the worker says. @type {{ due: string, seat?: number } | null} */
    this.due = null;
  }

  /** A finished game replayed: nothing can be answered from it. */
  get replaying() {
    return this.kind === "replay";
  }

  isNapalm() {
    return !!(this.table && this.table.settings && this.table.settings.game === "napalm");
  }

  /** A seat's name as this screen says it; the viewer's own (`you`: this
   * table's seat, unless said) is marked "(you)" (a third person fits every
   * sentence: "Ann (you) bids 3"), unless the name is that word already
   * ("You", the name of a terminal player who gave none, not "You (you)").
   * @param {number} seat @param {number | null} [you] */
  name(seat, you = this.seat) {
    const s = this.table && this.table.seats[seat];
    const plain = (s && s.name) || t("seat-n", { n: seat + 1 });
    if (seat !== you || this.onlooker || plain === t("you", { at: "start" })) return plain;
    return t("name-you", { name: plain });
  }

  /** Whether a seat's own events may say "you": not to an onlooker, and
   * in a replay face up only the seat's own (the others' hands are shown
   * there too, and they are not "yours"). @param {number} seat */
  own(seat) {
    if (this.onlooker) return false;
    return this.replaying ? seat === this.seat : true;
  }

  /** Words about the viewer's own hand: `mine` ("Your hand"), or
   * `theirs(name)` ("Ann's hand") to an onlooker of a replay.
   * @param {string} mine @param {(who: string) => string} theirs @param {number} seat */
  ownWords(mine, theirs, seat) {
    return this.onlooker ? theirs(this.name(seat)) : mine;
  }

  /** One event in the log's words (null: not worth a line). @param {GameEvent} e */
  words(e) {
    return this.isNapalm() ? describeNapalm(e, this) : describe(e, this);
  }

  /** Draws the table again from its state. */
  redraw() {
    render(this);
  }

  /** Sends a message; one that cannot go (the connection is down) is not
   * dropped without a word: the player is told at once to do it again,
   * by `tell` where they are looking (the page's error line by default).
   * @param {object} msg
   * @param {(text: string) => void} [tell]
   * @returns {boolean} whether it went */
  send(msg, tell = (text) => { this.error = text; }) {
    if (this.link && this.link.readyState === WebSocket.OPEN) {
      this.link.send(JSON.stringify(msg));
      return true;
    }
    tell(t("offline-not-sent"));
    this.redraw();
    return false;
  }

  /** Answers the decision with `action`. @param {unknown} action */
  act(action) {
    this.error = "";
    this.timedOut = false;
    this.hint = null;
    this.confirm = null;
    this.withheldAt = action === "withhold" ? this.last : null;
    this.send({ type: "act", action, n: this.last, seat: this.seat });
    // Nothing comes back until the clock runs out: say the answer is in now.
    if (this.withheldAt != null) this.redraw();
  }

  /** Opens the table's link (again after it closed, with a growing pause):
   * a websocket to the server, or the offline table's worker, which
   * answers with the same frames. */
  connect() {
    const link = this.kind === "offline"
      // Who must act next at the offline table: another person of this
      // device gets the device (behind the pass-and-play cover).
      ? new OfflineLink((due) => { this.due = due; this.redraw(); })
      : socketTo(/** @type {string} */ (this.invite));
    this.link = link;
    say(t("conn-connecting"));
    link.addEventListener("open", () => {
      link.send(JSON.stringify({ type: "hello", v: PROTOCOL, token: shownToken(this), last: this.last }));
    });
    link.addEventListener("message", (ev) => this.receive(JSON.parse(/** @type {MessageEvent} */ (ev).data)));
    link.addEventListener("close", () => {
      say(t("conn-reconnecting"));
      if (this.link !== link) return;
      this.reconnecting = true;
      this.redraw();
      this.retry = Math.min(this.retry + 1, 6);
      if (this.droppedAt === null) this.droppedAt = Date.now();
      setTimeout(() => this.connect(), reconnectPause(this.retry, Date.now() - this.droppedAt));
    });
  }

  /** Another seat of this device is shown (pass-and-play): the page forgets
   * what it knew of the seat it showed and says hello as the other one.
   * @param {number} seat */
  switchSeat(seat) {
    const old = this.link;
    const offline = old instanceof OfflineLink;
    if (!offline) {
      this.link = null;
      if (old) old.close();
    }
    this.forget();
    // The offline table shows the other seat over the same worker.
    if (offline) old.show(seat);
    else this.connect();
    this.redraw();
  }

  /** Asks the server for the next game with the same people (any player of
   * the finished table may ask; everyone gets the same new table) and moves
   * there with this seat's token, which the new table keeps. */
  async rematch() {
    if (this.link instanceof OfflineLink) {
      this.link.rematch();
      return;
    }
    const invite = /** @type {string} */ (this.invite);
    const mine = saved(invite);
    try {
      const r = await api("POST", "/api/tables/" + invite + "/rematch", { token: mine && mine.token });
      save(r.invite, { token: mine.token, seat: mine.seat ?? this.seat, host: this.host || !!mine.host, others: mine.others });
      location.href = r.path;
    } catch (e) {
      this.rematchFailed = t("rematch-failed", { error: errorText(e) });
      this.redraw();
    }
  }

  /** Takes in one message from the link, then draws the table. @param {ServerMessage} m */
  receive(m) {
    const wasMine = !!(this.view && this.view.decision);
    onChatMessage(this, m);
    if (onChatReply(this, m) || onSeatFreed(this, m) || onRematch(this, m)) {
      this.redraw();
      return;
    }
    switch (m.type) {
      case "welcome":
        // Backoff restarts only once the server took us in: it closes a refused
        // hello (a full table), and retrying that at once would loop.
        this.retry = 0;
        this.droppedAt = null;
        this.reconnecting = false;
        this.role = m.role; this.seat = m.seat; this.host = m.host; this.table = m.table;
        say(m.role === "player" ? t("conn-player", { name: (m.table.seats[m.seat] || {}).name || t("seat-n", { n: m.seat + 1 }) }) : t("conn-watching"));
        onWelcome(this, m);
        break;
      case "table":
        this.table = m.table;
        break;
      case "state":
        this.log = []; this.deal = null; this.stopped = null; this.winners = null;
        this.table = m.table;
        for (const entry of m.log) this.absorb(entry.events, entry.n, false);
        this.view = m.view; this.last = m.n; this.setTurn(m.turn);
        break;
      case "update":
        this.absorb(m.events, m.n, !!m.view);
        for (const sound of soundsOf(m.events)) play(sound);
        this.last = Math.max(this.last ?? 0, m.n);
        if (m.view) {
          // The table decided for this player: their time ran out.
          if (m.auto && wasMine) this.timedOut = true;
          this.view = m.view; this.setTurn(m.turn); this.hint = null; this.confirm = null;
          if (m.auto && m.turn !== undefined) this.log.push({ n: m.n, text: t("log-auto") });
        }
        break;
      case "hint": {
        // Five poker cards are picked on screen (what is shown is what
        // "These five" sends); any other hint is said in words.
        const five = /** @type {Record<string, string[]>} */ (m.action)[CHOOSE_FIVE];
        const decision = this.view && /** @type {Record<string, unknown>} */ (this.view.decision);
        if (five && decision && decision.choose_five) {
          this.hintFive = { five: [...five].sort(), same: five.length === this.chosen.size && five.every((c) => this.chosen.has(c)) };
          this.chosen = new Set(five);
        } else this.hint = m.action;
        break;
      }
      case "error":
        this.error = errorText(m);
        this.withheldAt = null;
        if (m.code === "unauthorized" && this.role == null) {
          localStorage.removeItem(storeKey(/** @type {string} */ (this.invite)));
          if (this.link) this.link.close();
        }
        break;
      default:
        break;
    }
    this.redraw();
    const v = this.view;
    if (v && (("standings" in v && v.standings) || this.winners)) import("./games.js").then((g) => g.remember(this));
    if (v && v.decision && !wasMine) {
      play("turn");
      buzz();
    }
  }

  /** Takes in one step's events; `live` when they just happened (animate).
   * @param {GameEvent[]} events @param {number} n @param {boolean} live */
  absorb(events, n, live) {
    // At the end of a game played on one device passed around, its last
    // lines (the final pot) and its winners name nobody "you": it read
    // "Bob (you) wins!" for whoever was shown last (issue 50).
    if (events.some((e) => e.event === "game_over") && sharedDevice(this)) this.onlooker = true;
    for (const e of events) {
      // A deal's antes come before its `deal_started` (and after the last
      // deal's `deal_ended`): they open the next deal's tally, or the final
      // pot's.
      if ((!this.deal || this.deal.ended) && OPENS_TALLY.has(e.event)) {
        this.deal = new DealTally((this.deal ? this.deal.number : 0) + 1, this.table ? this.table.seats.length : 0, this);
      }
      if (e.event === "deal_started") this.stopped = null;
      if (this.deal) this.deal.add(e);
      if (e.event === "final_pot_round") this.finalTally = this.deal;
      if (e.event === "deal_ended" && this.deal) this.results.push({ tally: this.deal, seen: false });
      if (e.event === "run_stopped") this.stopped = stopWhy(e);
      if (e.event === "game_over") this.winners = e.winners;
      if (e.event === "transfer" && live && e.reason !== "ante") this.flights.push(/** @type {Transfer} */ (e));
      if ((e.event === "led" || e.event === "played") && live) this.landing.push(e.card);
      if (e.event === "dealt" && live) this.dealing = true;
      const text = this.words(e);
      if (text) this.log.push({ n, text });
    }
    if (this.log.length > 300) this.log.splice(0, this.log.length - 300);
  }

  /** @param {Turn | null | undefined} turn */
  setTurn(turn) {
    this.turn = turn || null;
    this.turnAt = performance.now();
    this.turnTotal = turn && turn.ms != null ? turn.ms : 0;
  }
}

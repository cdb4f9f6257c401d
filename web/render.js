// @ts-check
// The one render path of every table in the page (online, offline, a
// replay): `render(ctl)` puts what the controller's page draws from its state
// into its root, then applies what a redraw must keep or start, as effects:
// scroll positions, what was being typed, the focus, a new decision's focus
// and announcement, chips and cards in flight, and the clock.

import { tableView } from "./board.js";
import { napalmView } from "./napalm.js";
import { flyChips, flyDeal, landCards } from "./motion.js";
import { play } from "./sounds.js";
import { turnMark } from "./notify.js";
import { t } from "./i18n.js";

/** @typedef {import("./table.js").Table} Table */

/** The table's board: Tripoley's or Napalm's. @param {Table} ctl */
export function boardView(ctl) {
  return ctl.isNapalm() ? napalmView(ctl) : tableView(ctl);
}

/** Inputs whose typed value survives a redraw. */
const TYPED = "input:not([readonly]), select, textarea";

/** An element's key across redraws: the same control drawn again has it.
 * @param {Element} e */
const keyOf = (e) => e instanceof HTMLElement ? e.dataset.key || e.dataset.card || e.getAttribute("name") : null;

/** Draws `ctl` into its root. */
export function render(/** @type {Table} */ ctl) {
  const root = ctl.root;
  const parts = ctl.page(ctl);
  if (!parts) return;
  const active = document.activeElement;
  const focused = active && root.contains(active) ? keyOf(active) : null;
  // What the player is typing (a name, an amount) survives a re-render
  // caused by someone else's move or a player joining.
  /** @type {Map<string, string>} */
  const typed = new Map();
  for (const f of /** @type {NodeListOf<HTMLInputElement>} */ (root.querySelectorAll(TYPED))) {
    const key = keyOf(f);
    if (key && f.value !== f.defaultValue) typed.set(key, f.value);
  }
  const before = flightStarts(ctl);
  replace(root, parts.filter((p) => p != null));
  for (const f of /** @type {NodeListOf<HTMLInputElement>} */ (root.querySelectorAll(TYPED))) {
    const key = keyOf(f);
    if (!key || !typed.has(key)) continue;
    const v = /** @type {string} */ (typed.get(key));
    const n = Number(v);
    const fits = f.type !== "number" || ((f.min === "" || n >= Number(f.min)) && (f.max === "" || n <= Number(f.max)));
    if (fits) f.value = v;
  }
  if (focused) {
    const again = /** @type {HTMLElement | null} */ (root.querySelector('[data-key="' + focused + '"], [data-card="' + focused + '"], [name="' + focused + '"]'));
    // Where it was: the page need not scroll to it.
    if (again) again.focus({ preventScroll: true });
  }
  if (ctl.reconnecting) for (const c of /** @type {NodeListOf<HTMLButtonElement>} */ (root.querySelectorAll(".table button, .table input, .lobby button"))) c.disabled = true;
  focusDecision(ctl);
  // Under pass-and-play's cover no table is drawn: its movements wait for it.
  if (root.querySelector(".table")) {
    flyChips(ctl.flights.splice(0), before, root);
    landCards(ctl.landing.splice(0), root);
    if (ctl.dealing) flyDeal(root);
    ctl.dealing = false;
  }
  tick(ctl);
}

/** Puts `parts` in `root` in place of what was there. A scrolled panel
 * (`data-keep-scroll`) keeps its place: every move draws the page again, and
 * it threw someone reading the rules back to the top at each one. A panel
 * that grows at its end (`data-follow`, the log) keeps its distance from the
 * end, so a reader scrolled back sees the same lines, and one at the end
 * sees the newest. @param {HTMLElement} root @param {Node[]} parts */
function replace(root, parts) {
  /** @param {HTMLElement} s */
  const fromEnd = (s) => s.scrollHeight - s.clientHeight - s.scrollTop;
  const panels = () => /** @type {HTMLElement[]} */ ([...root.querySelectorAll("[data-keep-scroll]")]);
  const scrolled = new Map(panels().map((s) => [s.dataset.keepScroll, { top: s.scrollTop, end: fromEnd(s) }]));
  root.replaceChildren(...parts);
  for (const s of panels()) {
    const was = scrolled.get(s.dataset.keepScroll);
    if (s.dataset.follow == null) s.scrollTop = was ? was.top : 0;
    else s.scrollTop = s.scrollHeight - s.clientHeight - (was && was.end > 1 ? was.end : 0);
  }
}

/** Where the focus goes at a new decision, first found first: the quiet
 * answer, a card that may be led without a price, any card, any control. */
const DECISION_FOCUS = [".controls button.primary:not(:disabled)", "button.cardface.playable:not(.misplay)", "button.cardface.playable", ".controls button", ".controls input"];

/** A new decision takes the focus (unless the player is typing somewhere
 * else: chat, a name) and the polite live region says what is asked, so
 * nobody tabs through the page to find it. @param {Table} ctl */
function focusDecision(ctl) {
  const hand = ctl.root.querySelector("section.hand.mine[data-decision]");
  const v = ctl.view;
  if (!hand || !v) {
    ctl.focusedFor = null;
    focusWhatComesNext(ctl);
    return;
  }
  // The same decision again later (another card to lead, the next round)
  // is a new one: the deal, the cards held and the round tell them apart.
  const deal = "deal_number" in v ? v.deal_number : v.hand_number;
  const held = "hand" in v ? v.hand : v.cards;
  const key = JSON.stringify([deal, (held || []).length, v.round, v.decision]);
  if (key === ctl.focusedFor) return;
  ctl.focusedFor = key;
  const prompt = hand.querySelector(".prompt");
  const announce = document.getElementById("announce");
  if (announce) announce.textContent = t("announce-turn", { what: prompt ? prompt.textContent : "" });
  const active = document.activeElement;
  const typing = active && active.matches("input, textarea, select") && !hand.contains(active);
  if (typing) return;
  showSubject(ctl, hand);
  for (const sel of DECISION_FOCUS) {
    const target = /** @type {HTMLElement | null} */ (hand.querySelector(sel));
    if (target) {
      target.focus({ preventScroll: true });
      return;
    }
  }
}

/** What each kind of decision is about, shown with its controls: the Pot
 * and the others' bets when betting, the high bid when bidding, the cards
 * played by suit in Michigan. */
const BETTING = ".board .space-pot, .seats-ring .seat-bet";
const PLAYED = ".played-rows .suit-row";
/** @type {Record<string, string>} */
const SUBJECTS = { open: BETTING, respond: BETTING, auction_bid: ".board .board-note", pay_suit_bid: ".board .board-note", lead: PLAYED, follow: PLAYED };

/** At a new decision, the page scrolls so that what it is about is in view
 * above the docked hand: on a phone the Pot was under it when betting, and
 * the runs in Michigan; on a laptop the diamonds' row was cut in half
 * (issue 50). Only the docked hand of a live table: a replay scrolls its own
 * panel, and a result being read keeps the hand in its place.
 * @param {Table} ctl @param {Element} hand */
function showSubject(ctl, hand) {
  const sel = SUBJECTS[/** @type {HTMLElement} */ (hand).dataset.decision || ""];
  if (!sel || ctl.replaying || getComputedStyle(hand).position !== "sticky") return;
  const rects = [...ctl.root.querySelectorAll(sel)].map((e) => e.getBoundingClientRect());
  if (!rects.length) return;
  const top = Math.min(...rects.map((r) => r.top));
  const bottom = Math.max(...rects.map((r) => r.bottom));
  // The room left above the hand, with a little air under what is shown.
  const room = Math.min(hand.getBoundingClientRect().top, innerHeight) - 8;
  // Down until its bottom clears the hand, but never past its top; up when
  // its top is above the window.
  const by = top < 0 ? top - 8 : bottom > room ? Math.min(bottom - room, top - 8) : 0;
  if (by) scrollBy(0, by);
}

/** What comes next where no decision is asked: at the game's end a
 * rematch or the replay, in the host's lobby the invite's Copy link (Start
 * the game is the next Tab). */
const NEXT = 'section.game-over button, section.lobby button[data-key="copy-link"]';

/** A focus that fell to the page (the last result's button went with it,
 * the lobby just opened) goes to what comes next: keyboard players found
 * it only from the top (issue 50).
 * @param {Table} ctl */
function focusWhatComesNext(ctl) {
  const active = document.activeElement;
  if (active && active !== document.body && active.isConnected) return;
  const next = /** @type {HTMLElement | null} */ (ctl.root.querySelector(NEXT));
  if (next) next.focus({ preventScroll: true });
}

/** Where each account was on screen before a re-render, so chips can fly
 * from where a space was to where a player is. @param {Table} ctl */
function flightStarts(ctl) {
  /** @type {Map<string, DOMRect>} */
  const at = new Map();
  if (!ctl.flights.length) return at;
  for (const e of /** @type {NodeListOf<HTMLElement>} */ (ctl.root.querySelectorAll("[data-account]"))) at.set(/** @type {string} */ (e.dataset.account), e.getBoundingClientRect());
  return at;
}

/** Seconds left under which the clock warns (red, and a beep when sounds are on). */
const LOW_SECONDS = 10;

/** The clock of whoever must act at a live table, a bar on your own
 * decision that empties as time runs, the warning at ten seconds, and the
 * tab's title and icon saying it is your turn (seen from another tab).
 * @param {Table} ctl */
export function tick(ctl) {
  if (ctl.replaying) return;
  const mine = !!(ctl.view && ctl.view.decision);
  turnMark(mine);
  if (!ctl.turn || ctl.turn.ms == null || !ctl.table) return;
  const left = Math.max(0, ctl.turn.ms - (performance.now() - ctl.turnAt));
  const low = left <= LOW_SECONDS * 1000;
  const text = " " + t("timer", { s: Math.ceil(left / 1000) });
  const root = ctl.root;
  for (const e of root.querySelectorAll(".timer")) e.textContent = text;
  for (const e of root.querySelectorAll(".clock, .turn-bar")) e.classList.toggle("low", low);
  // A follow under penalised misplays runs on the server's window, not
  // the turn timer: the bar empties from what was left when it came.
  const d = ctl.view && ctl.view.decision;
  const follow = !!d && typeof d === "object" && "follow" in d;
  const total = follow ? ctl.turnTotal : (ctl.table.settings.turn_seconds || 0) * 1000;
  for (const e of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".turn-bar"))) e.style.setProperty("--left", String(total ? Math.min(1, left / total) : 1));
  if (mine && low && ctl.warnedAt !== ctl.turnAt) {
    ctl.warnedAt = ctl.turnAt;
    play("low");
  }
}

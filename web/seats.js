// @ts-check
// The lobby's seats: the host chooses each bot seat's level (`seat_bot`) and
// removes anyone from the lobby; the host freeing the seat of a player who
// left during a game, from a button on that seat (docs/protocol.md,
// `free_seat`), and what the player whose seat was freed is told, by cause; the next
// game, told live at a finished table (`rematch`): instead of "Game over"
// with whoever went ahead marked away, "Ann started a new game", and a
// button that goes there.

import { el } from "./dom.js";
import { storeKey } from "./state.js";
import { t } from "./i18n.js";

/** @typedef {import("./table.js").Table} Table */
/** @typedef {import("./frames.js").ServerMessage} ServerMessage */

/** The bots' levels, in players' words Relaxed, Good and Strong (Napalm
 * has no Strong bot: its expert plays as the Good one). */
const LEVELS = ["random", "heuristic", "expert"];

/** The lobby's seats, each with what plays it: a person, a bot of a level,
 * or nobody yet (the table's level plays it if nobody sits). The host
 * chooses each open or bot seat's player (open, or a bot of a level) and
 * may remove anyone else, after a confirm. */
export function lobbySeats(/** @type {Table} */ ctl) {
  const napalm = ctl.table.settings.game === "napalm";
  const levels = napalm ? LEVELS.slice(0, 2) : LEVELS;
  const tableLevel = t("bot-level-in-sentence", { level: ctl.table.settings.bot });
  return el("ol", { class: "lobby-seats" }, ctl.table.seats.map((s) => {
    if (s.kind === "human") return el("li", {}, personRow(ctl, s));
    const what = s.kind === "bot"
      ? t("lobby-seat-bot", { name: s.name, level: t("bot-level-in-sentence", { level: s.bot }) })
      : t("lobby-seat-open", { level: tableLevel });
    if (!ctl.host) return el("li", {}, el("span", { class: "who" }, what));
    const choice = el("select", {
      "data-key": "seat-bot-" + s.seat, "aria-label": t("lobby-seat-who", { seat: t("seat-n", { n: s.seat + 1 }) }),
      onchange: (/** @type {Event} */ e) => ctl.send({ type: "seat_bot", seat: s.seat, bot: /** @type {HTMLSelectElement} */ (e.target).value || null }),
    }, el("option", { value: "", selected: s.kind === "open" }, t("lobby-seat-choice-open")),
    levels.map((level) => el("option", { value: level, selected: s.kind === "bot" && s.bot === level },
      t("lobby-seat-choice-bot", { level: t("bot-level-in-sentence", { level }) }))));
    return el("li", {}, el("span", { class: "who" }, what), " ", choice);
  }));
}

/** A person's row: their name ("(you)" on the viewer's own), whether they
 * have left and, for the host, "Remove Ann", then "Remove Ann from the
 * table?" with Remove and Keep. */
function personRow(/** @type {Table} */ ctl, /** @type {import("./frames.js").SeatInfo} */ s) {
  const who = el("span", { class: "who" }, t("lobby-seat-taken", { name: ctl.name(s.seat), away: s.connected ? "no" : "yes" }));
  if (!ctl.host || s.seat === ctl.seat) return who;
  const key = `${ctl.invite} ${s.seat} ${s.name}`;
  const ask = (/** @type {boolean} */ on) => {
    ctl.removing = on ? key : null;
    ctl.redraw();
    /** @type {HTMLElement | null} */ (ctl.root.querySelector(`[data-key="${on ? "remove-yes" : "remove"}-${s.seat}"]`))?.focus();
  };
  if (ctl.removing !== key) {
    return [who, " ", el("button", { type: "button", "data-key": "remove-" + s.seat, onclick: () => ask(true) },
      t("lobby-remove", { name: s.name }))];
  }
  const question = t("lobby-remove-ask", { name: s.name });
  return [who, " ", el("span", { class: "confirm", role: "group", "aria-label": question }, question, " ",
    el("button", { type: "button", "data-key": "remove-yes-" + s.seat, onclick: () => { ctl.removing = null; ctl.send({ type: "free_seat", seat: s.seat }); } },
      t("lobby-remove-yes")), " ",
    el("button", { type: "button", "data-key": "remove-no-" + s.seat, onclick: () => ask(false) }, t("lobby-remove-no", { name: s.name })))];
}

/** For the host during a game, on the seat of a person who has left and
 * whom a bot plays for now, beside their "away": a button that frees the
 * seat (the server refuses sooner: a phone that slept for a moment keeps its
 * seat). On the seat, it is in the first screen; a panel of its own came
 * below the docked hand (issue 50). In the lobby the seats' own rows do it
 * (`lobbySeats`). Nothing for anyone else.
 * @param {Table} ctl @param {Partial<import("./frames.js").SeatInfo>} s */
export function freeSeatButton(ctl, s) {
  const gone = s.kind === "human" && s.seat !== ctl.seat && !s.connected && s.bot_playing;
  if (!ctl.host || !ctl.table || ctl.table.status !== "playing" || !gone) return null;
  return el("button", { type: "button", class: "free-seat", "data-key": "free-" + s.seat, title: t("seat-free-game"), onclick: () => ctl.send({ type: "free_seat", seat: s.seat }) },
    t("seat-free", { name: s.name }));
}

/** A hello refused because the host freed this seat: the token is
 * forgotten, the page goes on as a spectator's, and says why. True when
 * the message was that. */
export function onSeatFreed(/** @type {Table} */ ctl, /** @type {ServerMessage} */ m) {
  if (m.type !== "error" || m.code !== "seat_freed") return false;
  localStorage.removeItem(storeKey(ctl.invite));
  // Removed from the lobby, or given to a bot while away: said by cause.
  ctl.error = m.detail && m.detail.cause === "removed" ? t("seat-removed") : t("seat-freed");
  if (ctl.link) ctl.link.close();
  return true;
}

/** Keeps a `rematch` message. True when the message was that. */
export function onRematch(/** @type {Table} */ ctl, /** @type {ServerMessage} */ m) {
  if (m.type !== "rematch") return false;
  ctl.next = { path: m.path, by: m.by };
  return true;
}

/** The finished game's heading: who started the next game once someone
 * did, else "Game over". */
export function overHeading(/** @type {Table} */ ctl) {
  if (!ctl.next) return el("h2", {}, t("game-over"));
  return el("h2", { class: "next-game" },
    ctl.next.by ? t("next-game-by", { who: ctl.next.by }) : t("next-game-by-host"));
}

/** The finished game's button: a player (or the host) asks for the rematch,
 * or joins the one already made (the same request, answered with the same
 * table); a spectator may go and watch the next game. */
export function rematchButton(/** @type {Table} */ ctl, /** @type {boolean} */ mayAsk) {
  if (!mayAsk) {
    return ctl.next ? el("a", { class: "button primary", "data-key": "watch-next", href: ctl.next.path }, t("btn-watch-next")) : null;
  }
  return el("button", { "data-key": "rematch", class: "primary", onclick: () => ctl.rematch() },
    ctl.next ? t("btn-join-next") : t("btn-rematch"));
}

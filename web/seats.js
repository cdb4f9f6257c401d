// The lobby's seats: the host chooses each bot seat's level (`seat_bot`) and
// removes anyone from the lobby; the host freeing the seat of a player who
// left during a game (docs/protocol.md, `free_seat`), and what the player
// whose seat was freed is told, by cause; the next
// game, told live at a finished table (`rematch`): instead of "Game over"
// with whoever went ahead marked away, "Ann started a new game", and a
// button that goes there.

import { el } from "./dom.js";
import { S, send, storeKey } from "./state.js";
import { t } from "./i18n.js";

/** The bots' levels, in players' words Relaxed, Good and Strong (Napalm
 * has no Strong bot: its expert plays as the Good one). */
const LEVELS = ["random", "heuristic", "expert"];

/** The lobby seat whose removal the host is asked to confirm, by table,
 * seat and name (someone new in that seat is not asked about). */
let confirming = null;

/** The lobby's seats, each with what plays it: a person, a bot of a level,
 * or nobody yet (the table's level plays it if nobody sits). The host
 * chooses each open or bot seat's player (open, or a bot of a level) and
 * may remove anyone else, after a confirm. */
export function lobbySeats() {
  const napalm = S.table.settings.game === "napalm";
  const levels = napalm ? LEVELS.slice(0, 2) : LEVELS;
  const tableLevel = t("bot-level", { level: S.table.settings.bot });
  return el("ol", { class: "lobby-seats" }, S.table.seats.map((s) => {
    if (s.kind === "human") return el("li", {}, personRow(s));
    const what = s.kind === "bot"
      ? t("lobby-seat-bot", { name: s.name, level: t("bot-level", { level: s.bot }) })
      : t("lobby-seat-open", { level: tableLevel });
    if (!S.host) return el("li", {}, el("span", { class: "who" }, what));
    const choice = el("select", {
      "data-key": "seat-bot-" + s.seat, "aria-label": t("lobby-seat-who", { seat: t("seat-n", { n: s.seat + 1 }) }),
      onchange: (e) => send({ type: "seat_bot", seat: s.seat, bot: e.target.value || null }),
    }, el("option", { value: "", selected: s.kind === "open" }, t("lobby-seat-choice-open")),
    levels.map((level) => el("option", { value: level, selected: s.kind === "bot" && s.bot === level },
      t("lobby-seat-choice-bot", { level: t("bot-level", { level }) }))));
    return el("li", {}, el("span", { class: "who" }, what), " ", choice);
  }));
}

/** A person's row: their name, whether they are here and, for the host,
 * "Remove Ann", then "Remove Ann from the table?" with Remove and Keep. */
function personRow(s) {
  const who = el("span", { class: "who" }, t("lobby-seat-taken", { name: s.name, here: s.connected ? "yes" : "no" }));
  if (!S.host || s.seat === S.seat) return who;
  const key = `${S.invite} ${s.seat} ${s.name}`;
  const ask = (on) => {
    confirming = on ? key : null;
    document.dispatchEvent(new Event("tripoley:render"));
    document.querySelector(`[data-key="${on ? "remove-yes" : "remove"}-${s.seat}"]`)?.focus();
  };
  if (confirming !== key) {
    return [who, " ", el("button", { type: "button", "data-key": "remove-" + s.seat, onclick: () => ask(true) },
      t("lobby-remove", { name: s.name }))];
  }
  const question = t("lobby-remove-ask", { name: s.name });
  return [who, " ", el("span", { class: "confirm", role: "group", "aria-label": question }, question, " ",
    el("button", { type: "button", "data-key": "remove-yes-" + s.seat, onclick: () => { confirming = null; send({ type: "free_seat", seat: s.seat }); } },
      t("lobby-remove-yes")), " ",
    el("button", { type: "button", "data-key": "remove-no-" + s.seat, onclick: () => ask(false) }, t("lobby-remove-no", { name: s.name })))];
}

/** For the host during a game: each person who has left and whom a bot
 * plays for now, with a button that frees their seat (the server refuses
 * sooner: a phone that slept for a moment keeps its seat). In the lobby the
 * seats' own rows do it (`lobbySeats`). Nothing for anyone else. */
export function hostSeatTools() {
  if (!S.host || !S.table || S.table.status !== "playing") return null;
  const gone = S.table.seats.filter((s) => s.kind === "human" && s.seat !== S.seat && !s.connected && s.bot_playing);
  if (!gone.length) return null;
  return el("section", { class: "panel seat-tools", "aria-label": t("seat-left-title") },
    el("h2", {}, t("seat-left-title")),
    el("p", { class: "note" }, t("seat-free-game")),
    el("ul", {}, gone.map((s) => el("li", {},
      t("seat-left", { name: s.name }), " ",
      el("button", { type: "button", "data-key": "free-" + s.seat, onclick: () => send({ type: "free_seat", seat: s.seat }) },
        t("seat-free", { name: s.name }))))));
}

/** A hello refused because the host freed this seat: the token is
 * forgotten, the page goes on as a spectator's, and says why. True when
 * the message was that. */
export function onSeatFreed(m) {
  if (m.type !== "error" || m.code !== "seat_freed") return false;
  localStorage.removeItem(storeKey(S.invite));
  // Removed from the lobby, or given to a bot while away: said by cause.
  S.error = m.detail && m.detail.cause === "removed" ? t("seat-removed") : t("seat-freed");
  if (S.ws) S.ws.close();
  return true;
}

/** Keeps a `rematch` message. True when the message was that. */
export function onRematch(m) {
  if (m.type !== "rematch") return false;
  S.next = { path: m.path, by: m.by };
  return true;
}

/** The finished game's heading: who started the next game once someone
 * did, else "Game over". */
export function overHeading() {
  if (!S.next) return el("h2", {}, t("game-over"));
  return el("h2", { class: "next-game" },
    S.next.by ? t("next-game-by", { who: S.next.by }) : t("next-game-by-host"));
}

/** The finished game's button: a player (or the host) asks for the rematch,
 * or joins the one already made (the same request, answered with the same
 * table); a spectator may go and watch the next game. */
export function rematchButton(mayAsk) {
  if (!mayAsk) {
    return S.next ? el("a", { class: "button primary", "data-key": "watch-next", href: S.next.path }, t("btn-watch-next")) : null;
  }
  return el("button", { "data-key": "rematch", class: "primary", onclick: () => document.dispatchEvent(new Event("tripoley:rematch")) },
    S.next ? t("btn-join-next") : t("btn-rematch"));
}

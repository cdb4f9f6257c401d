// The host freeing the seat of a player who left (docs/protocol.md,
// `free_seat`), and what the player whose seat was freed is told; the next
// game, told live at a finished table (`rematch`): instead of "Game over"
// with whoever went ahead marked away, "Ann started a new game", and a
// button that goes there.

import { el } from "./dom.js";
import { S, send, storeKey } from "./state.js";
import { t } from "./i18n.js";

/** How long a seated person may be unconnected in the lobby before the host
 * is told they left: a guest takes their seat first and opens their
 * connection a moment later, and a reload takes a moment too. */
const LOBBY_GRACE_MS = 3000;

/** When each seated person was first seen unconnected in the lobby, by
 * table, seat and name (another table, or someone new in a freed seat,
 * starts afresh); forgotten once connected again. */
const unconnectedSince = new Map();

/** For the host: each person who has left, with a button that frees their
 * seat. In the lobby anyone gone for a few seconds may be freed; during a
 * game only once a bot plays for them (the server refuses sooner: a phone
 * that slept for a moment keeps its seat). Nothing for anyone else. */
export function hostSeatTools() {
  if (!S.host || !S.table || S.table.status === "finished") return null;
  const playing = S.table.status === "playing";
  const gone = S.table.seats.filter((s) => s.kind === "human" && s.seat !== S.seat && !s.connected &&
    (playing ? s.bot_playing : goneLongEnough(s)));
  for (const s of S.table.seats) if (s.connected) unconnectedSince.delete(personKey(s));
  if (!gone.length) return null;
  return el("section", { class: "panel seat-tools", "aria-label": t("seat-left-title") },
    el("h2", {}, t("seat-left-title")),
    el("p", { class: "note" }, playing ? t("seat-free-game") : t("seat-free-lobby")),
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
  S.error = t("seat-freed");
  if (S.ws) S.ws.close();
  return true;
}

function personKey(s) {
  return `${S.invite} ${s.seat} ${s.name}`;
}

/** Whether a seated person has been unconnected in the lobby for the grace.
 * The first time they are seen unconnected, the page is set to be drawn
 * again once the grace is over (once, however often it is drawn meanwhile). */
function goneLongEnough(s) {
  const key = personKey(s);
  if (!unconnectedSince.has(key)) {
    unconnectedSince.set(key, Date.now());
    setTimeout(() => document.dispatchEvent(new Event("tripoley:render")), LOBBY_GRACE_MS + 50);
  }
  return Date.now() - unconnectedSince.get(key) >= LOBBY_GRACE_MS;
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

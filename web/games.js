// @ts-check
// "My games" (issue 27): the finished games this browser played, kept in
// localStorage (the newest first, at most `KEPT`), each with its date,
// players, result and replay link; and a record file opened from a file
// picker or dropped on the page, replayed by the server. Loaded by the home
// page (its entry) and by a table at its end (`remember`).

import { el } from "./dom.js";
import { api, saved } from "./state.js";
import { t } from "./i18n.js";
import { keptGame } from "./offline.js";

/** @typedef {import("./table.js").Table} Table */

const KEY = "tripoley:games";
/** Games kept: the oldest goes first. */
const KEPT = 50;
/** Tries to get a just-finished game's link (it is stored a moment after
 * its last frame), half a second apart. */
const TRIES = 8;

/** The games kept, newest first (nothing, if what is kept does not read). */
export function myGames() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) || "[]");
    // A game played online has its share id; one played on this device, its record.
    return Array.isArray(games) ? games.filter((g) => g && (typeof g.share === "string" || typeof g.record === "string") && Array.isArray(g.players) && Array.isArray(g.result)).slice(0, KEPT) : [];
  } catch {
    return [];
  }
}

/** A finished game kept in this browser (online: its share id; played
 * here: its record and the seat played).
 * @typedef {{ invite: string, share?: string, record?: string, seat?: number, date: string, players: string[], result: { who: string, chips: number, winner: boolean }[] }} Game */
/** A seat's chips at the end. @typedef {{ seat: number, chips: number, winner: boolean }} Standing */

/** The kept game of this table, if any. @param {string} invite */
export const myGame = (invite) => myGames().find((g) => g.invite === invite);

/** @type {Set<string>} */
const remembering = new Set();

/** Each seat's chips at the end and whether it won, in seat order (a
 * Napalm game's winners are its `game_over` event's); none before the end.
 * @param {Table} ctl @returns {Standing[] | null} */
function standings(/** @type {Table} */ ctl) {
  const v = ctl.view;
  if (!v) return null;
  if (!ctl.isNapalm()) return "standings" in v ? v.standings : null;
  return ctl.winners ? v.stacks.map((/** @type {number} */ chips, /** @type {number} */ seat) => ({ seat, chips, winner: ctl.winners.includes(seat) })) : null;
}

/** Keeps the table's finished game (once), with its share link: a
 * player's or the host's browser makes the link (theirs to publish), a
 * spectator's keeps it once one of them has. @param {Table} ctl */
export async function remember(/** @type {Table} */ ctl) {
  const invite = ctl.invite;
  const ended = standings(ctl);
  if (!ended || remembering.has(invite)) return;
  if (ctl.kind === "offline") {
    rememberOffline(ctl, ended);
    return;
  }
  if (myGame(invite)) return;
  const token = (saved(invite) || {}).token;
  const ask = token && (ctl.seat != null || ctl.host)
    ? () => api("POST", "/api/tables/" + encodeURIComponent(invite) + "/share", { token })
    : () => api("GET", "/api/tables/" + encodeURIComponent(invite) + "/share");
  remembering.add(invite);
  const ending = result(ctl, ended);
  for (let i = 0; i < TRIES; i++) {
    try {
      const { share } = await ask();
      const game = { invite, share, date: new Date().toISOString(), ...ending };
      localStorage.setItem(KEY, JSON.stringify([game, ...myGames().filter((g) => g.invite !== invite)].slice(0, KEPT)));
      ctl.redraw();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  remembering.delete(invite);
}

/** The names at the table and the result of a game, in the order kept.
 * @param {Table} ctl @param {Standing[]} ended */
function result(/** @type {Table} */ ctl, ended) {
  const players = ended.map((s) => (ctl.table.seats[s.seat] || {}).name || t("seat-n", { n: s.seat + 1 }));
  const result = [...ended].sort((a, b) => b.chips - a.chips).map((s) => ({ who: players[s.seat], chips: s.chips, winner: !!s.winner }));
  return { players, result };
}

/** Keeps a game just finished on this device with its record (once: the
 * record's own seed tells it apart), so it can be replayed, analysed and
 * saved as a file with no server. @param {Table} ctl @param {Standing[]} ended */
function rememberOffline(/** @type {Table} */ ctl, ended) {
  const kept = keptGame();
  if (!kept || !kept.saved) return;
  const invite = "offline-" + JSON.parse(kept.saved).play.seed;
  if (myGame(invite)) return;
  const game = { invite, record: kept.saved, seat: ctl.seat, date: new Date().toISOString(), ...result(ctl, ended) };
  // Records are larger than links: when the browser's storage is full, the
  // oldest games go first.
  let games = [game, ...myGames()].slice(0, KEPT);
  for (;;) {
    try {
      localStorage.setItem(KEY, JSON.stringify(games));
      break;
    } catch {
      if (games.length <= 1) break;
      games = games.slice(0, -1);
    }
  }
  ctl.redraw();
}

/** The home page's entry: "My games", which opens the list; a file
 * dropped anywhere on the home page is replayed. */
export function myGamesEntry() {
  document.addEventListener("dragover", (e) => e.preventDefault());
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    const file = e.dataTransfer && e.dataTransfer.files[0];
    if (file) openFile(file);
  });
  return el("section", { class: "panel my-games-entry" },
    el("button", { "data-key": "my-games", onclick: openList }, t("games-title", { n: myGames().length })),
    el("p", { class: "note" }, t("games-drop")));
}

/** @param {File} file */
function openFile(file) {
  return import("./replay.js").then((m) => m.openFile(file));
}

/** The list, over the page: each game a link to its replay; a record
 * file to open. */
function openList() {
  const games = myGames();
  const picker = el("input", { type: "file", accept: ".json,application/json", "data-key": "record-file", "aria-label": t("games-open-file") });
  picker.addEventListener("change", () => { if (picker.files[0]) openFile(picker.files[0]); });
  const root = el("section", { class: "replay my-games", role: "dialog", "aria-modal": "true", "aria-label": t("games-list"), tabindex: -1 });
  const close = () => root.remove();
  root.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
  root.append(
    el("div", { class: "replay-bar" }, el("h2", {}, t("games-list")), el("button", { "data-key": "my-games-close", onclick: close }, t("replay-close"))),
    el("section", { class: "panel" },
      games.length ? el("ol", { class: "games" }, games.map(gameLine)) : el("p", {}, t("games-none"))),
    el("section", { class: "panel" }, el("label", { class: "file" }, el("span", {}, t("games-open-file")), picker), el("p", { class: "note" }, t("games-file-help"))));
  document.body.append(root);
  root.focus();
}

/** @param {Game} g */
function gameLine(g) {
  const when = new Date(g.date);
  const winners = g.result.filter((r) => r.winner).map((r) => r.who);
  const line = t("games-line", { date: isNaN(when.getTime()) ? "" : when.toLocaleString(), players: g.players.join(", "), winners: winners.join(", "), count: winners.length });
  const chips = el("span", { class: "note" }, " " + g.result.map((r) => t("games-chips", { who: r.who, n: r.chips })).join(" · "));
  if (g.record) {
    // Played on this device: replayed here, and its record saved as a file
    // that `tripoley analyse` and `tripoley replay` read.
    const file = URL.createObjectURL(new Blob([g.record], { type: "application/json" }));
    return el("li", { "data-offline": g.invite },
      el("a", { href: "#", "data-key": "game-replay", onclick: (/** @type {Event} */ e) => { e.preventDefault(); import("./replay.js").then((m) => m.openRecord(g.record, g.seat ?? 0)); } }, line),
      chips, " ",
      el("a", { href: file, download: "tripoley-" + g.date.slice(0, 10) + ".json", "data-key": "game-save" }, t("games-save-file")));
  }
  return el("li", { "data-share": g.share },
    el("a", { href: "/replay/" + encodeURIComponent(g.share), "data-key": "game-replay" }, line), chips);
}

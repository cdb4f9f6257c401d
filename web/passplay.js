// @ts-check
// Pass-and-play: several seats on one device (issue 26, point 16).
//
// Pure client: each seat on this device keeps its own seat token (from
// "Add a player on this device", the same `sit` a guest makes) and its own
// websocket. The page shows one seat at a time through the usual
// connection; every other seat here has a quiet connection that only
// learns whether that seat must decide. When the shown seat has nothing to
// decide and another seat here has, the whole table is replaced by a cover
// ("Pass the device to Bob"): nothing of any hand is drawn until that
// player taps to continue, and then the page connects as their seat.

import { el } from "./dom.js";
import { PROTOCOL, api, save, saved, socketTo } from "./state.js";
import { t, errorText } from "./i18n.js";

/** @typedef {import("./table.js").Table} Table */
/** @typedef {import("./frames.js").ServerMessage} ServerMessage */
/** A seat played on this device, with its token. @typedef {{ token: string, seat: number, name: string }} LocalSeat */
/** A seat's quiet connection. @typedef {{ ws: WebSocket, seat: number, deciding: boolean }} Watcher */

/** Pass-and-play at one table: the quiet connections, by seat, and the
 * seat this page shows when it is not its first one (null: the saved
 * seat, as on any device with one player).
 * @typedef {{ watchers: Map<number, Watcher>, shown: LocalSeat | null }} PassPlay */

/** The other seats played on this device: `[{ token, seat, name }]`. */
function others(/** @type {Table} */ ctl) {
  const mine = saved(ctl.invite);
  return (mine && mine.others) || [];
}

/** Every seat of this device with its token, the first one's too (its
 * seat is known once the server welcomed it). */
function localSeats(/** @type {Table} */ ctl) {
  const mine = saved(ctl.invite);
  if (!mine || !mine.token) return [];
  const first = mine.seat != null ? [{ token: mine.token, seat: mine.seat, name: seatName(ctl, mine.seat) }] : [];
  return [...first, ...others(ctl)];
}

function seatName(/** @type {Table} */ ctl, /** @type {number} */ seat) {
  const s = ctl.table && ctl.table.seats[seat];
  return (s && s.name) || t("seat-n", { n: seat + 1 });
}

/** Whether several people play on this device (pass-and-play): then at
 * the game's end nobody is "you" (the last one shown won as "Kid (you)",
 * issue 50). Offline, every person's seat is this device's. */
export function sharedDevice(/** @type {Table} */ ctl) {
  if (ctl.kind === "offline") return !!ctl.table && ctl.table.seats.filter((s) => s.kind === "human").length > 1;
  return ctl.kind === "online" && others(ctl).length > 0;
}

/** The token the page's own connection says hello with. */
export function shownToken(/** @type {Table} */ ctl) {
  const mine = saved(ctl.invite);
  return ctl.pass.shown ? ctl.pass.shown.token : (mine && mine.token) || null;
}

/** On the page's `welcome`: the first seat's number is kept (the host's
 * token does not say it), and every other seat here gets its quiet
 * connection. */
export function onWelcome(/** @type {Table} */ ctl, /** @type {ServerMessage} */ m) {
  if (!ctl.pass.shown && m.role === "player") save(ctl.invite, { seat: m.seat });
  watchAll(ctl);
}

/** Opens a quiet connection for each seat of this device that has none. */
function watchAll(/** @type {Table} */ ctl) {
  if (!others(ctl).length) return;
  for (const local of localSeats(ctl)) if (!ctl.pass.watchers.has(local.seat)) watch(ctl, local);
}

function watch(/** @type {Table} */ ctl, /** @type {LocalSeat} */ local) {
  const ws = socketTo(ctl.invite);
  const w = { ws, seat: local.seat, deciding: false };
  ctl.pass.watchers.set(local.seat, w);
  ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "hello", v: PROTOCOL, token: local.token, last: null })));
  ws.addEventListener("message", (ev) => {
    const m = JSON.parse(ev.data);
    // Only whether this seat must decide is read: its view stays here.
    if ((m.type === "state" || m.type === "update") && m.view) {
      const deciding = !!m.view.decision;
      if (deciding !== w.deciding) {
        w.deciding = deciding;
        ctl.redraw();
      }
    }
  });
  ws.addEventListener("close", () => {
    if (ctl.pass.watchers.get(local.seat) !== w) return;
    ctl.pass.watchers.delete(local.seat);
    setTimeout(watchAll, 1000);
  });
}

/** The seat of this device that must decide while the shown one need not
 * (null if none): the one the device is passed to. */
function waiting(/** @type {Table} */ ctl) {
  if (!ctl.view || ctl.view.decision || ctl.seat == null) return null;
  // A deal's result is read (and put away) before the device is passed on.
  if (ctl.results.some((r) => !r.seen)) return null;
  // Offline, the worker says who must act next.
  if (ctl.kind === "offline") return ctl.due && ctl.due.due === "person" && ctl.due.seat !== ctl.seat ? ctl.due : null;
  for (const w of ctl.pass.watchers.values()) if (w.seat !== ctl.seat && w.deciding) return w;
  return null;
}

/** The cover that replaces the whole table while the device goes from one
 * player to the next, or null when the shown seat may be seen. */
export function passCover(/** @type {Table} */ ctl) {
  const next = waiting(ctl);
  if (!next) return null;
  const who = seatName(ctl, next.seat);
  return el("section", { class: "pass-cover", "aria-label": t("pass-title", { name: who }) },
    el("h2", {}, t("pass-title", { name: who })),
    el("p", {}, t("pass-help", { name: who })),
    el("button", { type: "button", class: "primary", "data-key": "pass-continue", onclick: () => showSeat(ctl, next.seat) },
      t("pass-continue", { name: who })));
}

/** The page connects as another seat of this device: what it knew of the
 * shown seat's game is forgotten, and the server sends that seat's. */
function showSeat(/** @type {Table} */ ctl, /** @type {number} */ seat) {
  if (ctl.kind === "offline") {
    ctl.switchSeat(seat);
    return;
  }
  const local = localSeats(ctl).find((l) => l.seat === seat);
  if (!local) return;
  const mine = saved(ctl.invite);
  ctl.pass.shown = local.token === mine.token ? null : local;
  ctl.switchSeat(seat);
}

/** In the lobby, for someone seated here: the seats played on this device
 * and a form that seats one more player on it. */
export function addPlayerForm(/** @type {Table} */ ctl, /** @type {import("./frames.js").SeatInfo[]} */ open) {
  const here = localSeats(ctl);
  const list = here.length > 1 ? el("p", { class: "note local-seats" }, t("pass-here", { names: here.map((l) => l.name).join(", ") })) : null;
  if (!open.length) return list;
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { class: "add-player", "aria-label": t("pass-add") },
    el("label", {}, t("pass-name") + " ", el("input", { name: "local-name", required: true, maxlength: 16, autocomplete: "off" })),
    el("button", { type: "submit" }, t("pass-add")), error);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = new FormData(form).get("local-name");
    try {
      const r = await api("POST", "/api/tables/" + ctl.invite + "/sit", { seat: open[0].seat, name });
      save(ctl.invite, { others: [...others(ctl), { token: r.token, seat: r.seat, name }] });
      // The page may have been drawn again meanwhile (the new seat's name
      // came): the field to empty is the one on the page now.
      for (const f of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="local-name"]'))) f.value = "";
      watchAll(ctl);
    } catch (e) {
      error.textContent = errorText(e);
    }
  });
  return el("div", { class: "pass-add" }, list, form);
}

// @ts-check
// A live table, loaded by main.js when one opens: the table at an invite
// (played with the server over a websocket, protocol version 1:
// docs/protocol.md) or the game on this device (`#offline`, played by the
// worker). Each is a controller (table.js) drawn into the page's main by
// `livePage`: the bar of settings, the lobby, the board, the chat.

import { el, keptOpen, svgEl } from "./dom.js";
import { prefs, save, saved, api, savePrefs } from "./state.js";
import { t, errorText } from "./i18n.js";
import { Table } from "./table.js";
import { boardView, tick } from "./render.js";
import { unlock } from "./sounds.js";
import { chatPanel } from "./chat.js";
import { presetLine } from "./tables.js";
import { lobbySeats } from "./seats.js";
import { qrCode } from "./qr.js";
import { rulesView } from "./rules.js";
import { addPlayerForm, passCover, shownToken } from "./passplay.js";
import { OFFLINE, ask, keptGame } from "./offline.js";

/** @typedef {import("./frames.js").Settings} Settings */
/** @typedef {import("./frames.js").SeatInfo} SeatInfo */

const main = /** @type {HTMLElement} */ (document.getElementById("main"));

/** What a live table shows, from its state: the settings bar, then the
 * lobby or the board, what went wrong, the host's tools and the chat (none
 * at a table on one device: nobody to chat with). While the device goes to
 * the next player (pass-and-play) a cover stands in for all of it.
 * @param {Table} ctl */
function livePage(/** @type {Table} */ ctl) {
  if (!ctl.table) return null;
  const offline = ctl.kind === "offline";
  const cover = passCover(ctl);
  if (cover) return [settingsBar(ctl), cover, offline ? null : chatPanel(ctl, true)];
  return [
    ctl.reconnecting ? el("p", { class: "offline", role: "alert" }, t("offline-banner")) : null,
    settingsBar(ctl),
    ctl.table.status === "lobby" ? lobby(ctl) : null,
    ctl.view ? boardView(ctl) : null,
    ctl.error ? el("p", { class: "error", role: "alert" }, ctl.error) : null,
    offline ? null : chatPanel(ctl),
  ];
}

function settingsBar(/** @type {Table} */ ctl) {
  const toggle = (/** @type {"fourColour" | "guide"} */ key, /** @type {string} */ label) => el("label", { class: "toggle" },
    el("input", { type: "checkbox", "data-key": "pref-" + key, checked: prefs[key], onchange: (/** @type {Event} */ e) => { prefs[key] = /** @type {HTMLInputElement} */ (e.target).checked; savePrefs(); ctl.redraw(); } }),
    " " + label);
  return el("div", { class: "bar" },
    rulesView(ctl),
    seatLink(ctl),
    keptOpen(ctl.open, "settings", t("settings"), () => [toggle("fourColour", t("settings-four-colour")), toggle("guide", t("settings-guide"))]),
    soundSwitch(ctl));
}

/** Sounds on or off, in view at the table (kept in this browser). Switching
 * them on is the click that lets the page's audio start. Its word is a
 * label of its own: a phone shows the icon alone (style.css). */
function soundSwitch(/** @type {Table} */ ctl) {
  const on = prefs.sound;
  return el("button", {
    type: "button", class: "sound-switch", "data-key": "pref-sound", "aria-pressed": String(on),
    onclick: () => {
      prefs.sound = !on;
      if (prefs.sound) unlock();
      savePrefs();
      ctl.redraw();
    },
  }, soundIcon(on), el("span", { class: "label" }, " " + t("settings-sound")));
}

/** A loudspeaker, with waves when sounds are on and a cross when off: drawn
 * by the page (an emoji is an empty box where no emoji font is installed). */
function soundIcon(/** @type {boolean} */ on) {
  const stroke = { fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" };
  return svgEl("svg", { viewBox: "0 0 24 24", class: "icon", "aria-hidden": "true", focusable: "false" },
    svgEl("path", { d: "M3 9v6h4l5 4V5L7 9z", fill: "currentColor" }),
    svgEl("path", { d: on ? "M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13" : "M16 9l6 6M22 9l-6 6", ...stroke }));
}

/** A player's own link back to their seat, for another phone or computer. */
function seatLink(/** @type {Table} */ ctl) {
  // The shown seat's own (pass-and-play: not the device's first player's).
  const token = shownToken(ctl);
  if (ctl.seat == null || !token) return null;
  const link = location.origin + "/t/" + ctl.invite + "#seat=" + token;
  return keptOpen(ctl.open, "seat-link", t("seat-link"), () => el("div", { class: "panel" },
    el("p", {}, t("seat-link-help")),
    el("input", { readonly: true, value: link, size: 40, "aria-label": t("seat-link-label"), onfocus: (/** @type {FocusEvent} */ e) => /** @type {HTMLInputElement} */ (e.target).select() })));
}

/** What the copy-link button last said: nothing yet, done, or copy it by hand. */
function copyNote(/** @type {Table} */ ctl) {
  if (ctl.copied === null) return "";
  return ctl.copied ? t("lobby-copied") : t("lobby-copy-by-hand");
}

function lobby(/** @type {Table} */ ctl) {
  const mine = saved(ctl.invite);
  const seats = lobbySeats(ctl);
  const s = ctl.table.settings;
  const named = ctl.presets && s.game !== "napalm" ? presetLine(s.rules, ctl.presets) : null;
  const summary = el("div", { class: "lobby-rules" }, named ? el("p", { class: "preset-line" }, named) : null, el("p", { class: "rules-summary" }, describeRules(s)));
  const sitting = !mine || !mine.token || (ctl.role === "spectator" && !mine.seat && !mine.host);
  const open = ctl.table.seats.filter((s) => s.kind === "open");
  // A guest opening an invite sees who invited them and takes a seat first.
  if (sitting && open.length) {
    const host = (ctl.table.seats.find((s) => s.kind === "human") || {}).name;
    return el("section", { class: "panel lobby", "aria-label": t("lobby") },
      el("h2", {}, t("lobby-invited", { host: host || "", game: ctl.table.settings.game === "napalm" ? "napalm" : "tripoley" })),
      sitForm(ctl, open), summary, seats);
  }
  const box = el("section", { class: "panel lobby", "aria-label": t("lobby") }, el("h2", {}, t("lobby-waiting")));
  // The link-sharing tools are the host's, and the start right after them:
  // by keyboard one Tab from Copy link, which has the focus (render.js),
  // not past every seat's choice and the form below (15 Tabs: issue 50).
  if (ctl.host) box.append(...inviteTools(ctl), el("button", { "data-key": "start", class: "primary", onclick: () => ctl.send({ type: "start" }) }, t("lobby-start")));
  box.append(summary, seats);
  if (ctl.role === "player") box.append(addPlayerForm(ctl, open) || "");
  if (!ctl.host) box.append(el("p", {}, t("lobby-wait-host")));
  return box;
}

/** The invite link, its copy button and its QR code. */
function inviteTools(/** @type {Table} */ ctl) {
  const link = location.origin + "/t/" + ctl.invite;
  // The lobby is drawn again whenever someone sits down: what the copy
  // button said is kept in the state, not only in the note it wrote.
  const note = el("span", { class: "note", role: "status" }, copyNote(ctl));
  return [
    el("p", {}, t("lobby-send-link")),
    el("div", { class: "invite" },
      el("input", { readonly: true, value: link, size: 32, "aria-label": t("lobby-invite-link"), onfocus: (/** @type {FocusEvent} */ e) => /** @type {HTMLInputElement} */ (e.target).select() }),
      el("button", {
        "data-key": "copy-link",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            ctl.copied = true;
          } catch {
            ctl.copied = false;
          }
          // The lobby on screen: it may have been drawn again (someone
          // came or left) while the clipboard answered.
          for (const shown of ctl.root.querySelectorAll(".invite .note")) shown.textContent = copyNote(ctl);
        },
      }, t("lobby-copy")), note),
    qrCode(link),
  ];
}

/** A name and a seat, for a guest: "Take the seat". */
function sitForm(/** @type {Table} */ ctl, /** @type {import("./frames.js").SeatInfo[]} */ open) {
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { class: "sit" },
    el("label", {}, t("home-your-name") + " ", el("input", { name: "name", required: true, maxlength: 16, autocomplete: "nickname" })),
    el("label", {}, " " + t("lobby-seat") + " ", el("select", { name: "seat" }, open.map((s) => el("option", { value: s.seat }, t("seat-n", { n: s.seat + 1 }))))),
    el("button", { type: "submit", class: "primary" }, t("lobby-sit")), error);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    try {
      const r = await api("POST", "/api/tables/" + ctl.invite + "/sit", { seat: Number(f.get("seat")), name: f.get("name") });
      save(ctl.invite, { token: r.token, seat: r.seat });
      ctl.link.close();
    } catch (e) {
      error.textContent = errorText(e);
    }
  });
  return form;
}

/** The table in one sentence, for the lobby. */
function describeRules(/** @type {import("./frames.js").Settings} */ s) {
  const turn = s.turn_seconds || 0;
  if (s.game === "napalm" && s.napalm) {
    const r = s.napalm;
    return t("lobby-summary-napalm", { seats: s.seats, chips: r.starting_chips, ante: r.ante, tokens: r.tokens_to_win, turn });
  }
  const r = s.rules;
  const spare = typeof r.spare === "string" ? r.spare : Object.keys(r.spare || {})[0] || "other";
  const poker = JSON.stringify(r.poker || "").includes("betting") ? "betting" : r.poker === "none" ? "none" : "other";
  return t("lobby-summary-tripoley", { seats: s.seats, chips: r.starting_chips, spare, poker, misplays: r.misplays === "penalised" ? "yes" : "no", turn });
}

/** A personal link (`#seat=<token>`) opened on another device: the seat's
 * token moves into this browser and out of the address bar. The fragment
 * never reaches a server. */
function takeSeatLink(/** @type {string} */ invite) {
  const m = location.hash.match(/^#seat=([0-9a-f]{32})$/);
  if (!m) return;
  save(invite, { token: m[1] });
  history.replaceState(null, "", location.pathname);
}

/** A live table, drawn in the page's main. @param {string} invite */
function liveTable(invite) {
  return new Table({ kind: invite === OFFLINE ? "offline" : "online", invite, root: main, page: livePage });
}

/** Opens the table's link and starts its clock. @param {Table} ctl */
function start(/** @type {Table} */ ctl) {
  ctl.connect();
  setInterval(() => tick(ctl), 250);
  document.addEventListener("visibilitychange", () => tick(ctl));
}

/** The table at this invite: the page (`main.js`) loads this module only
 * when a table opens. @param {string} invite */
export async function openTable(invite) {
  if (invite === OFFLINE) return openOffline();
  takeSeatLink(invite);
  const ctl = liveTable(invite);
  try {
    ctl.table = await api("GET", "/api/tables/" + encodeURIComponent(invite));
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, errorText(e)), el("p", {}, el("a", { href: "./" }, t("back"))));
    return;
  }
  ctl.redraw();
  start(ctl);
  // Only names the lobby's rules: the table plays without it.
  api("GET", "/api/presets").then((p) => { ctl.presets = p; ctl.redraw(); }, () => {});
}

/** The offline table (`#offline`): the game kept in this browser, played by
 * the worker; the presets come from the worker too. */
function openOffline() {
  if (!keptGame()) {
    main.replaceChildren(el("p", {}, t("offline-none")), el("p", {}, el("a", { href: "./" }, t("back"))));
    return;
  }
  const ctl = liveTable(OFFLINE);
  start(ctl);
  ask({ presets: true }, "presets").then((p) => { ctl.presets = p; ctl.redraw(); }, () => {});
}

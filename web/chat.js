// @ts-check
// Table chat: the lines everyone at the table sees, the box to write one
// (seated players only: the server refuses spectators), and muting a
// player, which hides their lines on this browser only.
//
// Lines are shown as text nodes, never as markup: whatever someone types
// stays text. The server has already dropped invisible and bidi characters.

import { el, keptOpen } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./table.js").Table} Table */
/** @typedef {import("./frames.js").ServerMessage} ServerMessage */

/** Lines kept on screen (the server keeps the last 50 for those who come back). */
const KEEP = 100;

/** Chat message ids start here, apart from other messages' ids. */
let nextId = 1_000_000;

/** A line of chat. @typedef {{ id: number, seat: number, name: string, text: string }} ChatLine */

/** A table's chat on this page: the lines on screen, the answer to the
 * last line sent, the last line read, where the "New" marker goes, and the
 * ids of lines sent that wait for an answer.
 * @typedef {{ lines: ChatLine[], note: string, readId: number | null, markId: number | null, pending: Set<number> }} Chat */

/** A table's chat before its first line. @returns {Chat} */
export function chatState() {
  return { lines: [], note: "", readId: null, markId: null, pending: new Set() };
}

/** Quick reactions: each is sent as a plain chat line. */
const REACTIONS = ["👍", "😂", "👏", "😮", "🎉"];

/** A muted player is known by seat and name: a seat freed and taken by
 * someone else is someone else. */
const muteKey = (/** @type {ChatLine} */ line) => line.seat + ":" + line.name;
const storeKey = (/** @type {Table} */ ctl) => "tripoley:mute:" + ctl.invite;

/** @param {Table} ctl @returns {Set<string>} */
function muted(/** @type {Table} */ ctl) {
  try {
    return new Set(JSON.parse(localStorage.getItem(storeKey(ctl)) || "[]"));
  } catch {
    return new Set();
  }
}

function setMuted(/** @type {Table} */ ctl, /** @type {string} */ key, /** @type {boolean} */ on) {
  const all = muted(ctl);
  if (on) all.add(key);
  else all.delete(key);
  localStorage.setItem(storeKey(ctl), JSON.stringify([...all]));
}

/** Screen readers hear new lines here: the panel itself is rebuilt at each
 * render, and a rebuilt region is not read out. */
/** @type {HTMLElement | null} */
let announcer = null;
function announce(/** @type {string} */ text) {
  if (!announcer) {
    announcer = el("div", { class: "visually-hidden", role: "log", "aria-live": "polite" });
    document.body.append(announcer);
  }
  announcer.replaceChildren(el("p", {}, text));
}

function add(/** @type {Table} */ ctl, /** @type {ChatLine} */ line) {
  if (ctl.chat.lines.some((l) => l.id === line.id)) return false;
  ctl.chat.lines.push(line);
  if (ctl.chat.lines.length > KEEP) ctl.chat.lines.splice(0, ctl.chat.lines.length - KEEP);
  return true;
}

/** Takes in the server's `welcome`, `chat` and `chat_history` messages. */
export function onChatMessage(/** @type {Table} */ ctl, /** @type {ServerMessage} */ m) {
  if (m.type === "welcome") ctl.chat.lines = [];
  if (m.type === "chat_history") {
    ctl.chat.lines = [];
    for (const line of m.lines) add(ctl, line);
    // Lines from before this page came are not news.
    markRead(ctl, false);
  }
  if (m.type === "chat" && add(ctl, m.line) && !muted(ctl).has(muteKey(m.line)) && m.line.seat !== ctl.seat) {
    announce(t("chat-said", { name: m.line.name, text: m.line.text }));
  }
}

/** Takes the answer to a line this browser sent; true when it was one. */
export function onChatReply(/** @type {Table} */ ctl, /** @type {ServerMessage} */ m) {
  if (!ctl.chat.pending.delete(m.id)) return false;
  if (m.type === "error") {
    ctl.chat.note = m.code === "rate_limited" ? t("chat-too-fast") : t("chat-refused", { reason: m.message });
  } else ctl.chat.note = "";
  return true;
}

/** Lines from others, not muted, after the last line this player has read. */
function unread(/** @type {Table} */ ctl, hidden = muted(ctl)) {
  const at = ctl.chat.lines.findIndex((l) => l.id === ctl.chat.readId);
  return ctl.chat.lines.slice(at + 1).filter((l) => l.seat !== ctl.seat && !hidden.has(muteKey(l)));
}

/** Everything on screen counts as read; `mark` keeps a "New" marker before
 * the first line that was not, so the eye finds where the news starts. */
function markRead(/** @type {Table} */ ctl, /** @type {boolean} */ mark) {
  const first = unread(ctl)[0];
  if (mark && first) ctl.chat.markId = first.id;
  if (ctl.chat.lines.length) ctl.chat.readId = ctl.chat.lines[ctl.chat.lines.length - 1].id;
}

/** Sends a line; whether it went (if not, the player was told beside the
 * field: on a phone with a long chat the page's error line is far above). */
function sendText(/** @type {Table} */ ctl, /** @type {string} */ text) {
  const id = nextId++;
  if (!ctl.send({ type: "chat", text, id }, (note) => { ctl.chat.note = note; })) {
    document.getElementById("chat-note")?.scrollIntoView({ block: "nearest" });
    return false;
  }
  ctl.chat.pending.add(id);
  // Writing is reading: the marker has done its work.
  ctl.chat.markId = null;
  return true;
}

function sendLine(/** @type {Table} */ ctl, /** @type {HTMLFormElement} */ form) {
  const input = /** @type {HTMLInputElement} */ (form.elements.namedItem("chat"));
  const text = input.value.trim();
  // A line that could not go stays in the field, to send again.
  if (!text || !sendText(ctl, text)) return;
  // Emptied for the next line; the field keeps the focus.
  input.value = "";
  input.defaultValue = "";
}

/** The chat panel, for the lobby and the game. Under a pass-and-play cover
 * (`covered`) nothing lies over the cover: no unread button (the lines
 * stay unread until the next player's table or the chat is seen). */
export function chatPanel(/** @type {Table} */ ctl, covered = false) {
  const hidden = muted(ctl);
  const shown = ctl.chat.lines.filter((l) => !hidden.has(muteKey(l)));
  // The lines scroll: a keyboard reaches them (Tab) to scroll them too.
  const list = el("ol", { class: "chat-lines", tabindex: 0, "aria-label": t("chat-title") },
    shown.flatMap((l) => [
      l.id === ctl.chat.markId ? el("li", { class: "unread-mark", "aria-hidden": "true" }, t("chat-new-mark")) : null,
      // Each part finds its own direction: a Hebrew line reads right to left
      // after a Latin name, and a name never turns the line around.
      el("li", { class: l.seat === ctl.seat ? "mine" : "" }, el("b", {}, el("bdi", {}, l.name), ":"), " ", el("span", { dir: "auto" }, l.text)),
    ].filter(Boolean)));
  // The newest line in view once the panel is on the page.
  queueMicrotask(() => { list.scrollTop = list.scrollHeight; });
  const news = unread(ctl, hidden).length;
  /** @type {(Node | null)[]} */
  const parts = [el("h2", {}, t("chat-title")), shown.length ? list : el("p", { class: "note" }, t("chat-empty"))];
  if (news) {
    // Where the player is (the chat may be below the board): a button that
    // takes them to the lines; seeing the chat marks them read.
    if (!covered) parts.push(el("button", { type: "button", class: "chat-unread", "aria-live": "polite",
      onclick: () => list.scrollIntoView({ block: "center" }) }, t("chat-unread", { count: news })));
    watch(ctl, list);
  }
  const count = ctl.chat.lines.length - shown.length;
  if (count) parts.push(el("p", { class: "note" }, t("chat-hidden", { count })));
  if (ctl.seat != null) {
    // What became of the last line stands under the field, where the
    // writer is looking, and the field names it to a screen reader.
    const note = ctl.chat.note ? el("p", { class: "error", id: "chat-note", role: "alert" }, ctl.chat.note) : null;
    const form = el("form", { class: "chat-form" },
      el("input", { name: "chat", maxlength: 200, autocomplete: "off", "aria-label": t("chat-message-label"),
        "aria-describedby": note ? "chat-note" : null }),
      el("button", { type: "submit" }, t("chat-send")));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      sendLine(ctl, form);
    });
    parts.push(form, note, el("div", { class: "reactions", role: "group", "aria-label": t("chat-reactions") },
      REACTIONS.map((emoji) => el("button", { type: "button", "aria-label": t("chat-react", { emoji }), onclick: () => sendText(ctl, emoji) }, emoji))));
  } else parts.push(el("p", { class: "note" }, t("chat-spectator")));
  parts.push(muteMenu(ctl, hidden));
  return el("section", { class: "panel chat", "aria-label": t("chat-title") }, parts);
}

/** Marks the lines read once `list` is in view (half of it at least). */
function watch(/** @type {Table} */ ctl, /** @type {HTMLElement} */ list) {
  const seen = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting) || document.visibilityState !== "visible") return;
    seen.disconnect();
    markRead(ctl, true);
    ctl.redraw();
  }, { threshold: 0.5 });
  seen.observe(list);
}

/** Everyone else who has written, each with a button that mutes or
 * unmutes them (kept in this browser, for this table). */
function muteMenu(/** @type {Table} */ ctl, /** @type {Set<string>} */ hidden) {
  const people = new Map();
  for (const l of ctl.chat.lines) if (l.seat !== ctl.seat) people.set(muteKey(l), l.name);
  const buttons = [...people].map(([key, who]) => {
    const on = hidden.has(key);
    return el("button", {
      type: "button", class: "mute", "data-key": "mute-" + key, "aria-pressed": String(on),
      onclick: () => {
        setMuted(ctl, key, !on);
        ctl.redraw();
      },
    }, on ? t("chat-unmute", { name: who }) : t("chat-mute", { name: who }));
  });
  return keptOpen(ctl.open, "chat-mute", t("chat-mute-summary"), () => (buttons.length ? buttons : el("p", { class: "note" }, t("chat-nobody-to-mute"))));
}

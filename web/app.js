// The table: what a player or a spectator sees of one game, loaded by
// main.js when a table opens. Speaks protocol version 1 (docs/protocol.md)
// over a websocket.

import { el, keptOpen, svgEl } from "./dom.js";
import { S, name, isNapalm, send, save, saved, storeKey, api, savePrefs, CHOOSE_FIVE } from "./state.js";
import { describe, setNamer, stopWhy } from "./words.js";
import { DealTally } from "./summary.js";
import { tableView } from "./board.js";
import { napalmView, describeNapalm } from "./napalm.js";
import { flyChips, flyDeal, landCards } from "./motion.js";
import { play, soundsOf, unlock } from "./sounds.js";
import { t, errorText } from "./i18n.js";
import { chatPanel, onChatMessage, onChatReply } from "./chat.js";
import { presetLine } from "./tables.js";
import { hostSeatTools, lobbySeats, onSeatFreed, onRematch } from "./seats.js";
import { qrCode } from "./qr.js";
import { turnMark, buzz } from "./notify.js";
import { rulesView } from "./rules.js";
import { addPlayerForm, onWelcome, passCover, shownToken } from "./passplay.js";
import { OFFLINE, OfflineLink, ask, keptGame } from "./offline.js";

const PROTOCOL = 1;
const main = document.getElementById("main");
const connEl = document.getElementById("conn");
setNamer(name);

// ----- events -----

/** Events that begin a deal's (or the final pot's) tally. */
const OPENS_TALLY = new Set(["transfer", "deal_started", "final_pot_round"]);

/** Takes in one step's events; `live` when they just happened (animate). */
function absorb(events, n, live) {
  for (const e of events) {
    // A deal's antes come before its `deal_started` (and after the last
    // deal's `deal_ended`): they open the next deal's tally, or the final
    // pot's.
    if ((!S.deal || S.deal.ended) && OPENS_TALLY.has(e.event)) {
      S.deal = new DealTally((S.deal ? S.deal.number : 0) + 1, S.table.seats.length);
    }
    if (e.event === "deal_started") S.stopped = null;
    if (S.deal) S.deal.add(e);
    if (e.event === "final_pot_round") S.finalTally = S.deal;
    if (e.event === "deal_ended" && S.deal) S.results.push({ tally: S.deal, seen: false });
    if (e.event === "run_stopped") S.stopped = stopWhy(e);
    if (e.event === "transfer" && live && e.reason !== "ante") S.flights.push(e);
    if ((e.event === "led" || e.event === "played") && live) S.landing.push(e.card);
    if (e.event === "dealt" && live) S.dealing = true;
    const text = isNapalm() ? describeNapalm(e) : describe(e);
    if (text) S.log.push({ n, text });
  }
  if (S.log.length > 300) S.log.splice(0, S.log.length - 300);
}

/** The table's connection: a websocket to the server, or the offline
 * table's worker, which answers with the same frames. */
function link() {
  if (S.invite === OFFLINE) return new OfflineLink(onDue);
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return new WebSocket(proto + "//" + location.host + "/ws/" + encodeURIComponent(S.invite));
}

/** Who must act next at the offline table: another person of this device
 * gets the device (behind the pass-and-play cover). */
function onDue(due) {
  S.due = due;
  render();
}

function connect() {
  const ws = link();
  S.ws = ws;
  connEl.textContent = t("conn-connecting");
  ws.addEventListener("open", () => {
    ws.send(JSON.stringify({ type: "hello", v: PROTOCOL, token: shownToken(), last: S.last }));
  });
  ws.addEventListener("message", (ev) => onMessage(JSON.parse(ev.data)));
  ws.addEventListener("close", () => {
    connEl.textContent = t("conn-reconnecting");
    if (S.ws !== ws) return;
    // Until the server takes us in again, the page says so and nothing
    // can be clicked that would be lost.
    S.offline = true;
    render();
    S.retry = Math.min(S.retry + 1, 6);
    setTimeout(connect, 250 * 2 ** S.retry);
  });
}

function onMessage(m) {
  const wasMine = S.view && S.view.decision;
  onChatMessage(m);
  if (onChatReply(m) || onSeatFreed(m) || onRematch(m)) {
    render();
    return;
  }
  switch (m.type) {
    case "welcome":
      // Backoff restarts only once the server took us in: it closes a refused
      // hello (a full table), and retrying that at once would loop.
      S.retry = 0;
      S.offline = false;
      S.role = m.role; S.seat = m.seat; S.host = m.host; S.table = m.table;
      connEl.textContent = m.role === "player" ? t("conn-player", { name: (m.table.seats[m.seat] || {}).name || t("seat-n", { n: m.seat + 1 }) }) : t("conn-watching");
      onWelcome(m);
      break;
    case "table":
      S.table = m.table;
      break;
    case "state":
      S.log = []; S.deal = null; S.stopped = null; S.winners = null;
      S.table = m.table;
      for (const entry of m.log) absorb(entry.events, entry.n, false);
      S.view = m.view; S.last = m.n; setTurn(m.turn);
      break;
    case "update":
      absorb(m.events, m.n, !!m.view);
      for (const sound of soundsOf(m.events)) play(sound);
      S.last = Math.max(S.last ?? 0, m.n);
      if (m.view) {
        // The table decided for this player: their time ran out.
        if (m.auto && wasMine) S.timedOut = true;
        S.view = m.view; setTurn(m.turn); S.hint = null; S.confirm = null;
        if (m.auto && m.turn !== undefined) S.log.push({ n: m.n, text: t("log-auto") });
      }
      break;
    case "hint":
      // Five poker cards are picked on screen (what is shown is what
      // "These five" sends); any other hint is said in words.
      if (m.action[CHOOSE_FIVE] && S.view && S.view.decision && S.view.decision.choose_five) {
        S.chosen = new Set(m.action[CHOOSE_FIVE]);
      } else S.hint = m.action;
      break;
    case "error":
      S.error = errorText(m);
      if (m.code === "unauthorized" && S.role == null) {
        localStorage.removeItem(storeKey(S.invite));
        S.ws.close();
      }
      break;
    default:
      break;
  }
  render();
  if (S.view && (S.view.standings || S.winners)) import("./games.js").then((g) => g.remember());
  if (S.view && S.view.decision && !wasMine) {
    play("turn");
    buzz();
  }
}

function setTurn(turn) {
  S.turn = turn || null;
  S.turnAt = performance.now();
}

// ----- rendering -----

/** Puts `parts` in the page in place of what was there. A scrolled panel
 * (`data-keep-scroll`) keeps its place: every move draws the page again, and
 * it threw someone reading the rules back to the top at each one. A panel
 * that grows at its end (`data-follow`, the log) keeps its distance from the
 * end, so a reader scrolled back sees the same lines, and one at the end
 * sees the newest. */
function redraw(parts) {
  const fromEnd = (s) => s.scrollHeight - s.clientHeight - s.scrollTop;
  const scrolled = new Map([...main.querySelectorAll("[data-keep-scroll]")].map((s) => [s.dataset.keepScroll, { top: s.scrollTop, end: fromEnd(s) }]));
  main.replaceChildren(...parts);
  for (const s of main.querySelectorAll("[data-keep-scroll]")) {
    const was = scrolled.get(s.dataset.keepScroll);
    if (s.dataset.follow == null) s.scrollTop = was ? was.top : 0;
    else s.scrollTop = s.scrollHeight - s.clientHeight - (was && was.end > 1 ? was.end : 0);
  }
}

function render() {
  if (!S.table) return;
  const offline = S.invite === OFFLINE;
  // Pass-and-play: while the device goes to the next player, no hand is drawn.
  const cover = passCover();
  if (cover) {
    redraw([settingsBar(), cover, offline ? null : chatPanel(true)].filter(Boolean));
    tick();
    return;
  }
  const parts = [settingsBar()];
  if (S.offline) parts.unshift(el("p", { class: "offline", role: "alert" }, t("offline-banner")));
  if (S.table.status === "lobby") parts.push(lobby());
  if (S.view) parts.push(isNapalm() ? napalmView() : tableView());
  if (S.error) parts.push(el("p", { class: "error", role: "alert" }, S.error));
  // Nobody to chat with at a table on one device.
  parts.push(...[hostSeatTools(), offline ? null : chatPanel()].filter(Boolean));
  const active = document.activeElement;
  const focused = active && (active.dataset.key || active.dataset.card || active.name);
  // What the player is typing (a name, an amount) survives a re-render
  // caused by someone else's move or a player joining.
  const typed = new Map();
  for (const f of main.querySelectorAll("input:not([readonly]), select, textarea")) {
    const key = f.dataset.key || f.name;
    if (key && f.value !== f.defaultValue) typed.set(key, f.value);
  }
  const before = flightStarts();
  redraw(parts);
  for (const f of main.querySelectorAll("input:not([readonly]), select, textarea")) {
    const key = f.dataset.key || f.name;
    if (!typed.has(key)) continue;
    const v = typed.get(key);
    const n = Number(v);
    const fits = f.type !== "number" || ((f.min === "" || n >= Number(f.min)) && (f.max === "" || n <= Number(f.max)));
    if (fits) f.value = v;
  }
  if (focused) {
    const again = main.querySelector('[data-key="' + focused + '"], [data-card="' + focused + '"], [name="' + focused + '"]');
    // Where it was: the page need not scroll to it.
    if (again) again.focus({ preventScroll: true });
  }
  if (S.offline) for (const c of main.querySelectorAll(".table button, .table input, .lobby button")) c.disabled = true;
  focusDecision();
  flyChips(S.flights.splice(0), before, main);
  landCards(S.landing.splice(0), main);
  if (S.dealing) flyDeal(main);
  S.dealing = false;
  tick();
}

/** Where the focus goes at a new decision, first found first: the quiet
 * answer, a card that may be led without a price, any card, any control. */
const DECISION_FOCUS = [".controls button.primary:not(:disabled)", "button.cardface.playable:not(.misplay)", "button.cardface.playable", ".controls button", ".controls input"];

/** A new decision takes the focus (unless the player is typing somewhere
 * else: chat, a name) and the polite live region says what is asked, so
 * nobody tabs through the page to find it. */
function focusDecision() {
  const hand = main.querySelector("section.hand.mine[data-decision]");
  if (!hand) {
    S.focusedFor = null;
    return;
  }
  // The same decision again later (another card to lead, the next round)
  // is a new one: the deal, the cards held and the round tell them apart.
  const v = S.view;
  const key = JSON.stringify([v.deal_number ?? v.hand_number, (v.hand || v.cards || []).length, v.round, v.decision]);
  if (key === S.focusedFor) return;
  S.focusedFor = key;
  const prompt = hand.querySelector(".prompt");
  document.getElementById("announce").textContent = t("announce-turn", { what: prompt ? prompt.textContent : "" });
  const typing = document.activeElement && document.activeElement.matches("input, textarea, select") && !hand.contains(document.activeElement);
  if (typing) return;
  for (const sel of DECISION_FOCUS) {
    const target = hand.querySelector(sel);
    if (target) {
      target.focus({ preventScroll: true });
      return;
    }
  }
}

/** Where each account was on screen before a re-render, so chips can fly
 * from where a space was to where a player is. */
function flightStarts() {
  const at = new Map();
  if (!S.flights.length) return at;
  for (const e of main.querySelectorAll("[data-account]")) at.set(e.dataset.account, e.getBoundingClientRect());
  return at;
}

document.addEventListener("tripoley:render", render);
document.addEventListener("tripoley:rematch", rematch);
document.addEventListener("tripoley:switch-seat", switchSeat);
document.addEventListener("visibilitychange", tick);

/** Another seat of this device is shown (pass-and-play): the page forgets
 * what it knew of the seat it showed and says hello as the other one. */
function switchSeat(e) {
  const old = S.ws;
  const offline = old instanceof OfflineLink;
  if (!offline) {
    S.ws = null;
    if (old) old.close();
  }
  Object.assign(S, {
    view: null, last: null, log: [], deal: null, results: [], finalTally: null, stopped: null, winners: null,
    hint: null, confirm: null, chosen: new Set(), chosenFor: null, turn: null, flights: [], landing: [],
    focusedFor: null, timedOut: false, error: "", role: null, seat: null, due: null,
  });
  // The offline table shows the other seat over the same worker.
  if (offline) old.show(e.detail.seat);
  else connect();
  render();
}

function settingsBar() {
  const toggle = (key, label) => el("label", { class: "toggle" },
    el("input", { type: "checkbox", "data-key": "pref-" + key, checked: S.prefs[key], onchange: (e) => { S.prefs[key] = e.target.checked; savePrefs(); render(); } }),
    " " + label);
  return el("div", { class: "bar" },
    rulesView(),
    seatLink(),
    keptOpen("settings", t("settings"), () => [toggle("fourColour", t("settings-four-colour")), toggle("guide", t("settings-guide"))]),
    soundSwitch());
}

/** Sounds on or off, in view at the table (kept in this browser). Switching
 * them on is the click that lets the page's audio start. */
function soundSwitch() {
  const on = S.prefs.sound;
  return el("button", {
    type: "button", class: "sound-switch", "data-key": "pref-sound", "aria-pressed": String(on),
    onclick: () => {
      S.prefs.sound = !on;
      if (S.prefs.sound) unlock();
      savePrefs();
      render();
    },
  }, soundIcon(on), " ", t("settings-sound"));
}

/** A loudspeaker, with waves when sounds are on and a cross when off: drawn
 * by the page (an emoji is an empty box where no emoji font is installed). */
function soundIcon(on) {
  const stroke = { fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" };
  return svgEl("svg", { viewBox: "0 0 24 24", class: "icon", "aria-hidden": "true", focusable: "false" },
    svgEl("path", { d: "M3 9v6h4l5 4V5L7 9z", fill: "currentColor" }),
    svgEl("path", { d: on ? "M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13" : "M16 9l6 6M22 9l-6 6", ...stroke }));
}

/** A player's own link back to their seat, for another phone or computer. */
function seatLink() {
  // The shown seat's own (pass-and-play: not the device's first player's).
  const token = shownToken();
  if (S.seat == null || !token) return null;
  const link = location.origin + "/t/" + S.invite + "#seat=" + token;
  return keptOpen("seat-link", t("seat-link"), () => el("div", { class: "panel" },
    el("p", {}, t("seat-link-help")),
    el("input", { readonly: true, value: link, size: 40, "aria-label": t("seat-link-label"), onfocus: (e) => e.target.select() })));
}

/** What the copy-link button last said: nothing yet, done, or copy it by hand. */
function copyNote() {
  if (S.copied === null) return "";
  return S.copied ? t("lobby-copied") : t("lobby-copy-by-hand");
}

function lobby() {
  const mine = saved(S.invite);
  const seats = lobbySeats();
  const s = S.table.settings;
  const named = S.presets && s.game !== "napalm" ? presetLine(s.rules, S.presets) : null;
  const summary = el("div", { class: "lobby-rules" }, named ? el("p", { class: "preset-line" }, named) : null, el("p", { class: "rules-summary" }, describeRules(s)));
  const sitting = !mine || !mine.token || (S.role === "spectator" && !mine.seat && !mine.host);
  const open = S.table.seats.filter((s) => s.kind === "open");
  // A guest opening an invite sees who invited them and takes a seat first.
  if (sitting && open.length) {
    const host = (S.table.seats.find((s) => s.kind === "human") || {}).name;
    return el("section", { class: "panel lobby", "aria-label": t("lobby") },
      el("h2", {}, t("lobby-invited", { host: host || "", game: S.table.settings.game === "napalm" ? "napalm" : "tripoley" })),
      sitForm(open), summary, seats);
  }
  const box = el("section", { class: "panel lobby", "aria-label": t("lobby") }, el("h2", {}, t("lobby-waiting")));
  // The link-sharing tools are the host's.
  if (S.host) box.append(...inviteTools());
  box.append(summary, seats);
  if (S.role === "player") box.append(addPlayerForm(open) || "");
  if (S.host) box.append(el("button", { "data-key": "start", class: "primary", onclick: () => send({ type: "start" }) }, t("lobby-start")));
  else box.append(el("p", {}, t("lobby-wait-host")));
  return box;
}

/** The invite link, its copy button and its QR code. */
function inviteTools() {
  const link = location.origin + "/t/" + S.invite;
  // The lobby is drawn again whenever someone sits down: what the copy
  // button said is kept in the state, not only in the note it wrote.
  const note = el("span", { class: "note", role: "status" }, copyNote());
  return [
    el("p", {}, t("lobby-send-link")),
    el("div", { class: "invite" },
      el("input", { readonly: true, value: link, size: 32, "aria-label": t("lobby-invite-link"), onfocus: (e) => e.target.select() }),
      el("button", {
        "data-key": "copy-link",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            S.copied = true;
          } catch {
            S.copied = false;
          }
          // The lobby on screen: it may have been drawn again (someone
          // came or left) while the clipboard answered.
          for (const shown of main.querySelectorAll(".invite .note")) shown.textContent = copyNote();
        },
      }, t("lobby-copy")), note),
    qrCode(link),
  ];
}

/** A name and a seat, for a guest: "Take the seat". */
function sitForm(open) {
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { class: "sit" },
    el("label", {}, t("home-your-name") + " ", el("input", { name: "name", required: true, maxlength: 16, autocomplete: "nickname" })),
    el("label", {}, " " + t("lobby-seat") + " ", el("select", { name: "seat" }, open.map((s) => el("option", { value: s.seat }, t("seat-n", { n: s.seat + 1 }))))),
    el("button", { type: "submit", class: "primary" }, t("lobby-sit")), error);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    try {
      const r = await api("POST", "/api/tables/" + S.invite + "/sit", { seat: Number(f.get("seat")), name: f.get("name") });
      save(S.invite, { token: r.token, seat: r.seat });
      S.ws.close();
    } catch (e) {
      error.textContent = errorText(e);
    }
  });
  return form;
}

/** The table in one sentence, for the lobby. */
function describeRules(s) {
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

// ----- the clock -----

/** Seconds left under which the clock warns (red, and a beep when sounds are on). */
const LOW_SECONDS = 10;

/** The clock of whoever must act, a bar on your own decision that empties
 * as time runs, the warning at ten seconds, and the tab's title and icon
 * saying it is your turn (seen from another tab). */
function tick() {
  const mine = !!(S.view && S.view.decision);
  turnMark(mine);
  if (!S.turn || S.turn.ms == null) return;
  const left = Math.max(0, S.turn.ms - (performance.now() - S.turnAt));
  const low = left <= LOW_SECONDS * 1000;
  const text = " " + t("timer", { s: Math.ceil(left / 1000) });
  for (const e of document.querySelectorAll(".timer")) e.textContent = text;
  for (const e of document.querySelectorAll(".clock, .turn-bar")) e.classList.toggle("low", low);
  const total = (S.table.settings.turn_seconds || 0) * 1000;
  for (const e of document.querySelectorAll(".turn-bar")) e.style.setProperty("--left", String(total ? Math.min(1, left / total) : 1));
  if (mine && low && S.warnedAt !== S.turnAt) {
    S.warnedAt = S.turnAt;
    play("low");
  }
}

// ----- rematch -----

/** Asks the server for the next game with the same people (any player of
 * the finished table may ask; everyone gets the same new table) and moves
 * there with this seat's token, which the new table keeps. */
async function rematch() {
  if (S.ws instanceof OfflineLink) {
    S.ws.rematch();
    return;
  }
  const mine = saved(S.invite);
  try {
    const r = await api("POST", "/api/tables/" + S.invite + "/rematch", { token: mine && mine.token });
    save(r.invite, { token: mine.token, seat: mine.seat ?? S.seat, host: S.host || !!mine.host, others: mine.others });
    location.href = r.path;
  } catch (e) {
    S.rematch = t("rematch-failed", { error: errorText(e) });
    render();
  }
}

/** A personal link (`#seat=<token>`) opened on another device: the seat's
 * token moves into this browser and out of the address bar. The fragment
 * never reaches a server. */
function takeSeatLink(invite) {
  const m = location.hash.match(/^#seat=([0-9a-f]{32})$/);
  if (!m) return;
  save(invite, { token: m[1] });
  history.replaceState(null, "", location.pathname);
}

/** The table at this invite: the page (`main.js`) loads this module only
 * when a table opens. */
export async function openTable(invite) {
  S.invite = invite;
  S.copied = null;
  if (invite === OFFLINE) return openOffline();
  takeSeatLink(invite);
  try {
    S.table = await api("GET", "/api/tables/" + encodeURIComponent(invite));
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, errorText(e)), el("p", {}, el("a", { href: "./" }, t("back"))));
    return;
  }
  render();
  connect();
  setInterval(tick, 250);
  // Only names the lobby's rules: the table plays without it.
  api("GET", "/api/presets").then((p) => { S.presets = p; render(); }, () => {});
}

/** The offline table (`#offline`): the game kept in this browser, played by
 * the worker; the presets come from the worker too. */
function openOffline() {
  if (!keptGame()) {
    main.replaceChildren(el("p", {}, t("offline-none")), el("p", {}, el("a", { href: "./" }, t("back"))));
    return;
  }
  connect();
  setInterval(tick, 250);
  ask({ presets: true }, "presets").then((p) => { S.presets = p; render(); }, () => {});
}

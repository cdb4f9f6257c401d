// The replay of a finished game (issue 27): every step drawn by the live
// table's own board (`tableView`), read-only (no "your turn", no control),
// as the player saw it (or, for a spectator, with every hand face up),
// stepped with ←/→, Home/End, PgUp/PgDn (deal by deal) and a slider; and
// the expert's analysis: the costliest decisions, each a click to its step,
// and a chart of the chips. Three sources: the table just played (from the
// game-over screen), a share link (`/replay/<share>`, its own page) and a
// record file sent to the server (nothing stored; its analysis asked by
// sending the file again).

import { el, svgEl } from "./dom.js";
import { S, api, name, isNapalm, serverless } from "./state.js";
import { tableView } from "./board.js";
import { napalmView, describeNapalm } from "./napalm.js";
import { actionText, describe, setNamer } from "./words.js";
import { t, errorText } from "./i18n.js";
import { myGame } from "./games.js";
import { OFFLINE, ask, keptGame, keepSaved, offlineReady } from "./offline.js";

/** What the board reads from `S`, replaced while a step is drawn. */
const DRAWN = ["view", "seat", "turn", "results", "deal", "log", "finalTally", "rematch", "host", "hint", "confirm", "replaying", "winners"];
/** Mistakes listed: the costliest first. */
const LISTED = 10;

/** The viewer's state; `source` is where the frames come from: the table
 * played (`invite`), a share link (`share`) or a file's text (`file`). */
const R = { frames: [], at: 0, seat: null, root: null, analysis: null, asked: false, error: "", source: null, onClose: null, resumable: null, replacing: false };

/** Opens the viewer over the page (the game-over screen's button). */
export function openReplay() {
  // The offline table's game is replayed in this browser, from its record.
  if (S.invite === OFFLINE) return open({ record: (keptGame() || {}).saved || "", mine: true }, S.seat);
  return open({ invite: S.invite }, S.seat);
}

/** A game played on this device (My games keeps its record): replayed and
 * analysed by the engine in this browser, seen from `seat`. */
export function openRecord(record, seat, onClose) {
  return open({ record, mine: true }, seat, onClose);
}

/** The page of a share link: the game face up, for anyone with the link;
 * closing it goes to the home page. */
export function openShared(share) {
  return open({ share }, null, () => { location.href = "./"; });
}

/** A record file (`tripoley play --save`, `sim --save-records`), sent to
 * the server for its frames; refused here, before sending, if too large. */
export function openFile(file, onClose) {
  if (file.size > MAX_FILE) {
    return open({ refused: errorText({ detail: { reason: "record", problem: "too_big" }, message: "" }) }, null, onClose);
  }
  // With no server, the engine in this browser reads it.
  return file.text().then((text) => open(serverless() ? { record: text } : { file: text }, null, onClose));
}

/** The largest record file (the server's bound). */
const MAX_FILE = 4 << 20;

async function open(source, seat, onClose = null) {
  // Events name the players as the board does (away from a table too);
  // a link's or a file's viewer played none of the seats.
  S.onlooker = !source.invite && !source.mine;
  setNamer(name, () => !S.onlooker);
  // One viewer at a time (another file dropped replaces it).
  if (R.root) R.root.remove();
  Object.assign(R, { source, seat, onClose, at: 0, analysis: null, asked: false, resumable: null, replacing: false });
  R.root = el("section", { class: "replay", role: "dialog", "aria-modal": "true", "aria-label": t("replay-title"), tabindex: -1 });
  R.root.addEventListener("keydown", onKey);
  document.body.append(R.root);
  await load();
}

/** The frames as `R.seat` saw them (the analysis stays: it is the player's). */
async function load() {
  R.error = "";
  const q = R.seat == null ? "" : "?seat=" + R.seat;
  const src = R.source;
  try {
    if (src.refused) throw new Error(src.refused);
    const replay = src.record != null ? await ask({ replay: { record: src.record, seat: R.seat } }, "replayed")
      : src.file != null ? await upload("/api/replays" + q, src.file)
      : await api("GET", (src.share ? "/api/replays/" + src.share : "/api/tables/" + encodeURIComponent(src.invite) + "/replay") + q);
    R.frames = replay.frames;
    // Away from the table (a link, a file) the names come with the frames.
    if (!src.invite && !(src.mine && S.table)) S.table = { seats: replay.names.map((n) => ({ name: n, kind: "human", connected: true })), settings: { game: replay.game || "tripoley", rules: {} } };
    R.at = Math.min(R.at, R.frames.length - 1);
    R.resumable = await resumable(src);
  } catch (e) {
    R.frames = [];
    R.error = errorText(e);
  }
  draw();
  R.root.focus();
}

/** A file's text sent as it is to `path` (the server reads it):
 * `/api/replays` for its frames, `/api/replays/analysis` for the verdicts. */
async function upload(path, text) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: text }).catch(() => null);
  const data = res && await res.json().catch(() => null);
  if (res && res.ok && data) return data;
  const err = new Error((data && data.message) || t("error-unreachable"));
  Object.assign(err, data || { code: "unreachable" });
  throw err;
}

/** A saved game not finished (a record with its `play` field, from this
 * browser or `tripoley play --save`) that the engine here can go on with:
 * its text, or null. */
async function resumable(src) {
  const text = src.record ?? src.file;
  if (text == null || src.mine) return null;
  let saved = null;
  try {
    saved = JSON.parse(text);
  } catch {
    return null;
  }
  const people = saved && saved.play && Array.isArray(saved.play.bots) && saved.play.bots.some((b) => b === null);
  const last = R.frames[R.frames.length - 1];
  const over = !last || (last.view && last.view.standings) || R.frames.some((f) => f.events.some((e) => e.event === "game_over"));
  return people && !over && (await offlineReady()) ? text : null;
}

/** "Go on with this game here": it becomes the game of this device (after
 * a word when it would replace an unfinished one). */
function resumeButton() {
  if (!R.resumable) return null;
  const kept = keptGame();
  const replaces = kept && !kept.over;
  const go = () => {
    keepSaved(R.resumable);
    location.href = "./#offline";
    location.reload();
  };
  if (R.replacing) {
    return el("span", { class: "confirm" }, t("replay-resume-replaces"), " ",
      el("button", { "data-key": "replay-resume-confirm", class: "primary", onclick: go }, t("replay-resume")));
  }
  return el("button", {
    "data-key": "replay-resume", class: "primary",
    onclick: () => {
      if (!replaces) return go();
      R.replacing = true;
      draw();
    },
  }, t("replay-resume"));
}

function close() {
  R.root.remove();
  R.root = null;
  S.onlooker = false;
  if (R.onClose) R.onClose();
}

/** A frame's deal (a Napalm game's hand). */
const dealOf = (f) => f.view.deal_number ?? f.view.hand_number;

/** The first frame of each deal. */
function dealStarts() {
  return R.frames.map((f, i) => i).filter((i) => i === 0 || dealOf(R.frames[i]) !== dealOf(R.frames[i - 1]));
}

function go(i) {
  R.at = Math.max(0, Math.min(R.frames.length - 1, i));
  draw();
}

function onKey(e) {
  const starts = dealStarts();
  const moves = {
    ArrowLeft: () => R.at - 1, ArrowRight: () => R.at + 1, Home: () => 0, End: () => R.frames.length - 1,
    PageUp: () => [...starts].reverse().find((s) => s < R.at) ?? 0,
    PageDown: () => starts.find((s) => s > R.at) ?? R.frames.length - 1,
  };
  if (e.key === "Escape") return close();
  if (!moves[e.key] || e.target.type === "range") return;
  e.preventDefault();
  go(moves[e.key]());
}

/** The live board drawn for the frame shown: `S` holds the frame's view
 * for the call (no decision may be answered from a replay). */
function board(frame) {
  const kept = Object.fromEntries(DRAWN.map((k) => [k, S[k]]));
  const shown = R.frames.slice(0, R.at + 1);
  const log = shown.flatMap((f) => lines(f).map((text) => ({ n: f.n, text })));
  // A Napalm game is over at its `game_over` event, not before.
  const over = shown.flatMap((f) => f.events).find((e) => e.event === "game_over");
  Object.assign(S, { view: { ...frame.view, decision: null }, seat: R.seat, turn: null, results: [], deal: null, log, finalTally: null, rematch: null, host: false, hint: null, confirm: null, replaying: true, winners: over ? over.winners : null });
  try {
    const drawn = isNapalm() ? napalmView() : tableView();
    drawn.inert = true;
    return drawn;
  } finally {
    Object.assign(S, kept);
  }
}

/** What a frame's events say, in the live table's words. */
const lines = (frame) => frame.events.map(isNapalm() ? describeNapalm : describe).filter(Boolean);

/** Whose eyes: the player's own or every card face up at the table; any
 * seat's or face up for a link or a file. */
function seenBy() {
  if (R.source.invite) {
    return S.seat != null ? el("button", { "data-key": "replay-face-up", "aria-pressed": String(R.seat == null), onclick: () => { R.seat = R.seat == null ? S.seat : null; load(); } }, t("replay-face-up")) : null;
  }
  if (!S.table || !R.frames.length) return null;
  const pick = el("select", { "data-key": "replay-seen-by", "aria-label": t("replay-seen-by") },
    el("option", { value: "", selected: R.seat == null }, t("replay-face-up")),
    S.table.seats.map((s, i) => el("option", { value: i, selected: R.seat === i }, t("replay-seen-as", { who: s.name || t("seat-n", { n: i + 1 }) }))));
  pick.addEventListener("change", () => { R.seat = pick.value === "" ? null : Number(pick.value); load(); });
  return pick;
}

function draw() {
  if (!R.root) return;
  const top = el("div", { class: "replay-bar" },
    el("h2", {}, t("replay-title")),
    seenBy(),
    shareLink(),
    resumeButton(),
    el("button", { "data-key": "replay-close", onclick: close }, t("replay-close")));
  if (!R.frames.length) {
    R.root.replaceChildren(top, el("p", { class: "error", role: "alert" }, R.error));
    return;
  }
  const frame = R.frames[R.at];
  const last = R.frames.length - 1;
  const slider = el("input", { type: "range", min: 0, max: last, value: R.at, "data-key": "replay-slider", "aria-label": t("replay-slider") });
  slider.addEventListener("input", () => go(Number(slider.value)));
  // The arrows are for the eye; the buttons are named in words.
  const nav = el("div", { class: "replay-nav" },
    el("button", { "data-key": "replay-prev", "aria-label": t("replay-back"), onclick: () => go(R.at - 1), disabled: R.at === 0 }, "←"),
    slider,
    el("button", { "data-key": "replay-next", "aria-label": t("replay-forward"), onclick: () => go(R.at + 1), disabled: R.at === last }, "→"),
    el("span", { class: "replay-step", "data-step": R.at, "aria-live": "polite" },
      t("replay-step", { n: R.at + 1, total: last + 1, deal: Math.max(dealOf(frame), 1), game: S.table.settings.game })),
    el("span", { class: "replay-keys" }, t("replay-keys", { game: S.table.settings.game })),
    el("p", { class: "replay-what" }, lines(frame).join(" ")));
  R.root.replaceChildren(top, nav, analysisPanel(), board(frame));
}

async function analyse() {
  R.asked = true;
  draw();
  try {
    const src = R.source;
    const q = src.invite && S.seat != null ? "?seat=" + S.seat : "";
    R.analysis = src.record != null ? await ask({ analyse: { record: src.record, seat: src.mine ? S.seat : null } }, "analysis")
      : src.file != null ? await upload("/api/replays/analysis", src.file)
      : await api("GET", (src.share ? "/api/replays/" + src.share : "/api/tables/" + encodeURIComponent(src.invite)) + "/analysis" + q);
  } catch (e) {
    R.error = errorText(e);
  }
  draw();
}

/** The frame just before record step `step`: the position decided. */
function frameOf(step) {
  const i = R.frames.findIndex((f) => f.step === step);
  return i > 0 ? i - 1 : 0;
}

function analysisPanel() {
  const a = R.analysis;
  if (isNapalm()) return el("section", { class: "replay-analysis panel" }, el("p", {}, t("replay-napalm-no-analysis")));
  if (!a) {
    return el("section", { class: "replay-analysis panel" },
      R.asked && !R.error ? el("p", { role: "status" }, t("replay-analysing"))
        : el("button", { "data-key": "replay-analyse", onclick: analyse }, t("replay-analyse")),
      R.error ? el("p", { class: "error", role: "alert" }, R.error) : null);
  }
  const mistakes = a.decisions.filter((d) => d.cost >= 0.5).slice(0, LISTED);
  return el("section", { class: "replay-analysis panel", "aria-label": t("replay-mistakes") },
    el("h3", {}, t("replay-mistakes")),
    mistakes.length ? el("ol", { class: "mistakes" }, mistakes.map((d) => el("li", {},
      el("button", { "data-step": frameOf(d.step), onclick: () => go(frameOf(d.step)) },
        t("replay-mistake", { deal: d.deal, who: name(d.seat), played: actionText(d.played), best: actionText(d.best), cost: Math.round(d.cost), error: Math.max(1, Math.round(d.std_error)) })))))
      : el("p", {}, t("replay-no-mistakes")),
    chart(a, mistakes));
}

/** Each player's chips after each deal, a line per seat, the listed
 * mistakes marked on their deal. */
function chart(a, mistakes) {
  const [w, h, pad] = [320, 140, 12];
  // From the lowest stack to the highest: the differences are what matter.
  const all = a.chips.flatMap((c) => c.stacks);
  const [low, high] = [Math.min(...all), Math.max(...all)];
  const span = Math.max(1, a.chips.length - 1);
  const x = (i) => pad + (i * (w - 2 * pad)) / span;
  const y = (chips) => h - pad - ((chips - low) * (h - 2 * pad)) / Math.max(1, high - low);
  const root = svgEl("svg", { viewBox: `0 0 ${w} ${h}`, class: "chip-chart", role: "img", "aria-label": t("replay-chart") });
  a.names.forEach((_, s) => {
    root.append(svgEl("polyline", { class: "seat-line seat-" + s, fill: "none", "stroke-width": 2,
      points: a.chips.map((c, i) => `${x(i)},${y(c.stacks[s])}`).join(" ") }));
  });
  for (const d of mistakes) {
    const i = Math.min(d.deal, a.chips.length - 1);
    root.append(svgEl("circle", { class: "mistake-mark seat-" + d.seat, cx: x(i), cy: y(a.chips[i].stacks[d.seat]), r: 4 }));
  }
  return el("figure", { class: "chart" }, root, el("figcaption", {}, a.names.map((n, s) => el("span", { class: "seat-key seat-" + s }, n || name(s)))));
}

/** The game's share link, to copy (a finished table's or the page's own). */
function shareLink() {
  const share = R.source.share || (R.source.invite && myGame(R.source.invite)?.share);
  if (!share) return null;
  const url = location.origin + "/replay/" + share;
  return el("a", { class: "replay-link", href: url, "data-key": "replay-link" }, t("replay-link"));
}

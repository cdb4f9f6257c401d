// @ts-check
// The replay of a finished game (issue 27): every step drawn by the live
// table's own board, read-only (no "your turn", no control), as the player
// saw it (or, for a spectator, with every hand face up), stepped with ←/→,
// Home/End, PgUp/PgDn (deal by deal) and a slider; and the expert's
// analysis: the costliest decisions, each a click to its step, and a chart
// of the chips. Three sources: the table just played (from the game-over
// screen), a share link (`/replay/<share>`, its own page) and a record file
// sent to the server (nothing stored; its analysis asked by sending the
// file again). The viewer is a table of its own (a controller of kind
// "replay", with no link): each step is put in its state and drawn by the
// one render path, beside the live table and without touching it.

import { el, svgEl } from "./dom.js";
import { api, nothing, serverless } from "./state.js";
import { Table } from "./table.js";
import { boardView } from "./render.js";
import { actionText, moveText } from "./words.js";
import { t, errorText, failure } from "./i18n.js";
import { myGame } from "./games.js";
import { ask, keptGame, keepSaved, offlineReady } from "./offline.js";

/** @typedef {import("./frames.js").Frame} Frame */
/** @typedef {import("./frames.js").Replay} Replay */
/** @typedef {import("./frames.js").Analysis} Analysis */
/** @typedef {import("./frames.js").TableInfo} TableInfo */

/**
 * Where the frames come from: the table played (`invite`), a share link
 * (`share`), a file's text sent to the server (`file`), a record replayed
 * in this browser (`record`; `mine` when this device played it), or a file
 * refused before sending (`refused`, the reason in words).
 * @typedef {{ invite?: string, share?: string, file?: string, record?: string, mine?: boolean, refused?: string }} Source
 */

/**
 * A viewer: its table (the controller the steps are drawn from), the
 * frames and the step shown, the seat whose eyes (null: face up), the seat
 * the player played at the table it was opened from (`own`) and that
 * table's seats, the analysis once asked, and what closing it does.
 * @typedef {object} Viewer
 * @property {Table} ctl
 * @property {Source} source
 * @property {Frame[]} frames
 * @property {number} at
 * @property {number | null} seat
 * @property {number | null} own
 * @property {TableInfo | null} played the table it was opened from (its names)
 * @property {Analysis | null} analysis
 * @property {boolean} asked
 * @property {string} error
 * @property {string | null} resumable a saved game's text this browser can go on with
 * @property {boolean} replacing asking before it replaces the device's game
 * @property {boolean} engine whether this page carries the offline engine (to try a mistake again)
 * @property {number | null} trying the mistake (its record step) whose "Try it yourself" asks before replacing the device's game
 * @property {(() => void) | null} onClose
 */

/** Mistakes listed: the costliest first. */
const LISTED = 10;

/** The viewer on the page: one at a time (another file dropped replaces it).
 * @type {Viewer | null} */
let shown = null;

/** Opens the viewer over the page (the game-over screen's button) on the
 * game of the live table `from`. @param {Table} from */
export function openReplay(from) {
  // The offline table's game is replayed in this browser, from its record.
  const source = from.kind === "offline" ? { record: (keptGame() || {}).saved || "", mine: true } : { invite: /** @type {string} */ (from.invite) };
  return open(source, from.seat, from);
}

/** A game played on this device (My games keeps its record): replayed and
 * analysed by the engine in this browser, seen from `seat`.
 * @param {string} record @param {number} seat @param {(() => void) | null} [onClose] */
export function openRecord(record, seat, onClose) {
  return open({ record, mine: true }, seat, null, onClose);
}

/** The page of a share link: the game face up, for anyone with the link;
 * closing it goes to the home page. @param {string} share */
export function openShared(share) {
  return open({ share }, null, null, () => { location.href = "./"; });
}

/** A record file (`tripoley play --save`, `sim --save-records`), sent to
 * the server for its frames; refused here, before sending, if too large.
 * @param {File} file @param {(() => void) | null} [onClose] */
export function openFile(file, onClose) {
  if (file.size > MAX_FILE) {
    return open({ refused: errorText({ detail: { reason: "record", problem: "too_big" }, message: "" }) }, null, null, onClose);
  }
  // With no server, the engine in this browser reads it.
  return file.text().then((text) => open(serverless() ? { record: text } : { file: text }, null, null, onClose));
}

/** The largest record file (the server's bound). */
const MAX_FILE = 4 << 20;

/** @param {Source} source @param {number | null} seat @param {Table | null} from @param {(() => void) | null} [onClose] */
async function open(source, seat, from, onClose = null) {
  // One viewer at a time (another file dropped replaces it).
  if (shown) shown.ctl.root.remove();
  const root = el("section", { class: "replay", role: "dialog", "aria-modal": "true", "aria-label": t("replay-title"), tabindex: -1 });
  /** @type {Viewer} */
  const r = {
    ctl: new Table({ kind: "replay", invite: source.invite ?? null, root, page: () => viewerPage(r) }),
    source, frames: [], at: 0, seat, own: from ? from.seat : null, played: from ? from.table : null,
    analysis: null, asked: false, error: "", resumable: null, replacing: false, engine: false, trying: null, onClose,
  };
  // A link's or a file's viewer played none of the seats: nobody there is "you".
  r.ctl.onlooker = !source.invite && !source.mine;
  r.ctl.table = r.played;
  shown = r;
  root.addEventListener("keydown", (e) => onKey(r, e));
  document.body.append(root);
  await load(r);
}

/** The frames as `r.seat` saw them (the analysis stays: it is the player's).
 * @param {Viewer} r */
async function load(r) {
  r.error = "";
  const q = r.seat == null ? "" : "?seat=" + r.seat;
  const src = r.source;
  try {
    if (src.refused) throw new Error(src.refused);
    /** @type {Replay} */
    const replay = src.record != null ? await ask({ replay: { record: src.record, seat: r.seat } }, "replayed")
      : src.file != null ? await upload("/api/replays" + q, src.file)
      : await api("GET", (src.share ? "/api/replays/" + src.share : "/api/tables/" + encodeURIComponent(/** @type {string} */ (src.invite)) + "/replay") + q);
    r.frames = replay.frames;
    // Away from the table (a link, a file) the names come with the frames.
    if (!r.played) r.ctl.table = { seats: replay.names.map((n, seat) => ({ seat, name: n, kind: "human", connected: true })), settings: { game: replay.game === "napalm" ? "napalm" : "tripoley", rules: {} } };
    r.at = Math.min(r.at, r.frames.length - 1);
    r.resumable = await resumable(r);
    r.engine = await offlineReady();
  } catch (e) {
    r.frames = [];
    r.error = errorText(e);
  }
  draw(r);
  r.ctl.root.focus();
}

/** A file's text sent as it is to `path` (the server reads it):
 * `/api/replays` for its frames, `/api/replays/analysis` for the verdicts.
 * @param {string} path @param {string} text */
async function upload(path, text) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: text }).catch(nothing);
  const data = res && await res.json().catch(nothing);
  if (res && res.ok && data) return data;
  throw failure((data && data.message) || t("error-unreachable"), data ? data.code : "unreachable", data && data.detail);
}

/** A saved game not finished (a record with its `play` field, from this
 * browser or `tripoley play --save`) that the engine here can go on with:
 * its text, or null. @param {Viewer} r */
async function resumable(r) {
  const src = r.source;
  const text = src.record ?? src.file;
  if (text == null || src.mine) return null;
  let saved = null;
  try {
    saved = JSON.parse(text);
  } catch {
    return null;
  }
  const people = saved && saved.play && Array.isArray(saved.play.bots) && saved.play.bots.some((/** @type {unknown} */ b) => b === null);
  const last = r.frames[r.frames.length - 1];
  const over = !last || ("standings" in last.view && last.view.standings) || r.frames.some((f) => f.events.some((e) => e.event === "game_over"));
  return people && !over && (await offlineReady()) ? text : null;
}

/** "Go on with this game here": it becomes the game of this device (after
 * a word when it would replace an unfinished one). @param {Viewer} r */
function resumeButton(r) {
  const text = r.resumable;
  if (!text) return null;
  const kept = keptGame();
  const replaces = kept && !kept.over;
  const go = () => {
    keepSaved(text);
    location.href = "./#offline";
    location.reload();
  };
  if (r.replacing) {
    return el("span", { class: "confirm" }, t("replay-resume-replaces"), " ",
      el("button", { "data-key": "replay-resume-confirm", class: "primary", onclick: go }, t("replay-resume")));
  }
  return el("button", {
    "data-key": "replay-resume", class: "primary",
    onclick: () => {
      if (!replaces) return go();
      r.replacing = true;
      draw(r);
    },
  }, t("replay-resume"));
}

/** @param {Viewer} r */
function close(r) {
  r.ctl.root.remove();
  if (shown === r) shown = null;
  if (r.onClose) r.onClose();
}

/** A frame's deal (a Napalm game's hand). @param {Frame} f */
const dealOf = (f) => ("deal_number" in f.view ? f.view.deal_number : f.view.hand_number);

/** The first frame of each deal. @param {Viewer} r */
function dealStarts(r) {
  return r.frames.map((f, i) => i).filter((i) => i === 0 || dealOf(r.frames[i]) !== dealOf(r.frames[i - 1]));
}

/** @param {Viewer} r @param {number} i */
function go(r, i) {
  r.at = Math.max(0, Math.min(r.frames.length - 1, i));
  draw(r);
}

/** @param {Viewer} r @param {KeyboardEvent} e */
function onKey(r, e) {
  const starts = dealStarts(r);
  /** @type {Record<string, () => number>} */
  const moves = {
    ArrowLeft: () => r.at - 1, ArrowRight: () => r.at + 1, Home: () => 0, End: () => r.frames.length - 1,
    PageUp: () => [...starts].reverse().find((s) => s < r.at) ?? 0,
    PageDown: () => starts.find((s) => s > r.at) ?? r.frames.length - 1,
  };
  if (e.key === "Escape") return close(r);
  if (!moves[e.key] || /** @type {HTMLInputElement} */ (e.target).type === "range") return;
  e.preventDefault();
  go(r, moves[e.key]());
}

/** Puts the step shown in the viewer's table, as the live table held it
 * then (no decision may be answered from a replay), and draws it. The
 * focus stays in the viewer (its keys are heard there): on the control
 * drawn again in place of the one that had it, else on the viewer itself.
 * @param {Viewer} r */
function draw(r) {
  const ctl = r.ctl;
  const had = /** @type {HTMLElement | null} */ (document.activeElement);
  const inside = had && had !== ctl.root && ctl.root.contains(had) ? had : null;
  const focused = inside && { key: inside.dataset.key, step: inside.dataset.mistake };
  const frame = r.frames[r.at];
  if (frame) {
    const steps = r.frames.slice(0, r.at + 1);
    // A Napalm game is over at its `game_over` event, not before.
    const over = steps.flatMap((f) => f.events).find((e) => e.event === "game_over");
    ctl.view = { ...frame.view, decision: null };
    ctl.seat = r.seat;
    ctl.log = steps.flatMap((f) => lines(ctl, f).map((text) => ({ n: f.n, text })));
    ctl.winners = over ? over.winners : null;
  }
  ctl.redraw();
  if (focused && !inside.isConnected) {
    const again = [...ctl.root.querySelectorAll("[data-key], [data-mistake]")].find((e) =>
      e instanceof HTMLElement && e.dataset.key === focused.key && e.dataset.mistake === focused.step && !(/** @type {HTMLButtonElement} */ (e).disabled));
    /** @type {HTMLElement} */ (again || ctl.root).focus({ preventScroll: true });
  }
}

/** What a frame's events say, in the live table's words.
 * @param {Table} ctl @param {Frame} frame @returns {string[]} */
const lines = (ctl, frame) => frame.events.map((e) => ctl.words(e)).filter((l) => l != null);

/** Whose eyes: the player's own or every card face up at the table; any
 * seat's or face up for a link or a file. @param {Viewer} r */
function seenBy(r) {
  if (r.source.invite) {
    return r.own != null ? el("button", { "data-key": "replay-face-up", "aria-pressed": String(r.seat == null), onclick: () => { r.seat = r.seat == null ? r.own : null; load(r); } }, t("replay-face-up")) : null;
  }
  const table = r.ctl.table;
  if (!table || !r.frames.length) return null;
  const pick = /** @type {HTMLSelectElement} */ (el("select", { "data-key": "replay-seen-by", "aria-label": t("replay-seen-by") },
    el("option", { value: "", selected: r.seat == null }, t("replay-face-up")),
    table.seats.map((s, i) => el("option", { value: i, selected: r.seat === i }, t("replay-seen-as", { who: s.name || t("seat-n", { n: i + 1 }) })))));
  pick.addEventListener("change", () => { r.seat = pick.value === "" ? null : Number(pick.value); load(r); });
  return pick;
}

/** What the viewer shows: its bar, then the steps' slider and the step in
 * words, the analysis and the board, drawn from the step in its table.
 * @param {Viewer} r */
function viewerPage(r) {
  const ctl = r.ctl;
  const top = el("div", { class: "replay-bar" },
    el("h2", {}, t("replay-title")),
    seenBy(r),
    shareLink(r),
    resumeButton(r),
    el("button", { "data-key": "replay-close", onclick: () => close(r) }, t("replay-close")));
  const frame = r.frames[r.at];
  if (!frame || !ctl.table) return [top, el("p", { class: "error", role: "alert" }, r.error)];
  const game = ctl.table.settings.game;
  const last = r.frames.length - 1;
  const slider = /** @type {HTMLInputElement} */ (el("input", { type: "range", min: 0, max: last, value: r.at, "data-key": "replay-slider", "aria-label": t("replay-slider") }));
  slider.addEventListener("input", () => go(r, Number(slider.value)));
  // The arrows are for the eye; the buttons are named in words.
  const nav = el("div", { class: "replay-nav" },
    el("button", { "data-key": "replay-prev", "aria-label": t("replay-back"), onclick: () => go(r, r.at - 1), disabled: r.at === 0 }, "←"),
    slider,
    el("button", { "data-key": "replay-next", "aria-label": t("replay-forward"), onclick: () => go(r, r.at + 1), disabled: r.at === last }, "→"),
    el("span", { class: "replay-step", "data-step": r.at, "aria-live": "polite" },
      t("replay-step", { n: r.at + 1, total: last + 1, deal: Math.max(dealOf(frame), 1), game })),
    el("span", { class: "replay-keys" }, t("replay-keys", { game })),
    el("p", { class: "replay-what" }, lines(ctl, frame).join(" ")));
  const board = boardView(ctl);
  board.inert = true;
  return [top, nav, analysisPanel(r), board];
}

/** @param {Viewer} r */
async function analyse(r) {
  r.asked = true;
  draw(r);
  try {
    const src = r.source;
    const q = src.invite && r.own != null ? "?seat=" + r.own : "";
    r.analysis = src.record != null ? await ask({ analyse: { record: src.record, seat: src.mine ? r.own : null } }, "analysis")
      : src.file != null ? await upload("/api/replays/analysis", src.file)
      : await api("GET", (src.share ? "/api/replays/" + src.share : "/api/tables/" + encodeURIComponent(/** @type {string} */ (src.invite))) + "/analysis" + q);
  } catch (e) {
    r.error = errorText(e);
  }
  draw(r);
}

/** The frame just before record step `step`: the position decided.
 * @param {Viewer} r @param {number} step */
function frameOf(r, step) {
  const i = r.frames.findIndex((f) => f.step === step);
  return i > 0 ? i - 1 : 0;
}

/** A seat's name in the analysis: "(you)" is the seat the player played. @param {Viewer} r @param {number} seat */
const nameIn = (r, seat) => r.ctl.name(seat, r.own);

/** Chips in the analysis: a tenth below 10 (where it still says
 * something), whole above; the page's language writes the number.
 * @param {number} x */
const chips = (x) => (x < 10 ? Math.round(x * 10) / 10 : Math.round(x));
/** A verdict's margin: as chips, but to a hundredth under 0.05, where a
 * tenth would say "± 0" of a margin that is not nothing. @param {number} x */
const margin = (x) => (x < 0.05 ? Math.round(x * 100) / 100 : chips(x));
/** Whether a verdict's cost was the same in every sample game: its margin
 * would say 0, and "about 10 chips, ± 0" says less than that. @param {number} x */
const exact = (x) => (x < 0.005 ? "yes" : "no");

/** The verdicts the viewer may read: seen as a player, that player's own
 * (another's mistake would name cards that player never saw); else all.
 * @param {Viewer} r @param {Analysis} a */
const readable = (r, a) => (r.seat == null ? a.decisions : a.decisions.filter((d) => d.seat === r.seat));

/** Goes to the position of a mistake, and shows its board: on a phone the
 * board is below the list, out of sight. @param {Viewer} r @param {number} i */
function goToMistake(r, i) {
  go(r, i);
  const board = /** @type {HTMLElement | null} */ (r.ctl.root.querySelector(".table"));
  if (!board) return;
  const box = board.getBoundingClientRect();
  if (box.top > innerHeight * 0.6 || box.bottom < 0) board.scrollIntoView({ block: "start", behavior: "instant" });
}

/** @param {Viewer} r */
function analysisPanel(r) {
  const a = r.analysis;
  if (r.ctl.isNapalm()) return el("section", { class: "replay-analysis panel" }, el("p", {}, t("replay-napalm-no-analysis")));
  if (!a) {
    return el("section", { class: "replay-analysis panel" },
      r.asked && !r.error ? el("p", { role: "status" }, t("replay-analysing"))
        : el("button", { "data-key": "replay-analyse", onclick: () => analyse(r) }, t("replay-analyse")),
      r.error ? el("p", { class: "error", role: "alert" }, r.error) : null);
  }
  const mistakes = readable(r, a).filter((d) => d.cost >= 0.5).slice(0, LISTED);
  return el("section", { class: "replay-analysis panel", "aria-label": t("replay-mistakes") },
    el("h3", {}, r.seat == null ? t("replay-mistakes") : r.seat === r.own && !r.ctl.onlooker ? t("replay-mistakes-yours") : t("replay-mistakes-of", { who: nameIn(r, r.seat) })),
    r.error ? el("p", { class: "error", role: "alert" }, r.error) : null,
    mistakes.length ? el("ol", { class: "mistakes" }, mistakes.map((d) => el("li", { "data-seat": d.seat },
      el("button", { "data-step": frameOf(r, d.step), "data-mistake": d.step, onclick: () => goToMistake(r, frameOf(r, d.step)) },
        t("replay-mistake", { deal: d.deal, who: nameIn(r, d.seat), played: moveText(d.played), best: actionText(d.best), cost: chips(d.cost), error: margin(d.std_error), exact: exact(d.std_error) })),
      el("div", { class: "mistake-after" }, whyText(d), bestLine(r, d), tryButton(r, d)))))
      : el("p", {}, t("replay-no-mistakes")),
    summary(r, a),
    chart(r, a, mistakes));
}

/** Why the expert's choice is better: the reason, then where the move made
 * did better (none in analyses kept from before reasons were given).
 * @param {Analysis["decisions"][number]} d */
function whyText(d) {
  const w = d.why;
  if (!w) return null;
  const reason = t("why", { kind: w.kind, chips: chips(w.chips), back: chips(w.back), best: w.best_percent, played: w.played_percent });
  const trade = w.but ? " " + t("why-but", { chips: chips(w.but.chips), part: w.but.part }) : "";
  return el("p", { class: "why" }, reason + trade);
}

/** What the expert would have done next after a mistake: its answer, then
 * the table's next moves as it would make them. Seen as a player, another
 * seat's cards stay hidden ("Bob leads a card").
 * @param {Viewer} r @param {Analysis["decisions"][number]} d */
function bestLine(r, d) {
  if (!d.line || !d.line.length) return null;
  const move = (/** @type {{ seat: number, action: any }} */ m) => {
    const kind = typeof m.action === "string" ? m.action : Object.keys(m.action)[0];
    const hidden = r.seat != null && m.seat !== r.seat && typeof m.action === "object" && (kind === "lead" || Array.isArray(m.action[kind]));
    return t("replay-line-move", { who: nameIn(r, m.seat), move: hidden ? t("replay-line-hidden", { kind: kind === "lead" ? "lead" : "five" }) : moveText(m.action) });
  };
  return el("p", { class: "best-line" }, t("replay-line", { moves: d.line.map(move).join(" · ") }));
}

/** The record's text: the browser's own (a game of this device, a file),
 * else the finished table's from its server (by its link or its invite).
 * @param {Viewer} r @returns {Promise<string>} */
async function recordText(r) {
  const src = r.source;
  const own = src.record ?? src.file;
  if (own != null) return own;
  const path = src.share ? "/api/replays/" + src.share : "/api/tables/" + encodeURIComponent(/** @type {string} */ (src.invite));
  return JSON.stringify(await api("GET", path + "/record"));
}

/** The game at the position of mistake `d`, as a saved game of this device:
 * the record up to that decision, its player a person here and the others
 * bots (the game's own where it had them, else the expert), chance seeded
 * anew. @param {string} text @param {Analysis["decisions"][number]} d */
function fromMistake(text, d) {
  const saved = JSON.parse(text);
  const play = saved.play || {};
  saved.steps = saved.steps.slice(0, d.step);
  const before = Array.isArray(play.bots) ? play.bots : [];
  saved.play = {
    ...play,
    seed: Math.floor(Math.random() * 2 ** 52),
    human: d.seat,
    bots: saved.names.map((/** @type {string} */ _, /** @type {number} */ s) => (s === d.seat ? null : before[s] || "expert")),
    label: play.label || "",
  };
  return JSON.stringify(saved);
}

/** "Try it yourself": play on from a mistake, in its player's seat, against
 * bots, on this device (after a word when it would replace an unfinished
 * game of the device). @param {Viewer} r @param {Analysis["decisions"][number]} d */
function tryButton(r, d) {
  const src = r.source;
  if (!r.engine || src.refused) return null;
  const go = async () => {
    try {
      keepSaved(fromMistake(await recordText(r), d));
    } catch (e) {
      r.error = errorText(e);
      draw(r);
      return;
    }
    // A share link's page is /replay/<share>, under the server's root: the
    // home page is another page, loaded by going there; on the home page
    // only the fragment changes, so it is loaded again.
    if (src.share) {
      location.href = "/#offline";
      return;
    }
    location.href = "./#offline";
    location.reload();
  };
  const label = t("replay-try-label", { who: nameIn(r, d.seat) });
  if (r.trying === d.step) {
    return el("span", { class: "confirm" }, t("replay-resume-replaces"), " ",
      el("button", { "data-key": "replay-try-confirm", class: "primary", "aria-label": label, onclick: go }, t("replay-try")));
  }
  return el("button", {
    "data-key": "replay-try", "data-mistake": d.step, class: "try", "aria-label": label,
    onclick: () => {
      const kept = keptGame();
      if (!kept || kept.over) return go();
      r.trying = d.step;
      draw(r);
    },
  }, t("replay-try"));
}

/** Each player's chips lost to mistakes, in all and by part of the deal
 * (as `tripoley analyse` says it): the judged players only.
 * @param {Viewer} r @param {Analysis} a */
function summary(r, a) {
  const seats = a.names.map((_, s) => s).filter((s) => a.seat == null || a.seat === s);
  const parts = /** @type {const} */ (["spare", "poker", "michigan"]);
  const byPart = a.cost_by_part;
  const cell = (/** @type {number} */ x) => el("td", {}, String(t("replay-summary-chips", { chips: chips(x) })));
  return el("table", { class: "analysis-summary" },
    el("caption", {}, t("replay-summary")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("replay-summary-player")), el("th", { scope: "col" }, t("replay-summary-total")),
      byPart ? parts.map((part) => el("th", { scope: "col" }, t("replay-summary-part", { part }))) : null)),
    el("tbody", {}, seats.map((s) => el("tr", { "data-seat": s },
      el("th", { scope: "row" }, nameIn(r, s)),
      cell(a.cost_by_seat[s]),
      byPart ? parts.map((part) => cell(byPart[s][part])) : null))));
}

/** Each player's chips at the start and after each deal (the final pot's
 * payments the last point), a line per seat with its values, the deals
 * along the bottom and the chips up the side; the listed mistakes marked
 * on their deal.
 * @param {Viewer} r @param {Analysis} a @param {Analysis["decisions"]} mistakes */
function chart(r, a, mistakes) {
  const [w, h, left, right, top, bottom] = [360, 170, 40, 12, 10, 30];
  // From the lowest stack to the highest: the differences are what matter.
  const all = a.chips.flatMap((c) => c.stacks);
  const [low, high] = [Math.min(...all), Math.max(...all)];
  const span = Math.max(1, a.chips.length - 1);
  const x = (/** @type {number} */ i) => left + (i * (w - left - right)) / span;
  const y = (/** @type {number} */ n) => h - bottom - ((n - low) * (h - top - bottom)) / Math.max(1, high - low);
  const label = (/** @type {number} */ i) => {
    const c = a.chips[i];
    if (i === 0) return t("replay-chart-start");
    return i > 0 && a.chips[i - 1].deals === c.deals ? t("replay-chart-end") : String(c.deals);
  };
  const root = svgEl("svg", { viewBox: `0 0 ${w} ${h}`, class: "chip-chart", role: "img", "aria-label": t("replay-chart") });
  // The axes: chips up the side (lowest, middle, highest), deals along the bottom.
  root.append(svgEl("line", { class: "axis", x1: left, y1: top, x2: left, y2: h - bottom }),
    svgEl("line", { class: "axis", x1: left, y1: h - bottom, x2: w - right, y2: h - bottom }));
  for (const n of [...new Set([low, Math.round((low + high) / 2), high])]) {
    root.append(svgEl("line", { class: "grid", x1: left, y1: y(n), x2: w - right, y2: y(n) }),
      svgEl("text", { class: "axis-value", x: left - 4, y: y(n) + 4, "text-anchor": "end" }, String(n)));
  }
  // A long game labels every few deals (and its last point), so the
  // labels never run into each other; every point keeps its value.
  const every = Math.ceil(a.chips.length / 12);
  const last = a.chips.length - 1;
  a.chips.forEach((_, i) => {
    if ((i % every === 0 && last - i >= every) || i === last) root.append(svgEl("text", { class: "deal-label", x: x(i), y: h - bottom + 14, "text-anchor": "middle" }, label(i)));
  });
  root.append(svgEl("text", { class: "axis-title", x: (left + w - right) / 2, y: h - 3, "text-anchor": "middle" }, t("replay-chart-deals")));
  a.names.forEach((_, s) => {
    root.append(svgEl("polyline", { class: "seat-line seat-" + s, fill: "none", "stroke-width": 2,
      points: a.chips.map((c, i) => `${x(i)},${y(c.stacks[s])}`).join(" ") }));
    // Each point says its value (a pointer's tooltip, a screen reader's name).
    a.chips.forEach((c, i) => root.append(svgEl("circle", { class: "point seat-" + s, cx: x(i), cy: y(c.stacks[s]), r: 2.5 },
      svgEl("title", {}, t("replay-chart-point", { who: nameIn(r, s), chips: c.stacks[s], deal: i === 0 ? "start" : a.chips[i - 1].deals === c.deals ? "end" : c.deals })))));
  });
  for (const d of mistakes) {
    const i = Math.min(d.deal, a.chips.length - 1);
    root.append(svgEl("circle", { class: "mistake-mark seat-" + d.seat, cx: x(i), cy: y(a.chips[i].stacks[d.seat]), r: 4 }));
  }
  const end = a.chips[last];
  return el("figure", { class: "chart" }, root,
    el("figcaption", {}, el("span", { class: "chart-title" }, t("replay-chart")), " ",
      a.names.map((n, s) => el("span", { class: "seat-key seat-" + s }, t("replay-chart-key", { who: nameIn(r, s) || n, chips: end.stacks[s] })))));
}

/** The game's share link, to copy (a finished table's or the page's own). @param {Viewer} r */
function shareLink(r) {
  const src = r.source;
  const share = src.share || (src.invite && myGame(src.invite)?.share);
  if (!share) return null;
  const url = location.origin + "/replay/" + share;
  return el("a", { class: "replay-link", href: url, "data-key": "replay-link" }, t("replay-link"));
}

// @ts-check
// The rules view (issue 26, point 10): the game in a few short sections a
// person reads at the table, with a picture of this table's board, and the
// whole rule book (the server's text for this table) one click further.
// No rule ids anywhere: they are for the rule book's authors.

import { el, keptOpen, svgEl } from "./dom.js";
import { api } from "./state.js";
import { t, language, errorText } from "./i18n.js";

/** @typedef {import("./table.js").Table} Table */

/** The board's cells as the table draws them: three rows of three, the Pot
 * in the middle (a table without poker has none there). */
const GRID = [["ace", "king", "queen"], ["jack", "pot", "ten"], ["king_queen", "sequence", "kitty"]];

/** The "Rules" button of the table's bar and what it opens. The server's
 * rule book is asked for at the first opening. */
export function rulesView(/** @type {Table} */ ctl) {
  return keptOpen(ctl.open, "rules", t("rules-view"), () => {
    const book = keptOpen(ctl.open, "rule-book", t("rules-book"), () => (ctl.rules ? ruleBook(ctl.rules) : el("p", { "aria-busy": "true" }, "…")));
    // A scrolled region, so it takes the focus (keyboard users scroll it too),
    // and keeps its place when the page is drawn again (`data-keep-scroll`).
    return el("div", { class: "panel rules-text", tabindex: 0, role: "region", "aria-label": t("rules-view"), "data-keep-scroll": "rules" },
      ctl.isNapalm() ? null : quickRules(ctl), book);
  }, { onOpen: () => loadRules(ctl) });
}

/** This table's rule book from the server (once), then the page drawn again. */
async function loadRules(/** @type {Table} */ ctl) {
  if (ctl.rules) return;
  // The full rule book is written by the server; offline, the short rules
  // above are all there is.
  if (ctl.kind === "offline") {
    ctl.rules = t("rules-offline");
    ctl.redraw();
    return;
  }
  try {
    ctl.rules = (await api("GET", "/api/tables/" + encodeURIComponent(ctl.invite) + "/rules?lang=" + language())).text;
  } catch (err) {
    ctl.rules = t("rules-unavailable", { error: errorText(err) });
  }
  ctl.redraw();
}

/** Whether this table plays poker (its board has a Pot). */
function hasPoker(/** @type {Table} */ ctl) {
  const rules = ctl.table && ctl.table.settings && ctl.table.settings.rules;
  return !(rules && rules.poker === "none");
}

/** The game in five short sections, in players' words, with the board
 * (a table without poker has no Poker section). */
function quickRules(/** @type {Table} */ ctl) {
  const section = (/** @type {string} */ title, /** @type {string} */ text) => [el("h4", {}, title), el("p", {}, text)];
  return el("section", { class: "quick-rules", "aria-label": t("rules-quick-title") },
    el("h3", {}, t("rules-quick-title")),
    section(t("rules-quick-aim-title"), t("rules-quick-aim", { poker: hasPoker(ctl) ? "yes" : "no" })),
    boardPicture(ctl),
    section(t("rules-quick-board-title"), t("rules-quick-board")),
    hasPoker(ctl) ? section(t("rules-quick-poker-title"), t("rules-quick-poker")) : null,
    section(t("rules-quick-michigan-title"), t("rules-quick-michigan")),
    section(t("rules-quick-end-title"), t("rules-quick-end")));
}

/** This table's board as a picture: each space a labelled box where it
 * sits on the table. */
function boardPicture(/** @type {Table} */ ctl) {
  const v = ctl.view;
  const spaces = v && "layout" in v && v.layout ? new Set(v.layout.map(([s]) => s)) : null;
  const shown = (/** @type {string} */ space) => (spaces ? spaces.has(space) : space !== "pot" || hasPoker(ctl));
  const names = GRID.flat().filter(shown).map((space) => t("space", { space }));
  const boxes = GRID.flatMap((row, r) => row.flatMap((space, c) => {
    if (!shown(space)) return [];
    const x = 10 + c * 105, y = 10 + r * 55;
    return [
      svgEl("rect", { x, y, width: 100, height: 50, rx: 6, fill: space === "pot" ? "#fdf0c8" : space === "kitty" ? "#e8f1fb" : "#fffaf0", stroke: "#b08a4a" }),
      svgEl("text", { x: x + 50, y: y + 30, "text-anchor": "middle", "font-size": 13, fill: "#1d1d1d" }, t("space", { space })),
    ];
  }));
  return svgEl("svg", { viewBox: "0 0 330 180", class: "board-picture", role: "img", "aria-label": t("rules-board-picture", { spaces: names.join(", ") }) },
    svgEl("rect", { x: 0, y: 0, width: 330, height: 180, rx: 14, fill: "#0e4a33" }), boxes);
}

/** The server's rule book (options that change nothing at this table are
 * left out for players): titles unindented, rules indented. Rule ids such
 * as "(T5)" or "(H5, H6)" are taken out wherever they are. */
function ruleBook(/** @type {string} */ text) {
  const out = [];
  let list = null;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const words = line.trim().replace(/\s*\([A-Z]\d+[a-z]?(, [A-Z]\d+[a-z]?)*\)/g, "");
    if (/^\s/.test(line)) {
      if (!list) out.push((list = el("ul")));
      list.append(el("li", {}, words));
    } else {
      out.push(el("h3", {}, words));
      list = null;
    }
  }
  return out;
}

// @ts-check
// The guided first game: when a player asks for it, each stage is
// explained as it comes, in a few plain sentences fitted to this table's
// rules, until they say they have got it.

import { el } from "./dom.js";
import { prefs, savePrefs } from "./state.js";
import { t } from "./i18n.js";

/** @typedef {import("./table.js").Table} Table */
/** @typedef {import("./frames.js").View} View */
/** @typedef {import("./frames.js").ServerMessage} ServerMessage */

/** The stages the guide explains, as the game names them. */
const STAGES = ["spare", "auction", "pay_suit", "choose_five", "showdown", "betting", "michigan", "final_pot", "game_over"];

/** What a stage is about at a table with rules `r`. */
function explain(/** @type {string} */ stage, /** @type {import("./frames.js").Rules} */ r) {
  return t("coach-stage", {
    stage, inplay: r.pay_cards === "in_play" ? "yes" : "no", misplays: r.misplays === "penalised" ? "yes" : "no",
  });
}

/** Which explanation the guide shows for view `v`, given the stages the
 * player has `seen` and the one on screen (`showing`), or null. The one on
 * screen stays until the player says they have got it, even when the game
 * moves on meanwhile (bots play fast): drawn anew for the next stage, the
 * same "Got it" under the player's finger or focus dismissed a text they
 * never read. A stage passed meanwhile is explained the next time it comes. */
export function coachStage(/** @type {View} */ v, /** @type {string[]} */ seen, /** @type {string | null} */ showing) {
  if (showing && !seen.includes(showing)) return showing;
  const key = v.deal_number <= 1 && !seen.includes("first") ? "first" : v.stage;
  if (seen.includes(key) || (key !== "first" && !STAGES.includes(key))) return null;
  return key;
}

/** The explanation for the stage the game is in, or null. */
export function coachPanel(/** @type {Table} */ ctl, /** @type {View} */ v) {
  if (!prefs.guide || ctl.table.settings.game === "napalm") return null;
  const key = coachStage(v, prefs.seen, ctl.coaching);
  ctl.coaching = key;
  if (!key) return null;
  const text = key === "first" ? t("coach-first") : explain(key, ctl.table.settings.rules);
  return el("section", { class: "coach panel", "aria-label": t("coach-title"), "data-stage": key },
    el("h2", {}, t("coach-title")),
    el("p", {}, text),
    el("button", {
      "data-key": "coach-ok", class: "primary",
      onclick: () => {
        prefs.seen.push(key);
        savePrefs();
        ctl.redraw();
      },
    }, t("btn-got-it")),
    el("button", {
      "data-key": "coach-off",
      onclick: () => {
        prefs.guide = false;
        savePrefs();
        ctl.redraw();
      },
    }, t("coach-off")));
}

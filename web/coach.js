// The guided first game: when a player asks for it, each stage is
// explained as it comes, in a few plain sentences fitted to this table's
// rules, until they say they have got it.

import { el } from "./dom.js";
import { S, savePrefs } from "./state.js";
import { t } from "./i18n.js";

/** What a stage is about at a table with rules `r` (null: nothing to say). */
function explain(stage, r) {
  const stages = ["spare", "auction", "pay_suit", "choose_five", "showdown", "betting", "michigan", "final_pot", "game_over"];
  if (!stages.includes(stage)) return null;
  return t("coach-stage", {
    stage, inplay: r.pay_cards === "in_play" ? "yes" : "no", misplays: r.misplays === "penalised" ? "yes" : "no",
  });
}

/** The explanation for the stage the game is in, or null. */
export function coachPanel(v) {
  if (!S.prefs.guide || S.table.settings.game === "napalm") return null;
  const r = S.table.settings.rules;
  const key = v.deal_number <= 1 && !S.prefs.seen.includes("first") ? "first" : v.stage;
  const text = key === "first" ? t("coach-first") : explain(key, r);
  if (!text || S.prefs.seen.includes(key)) return null;
  return el("section", { class: "coach panel", "aria-label": t("coach-title"), "data-stage": key },
    el("h2", {}, t("coach-title")),
    el("p", {}, text),
    el("button", {
      "data-key": "coach-ok", class: "primary",
      onclick: () => {
        S.prefs.seen.push(key);
        savePrefs();
        document.dispatchEvent(new Event("tripoley:render"));
      },
    }, t("btn-got-it")),
    el("button", {
      "data-key": "coach-off",
      onclick: () => {
        S.prefs.guide = false;
        savePrefs();
        document.dispatchEvent(new Event("tripoley:render"));
      },
    }, t("coach-off")));
}

// @ts-check
// The home page's list of public tables waiting for players
// (`GET /api/tables`), each in words with a Join button, and the checkbox
// that makes a new table public.

import { el } from "./dom.js";
import { api } from "./state.js";
import { t } from "./i18n.js";
import { spaceAntesWords } from "./words.js";

/** How often the open list refreshes itself while the home page shows. */
const REFRESH_MS = 15000;

/** @type {Record<string, () => string>} */
const PRESETS = {
  pagat: () => t("public-preset-pagat"),
  tripoley: () => t("public-preset-tripoley"),
  "michigan-casino": () => t("public-preset-michigan-casino"),
  rummoli: () => t("public-preset-rummoli"),
  cosmo: () => t("public-preset-cosmo"),
};

/** House rules in words, by the rule's name in the rules (docs/rules.md);
 * a rule without words here is counted ("2 more house rules").
 * @type {Record<string, (v: any, rules: Record<string, any>) => string | null>} */
const RULES = {
  ante: (v) => t("public-rule-ante", { chips: v }),
  dealer_ante: (v) => t("public-rule-dealer-ante", { chips: v }),
  space_antes: (v, rules) => spaceAntesWords(v, rules.ante ?? 1),
  bet_limit: (v) => t("public-rule-bet-limit", { chips: v }),
  max_raises: (v) => (v == null ? t("public-rule-no-raise-limit") : t("public-rule-max-raises", { raises: v })),
  misplays: (v) => (v === "penalised" ? t("public-rule-misplays-penalised") : t("public-rule-misplays-forbidden")),
  spare: (v) => (v === "unused" ? t("public-rule-spare-unused") : t("public-rule-spare-dealer")),
  poker: (v) => ({ betting: t("public-rule-poker-betting"), pool_after_michigan: t("public-rule-poker-pool"), none: t("public-rule-poker-none") })[/** @type {string} */ (v)] ?? null,
  pay_cards: (v) => (v === "in_play" ? t("public-rule-pay-in-play") : t("public-rule-pay-stage1")),
  ace_always_high: (v) => (v ? t("public-rule-ace-high") : t("public-rule-ace-low")),
  final_pot: (v) => (v === "keep" ? t("public-rule-final-keep") : t("public-rule-final-pot")),
};

/** The checkbox of the new-table form; its value goes in `public`. */
export function publicCheckbox() {
  return el("label", { class: "check" }, el("input", { type: "checkbox", name: "public" }), el("span", {}, t("public-checkbox")));
}

/** One table in words: the game and rules, then seats, chips, deals, timer.
 * @param {Record<string, any>} x a public table (docs/protocol.md) */
export function tableWords(x) {
  const game = x.game === "napalm" ? t("public-game-napalm") : (PRESETS[x.preset] || (() => x.preset))();
  const bits = [t("public-seats", { taken: x.taken, seats: x.seats }), t("public-chips", { chips: x.starting_chips })];
  if (x.deals != null) bits.push(t("public-deals", { deals: x.deals }));
  if (x.tokens_to_win != null) bits.push(t("public-tokens", { tokens: x.tokens_to_win }));
  bits.push(x.turn_seconds ? t("public-turn", { seconds: x.turn_seconds }) : t("public-no-timer"));
  bits.push(...houseRuleWords(x.house_rules));
  if (x.bot === "random") bits.push(t("public-bot-random"));
  return { game, details: bits.join(" · ") };
}

/** House rules (`{rule, value}`) in words; those without words counted.
 * @param {{ rule: string, value: any }[]} rules */
function houseRuleWords(rules) {
  /** @type {string[]} */
  const bits = [];
  let other = 0;
  // Every preset's ante is 1: a changed one is among the rules.
  const changed = Object.fromEntries(rules.map((r) => [r.rule, r.value]));
  for (const r of rules) {
    const words = RULES[r.rule] && RULES[r.rule](r.value, changed);
    if (words) bits.push(words);
    else other++;
  }
  if (other) bits.push(t("public-more-rules", { count: other }));
  return bits;
}

/** A table's game in one line for its lobby: the preset its rules differ
 * least from (ties: the order of `presets`, as the server's list does), the
 * number of deals apart, then each house rule ("Tripoley (pagat.com rules)
 * · 3 deals"). Choosing the deals keeps the preset's name.
 * @param {Record<string, any>} rules @param {import("./frames.js").Preset[]} presets */
export function presetLine(rules, presets) {
  let best = null;
  for (const p of presets) {
    const changed = Object.keys(rules)
      .filter((k) => k !== "deals" && k !== "starting_chips" && JSON.stringify(rules[k]) !== JSON.stringify(p.rules[k]))
      .map((k) => ({ rule: k, value: rules[k] }));
    if (!best || changed.length < best.changed.length) best = { name: p.name, changed };
  }
  if (!best) return null;
  const bits = [(PRESETS[best.name] || (() => best.name))()];
  if (rules.deals != null) bits.push(t("public-deals", { deals: rules.deals }));
  return [...bits, ...houseRuleWords(best.changed)].join(" · ");
}

/** The list, filled in as it arrives and refreshed while it is on the page. */
export function publicTables() {
  const list = el("ul", { class: "public-list" });
  const more = el("button", { type: "button", hidden: true }, t("public-more"));
  const status = el("p", { class: "note", role: "status" });
  let pages = 1;
  async function refresh() {
    try {
      const shown = [];
      for (let page = 0; page < pages; page++) {
        const r = await api("GET", "/api/tables?page=" + page);
        shown.push(...r.tables);
        more.hidden = (page + 1) * r.page_size >= r.total;
        if (more.hidden) break;
      }
      status.textContent = shown.length ? "" : t("public-none");
      list.replaceChildren(...shown.map((x) => {
        const { game, details } = tableWords(x);
        return el("li", { "data-invite": x.invite },
          el("div", {}, el("b", {}, game), el("br"), el("span", { class: "details" }, details)),
          el("a", { class: "button primary", href: "/t/" + encodeURIComponent(x.invite), "aria-label": t("public-join-label", { game: game + " · " + details }) }, t("public-join")));
      }));
    } catch (e) {
      status.textContent = t("public-error", { reason: e.message });
    }
  }
  more.addEventListener("click", () => { pages++; refresh(); });
  const section = el("section", { class: "panel public", "aria-label": t("public-title") },
    el("h2", {}, t("public-title")), status, list, more,
    el("button", { type: "button", onclick: refresh }, t("public-refresh")));
  refresh();
  const timer = setInterval(() => {
    if (!section.isConnected) clearInterval(timer);
    else refresh();
  }, REFRESH_MS);
  return section;
}

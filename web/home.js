// @ts-check
// The home page: create a table, open one by its code, or join a public
// one. Loaded alone (with the catalogue) by main.js: a table's modules come
// only when a table opens.

import { el } from "./dom.js";
import { prefs, save, api, nothing, savePrefs, serverless } from "./state.js";
import { t, errorText } from "./i18n.js";
import { publicCheckbox, publicTables } from "./tables.js";
import { myGamesEntry } from "./games.js";
import { OFFLINE, ask, botPause, keptGame, newGame, offlineReady } from "./offline.js";

const main = document.getElementById("main");

/** The home page: what Tripoley is, a new table's form, an invite code
 * and the public tables. */
export async function home() {
  // With no server (a static copy of the app, or the network gone) the
  // engine in this browser offers what needs no connection.
  const [online, here] = await Promise.all([
    serverless() ? Promise.resolve(null) : api("GET", "/api/presets").catch((e) => e),
    offlineReady(),
  ]);
  let presets = Array.isArray(online) ? online : null;
  if (!presets && here) presets = await ask({ presets: true }, "presets").catch(nothing);
  if (!presets) {
    const why = online && online.code !== "unreachable" ? t("home-unreachable", { error: errorText(online) }) : t("error-unreachable");
    main.replaceChildren(el("p", { class: "error" }, why));
    return;
  }
  const connected = Array.isArray(online);
  // The network lost: when it comes back, the home page offers tables again.
  if (!connected && !serverless()) window.addEventListener("online", () => { if (location.hash !== "#offline") home(); }, { once: true });

  const error = el("p", { class: "error", role: "alert" });
  // A field of one game only (`data-game`) is hidden while the other is chosen.
  const field = (/** @type {string} */ label, /** @type {HTMLElement} */ input, /** @type {string} */ game = "") => el("label", game ? { "data-game": game } : {}, el("span", {}, label), input);
  const num = (/** @type {string} */ name, attrs = {}) => el("input", { name, type: "number", min: 0, max: 1000, ...attrs });
  const form = el("form", { class: "panel", "aria-label": t("home-new-table") },
    el("h2", {}, connected ? t("home-new-table") : t("home-new-game-here")),
    field(t("home-your-name"), el("input", { name: "name", required: true, maxlength: 16, autocomplete: "nickname" })),
    here ? field(t("home-others-here"), el("input", { name: "others", maxlength: 120, autocomplete: "off", placeholder: t("home-others-here-example") })) : null,
    field(t("home-game"), el("select", { name: "game", onchange: (/** @type {Event} */ e) => showGame(form, /** @type {HTMLSelectElement} */ (e.target).value) }, el("option", { value: "tripoley" }, t("home-game-tripoley")), el("option", { value: "napalm" }, t("home-game-napalm")))),
    field(t("home-rules"), el("select", { name: "preset" }, presets.map((p) => el("option", { value: p.name }, t("preset-name", { preset: p.name })))), "tripoley"),
    field(t("home-seats"), el("input", { name: "seats", type: "number", min: 2, max: 9, value: 4 })),
    field(t("home-chips"), el("input", { name: "chips", type: "number", min: 1, value: 100 })),
    field(t("home-tokens"), el("input", { name: "tokens", type: "number", min: 1, max: 100, value: 5 }), "napalm"),
    field(t("home-deals"), el("input", { name: "deals", type: "number", min: 1 }), "tripoley"),
    // The turn timer is the server's: a game on this device waits for its people.
    connected ? field(t("home-turn"), el("input", { name: "turn", type: "number", min: 0, max: 3600, value: 60 })) : null,
    field(t("home-bot"), el("select", { name: "bot" }, BOT_LEVELS.map((level) =>
      el("option", { value: level, selected: level === "heuristic", "data-game": level === "expert" ? "tripoley" : null }, t("home-bot-level", { level }))))),
    el("details", { "data-game": "tripoley" }, el("summary", {}, t("home-house-rules")),
      el("p", { class: "note" }, t("home-house-rules-help")),
      field(t("home-rule-ante"), num("ante", { min: 1, max: 100 })),
      field(t("home-rule-bet-limit"), num("bet_limit", { min: 1 })),
      field(t("home-rule-misplays"), el("select", { name: "misplays" },
        ["", "forbidden", "penalised"].map((m) => el("option", { value: m }, t("home-rule-misplays-choice", { choice: m || "preset" }))))),
      el("fieldset", { class: "space-antes" }, el("legend", {}, t("home-rule-space-antes")),
        SPACES.map((space) => field(t("space", { space }), num("space-" + space, { max: 100 })))),
      el("details", {}, el("summary", {}, t("home-house-rules-json")),
        el("textarea", { name: "rules", rows: 4, "aria-label": t("home-house-rules-json"), placeholder: '{"bet_limit": 5}' }))),
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "guide" }), el("span", {}, t("home-guide"))),
    connected ? publicCheckbox() : null,
    el("div", { class: "actions" },
      connected ? el("button", { type: "submit", class: "primary", "data-key": "create" }, t("home-create")) : null,
      here ? el("button", { type: "submit", class: connected ? "" : "primary", "data-key": "play-here", value: "here" }, t("home-play-here")) : null),
    here ? el("p", { class: "note" }, connected ? t("home-play-here-help") : t("home-no-server")) : null,
    error,
  );
  // Drawn again (the network came back): what the person typed stays, and
  // so does their place in the form.
  if (drawn && drawn.isConnected) keepTyped(drawn, form);
  drawn = form;
  showGame(form, /** @type {HTMLSelectElement} */ (form.elements.namedItem("game")).value);
  // The bots get ready while the player fills the form: at once with no
  // server (the engine is loaded already), else once the form is used (a
  // guest who only looks downloads no engine).
  const warmUp = () => ask({ warm: true }, "warmed").catch(() => {});
  if (here && !connected) warmUp();
  else if (here) form.addEventListener("focusin", warmUp, { once: true });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    const playHere = !connected || (ev.submitter && /** @type {HTMLButtonElement} */ (ev.submitter).value === "here");
    /** @type {Record<string, any>} */
    const body = {
      preset: f.get("preset"),
      seats: Number(f.get("seats")),
      starting_chips: Number(f.get("chips")),
      turn_seconds: Number(f.get("turn") ?? 0),
      bot: f.get("bot"),
      host_name: f.get("name"),
      public: !!f.get("public"),
    };
    if (f.get("game") === "napalm") {
      // Napalm has no presets and no deal count; 2 to 7 seats.
      delete body.preset;
      body.game = "napalm";
      body.tokens_to_win = Number(f.get("tokens"));
    } else if (f.get("deals")) body.deals = Number(f.get("deals"));
    try {
      if (f.get("game") !== "napalm") {
        const rules = houseRules(f);
        if (String(f.get("rules")).trim()) Object.assign(rules, JSON.parse(String(f.get("rules"))));
        if (Object.keys(rules).length) body.rules = rules;
      }
      if (f.get("guide")) {
        prefs.guide = true;
        prefs.seen = [];
        savePrefs();
      }
      if (playHere) {
        playOffline(f, body);
        return;
      }
      const made = await api("POST", "/api/tables", body);
      save(made.invite, { token: made.host_token, host: true });
      location.href = made.path;
    } catch (e) {
      error.textContent = e instanceof SyntaxError ? t("home-house-rules-bad", { error: e.message }) : errorText(e);
    }
  });
  const join = el("form", { class: "panel", "aria-label": t("home-join") },
    el("h2", {}, t("home-join")),
    field(t("home-invite-code"), el("input", { name: "code", required: true })),
    el("button", { type: "submit" }, t("home-open")),
  );
  join.addEventListener("submit", (ev) => {
    ev.preventDefault();
    location.href = "/t/" + encodeURIComponent(String(new FormData(join).get("code")).trim());
  });
  const kept = keptGame();
  const resume = kept && !kept.over && el("section", { class: "panel resume" },
    el("p", {}, t("home-offline-kept")),
    el("a", { class: "button primary", href: "#offline", "data-key": "resume-offline" }, t("home-offline-resume")));
  const side = connected ? [join, myGamesEntry(), publicTables()] : [myGamesEntry()];
  main.replaceChildren(el("p", { class: "intro" }, connected ? t("home-intro") : t("home-intro-here")), resume || "", el("div", { class: "home" }, form, el("div", {}, side)));
}

/** A game on this device: the form's table, its player and the others
 * named here (pass-and-play), bots in the other seats; it replaces any
 * offline game kept, and opens at `#offline`.
 * @param {FormData} f @param {Record<string, any>} create */
function playOffline(f, create) {
  const seats = create.seats;
  const others = String(f.get("others") || "").split(",").map((n) => n.trim()).filter(Boolean).slice(0, seats - 1);
  const people = [0, ...others.map((_, i) => i + 1)];
  const names = Array.from({ length: seats }, (_, i) => (i === 0 ? String(f.get("name")) : others[i - 1] || "Bot " + (i + 1)));
  // Everything but the game: the timer is the server's, and the names stay here.
  const { host_name: _name, public: _public, turn_seconds: _turn, bot, ...rules } = create;
  newGame({ create: rules, names, people, bot, pause: botPause() });
  // The same page and worker (its bots already warm) open the table.
  history.pushState(null, "", "#offline");
  import("./app.js").then((app) => app.openTable(OFFLINE));
}


/** The new table's form as last drawn: the home page is drawn again when
 * the network comes back, and a redraw must not drop a field a person has
 * filled (issue 50: "Deals" filled with 1, then a table of 4 deals).
 * @type {HTMLFormElement | null} */
let drawn = null;

/** Copies every field's value (a box's tick) of the form `from` into the
 * field of the same name in `to`, and the focus with it.
 * @param {HTMLFormElement} from @param {HTMLFormElement} to */
function keepTyped(from, to) {
  const focused = document.activeElement;
  for (const old of /** @type {Iterable<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>} */ (from.elements)) {
    const now = old.name ? to.elements.namedItem(old.name) : null;
    if (!(now instanceof HTMLInputElement || now instanceof HTMLSelectElement || now instanceof HTMLTextAreaElement)) continue;
    if (now instanceof HTMLInputElement && now.type === "checkbox") now.checked = /** @type {HTMLInputElement} */ (old).checked;
    else now.value = old.value;
    if (old === focused) queueMicrotask(() => now.focus());
  }
}

/** The bots' levels, in players' words Relaxed, Good and Strong. */
const BOT_LEVELS = ["random", "heuristic", "expert"];
/** The board's spaces, as the rules name them. */
const SPACES = ["ace", "king", "queen", "jack", "ten", "king_queen", "sequence", "kitty", "pot"];

/** Only the chosen game's fields are shown (and sent). @param {HTMLFormElement} form @param {string} game */
function showGame(form, game) {
  for (const f of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll("[data-game]"))) {
    f.hidden = f.dataset.game !== game;
    if (f instanceof HTMLOptionElement && f.hidden && f.selected) /** @type {HTMLSelectElement} */ (form.elements.namedItem("bot")).value = "heuristic";
  }
}

/** The house rules chosen with the form's controls (left empty: the
 * preset's). Chips on a space left empty are the ante. @param {FormData} f */
function houseRules(f) {
  /** @type {Record<string, any>} */
  const rules = {};
  const n = (/** @type {string} */ name) => (String(f.get(name) || "").trim() === "" ? null : Number(f.get(name)));
  if (n("ante") != null) rules.ante = n("ante");
  if (n("bet_limit") != null) rules.bet_limit = n("bet_limit");
  if (f.get("misplays")) rules.misplays = f.get("misplays");
  const spaces = Object.fromEntries(SPACES.filter((s) => n("space-" + s) != null).map((s) => [s, n("space-" + s)]));
  if (Object.keys(spaces).length) rules.space_antes = spaces;
  return rules;
}

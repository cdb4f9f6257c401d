// @ts-check
// Tripoley web client: plain JavaScript modules, no build step. The page's
// entry: the catalogue first (so `t` is synchronous everywhere), the
// language switch, then the home page or a table, each module loaded only
// when it is needed (the first load stays small).

import { el } from "./dom.js";
import { loadLanguage, language, setLanguage, LANGUAGES, t } from "./i18n.js";

/** English / Español, in the page's header on every page: the choice is
 * kept in this browser and the page comes back in that language. */
function languageSwitch() {
  return el("nav", { class: "lang-switch", "aria-label": t("lang-switch") },
    Object.entries(LANGUAGES).map(([code, label]) => el("button", {
      lang: code, "data-key": "lang-" + code, "aria-pressed": String(code === language()),
      onclick: () => { if (code !== language()) setLanguage(code); },
    }, label)));
}

await loadLanguage();
document.querySelector("header").append(languageSwitch());
const m = location.pathname.match(/^\/t\/([^/]+)$/);
const shared = location.pathname.match(/^\/replay\/([0-9a-f]{32})$/);
if (location.hash === "#offline") (await import("./app.js")).openTable("offline");
else if (shared) (await import("./replay.js")).openShared(shared[1]);
else if (m) (await import("./app.js")).openTable(decodeURIComponent(m[1]));
else (await import("./home.js")).home();
// Back, Forward or a link to `#offline` (the game on this device) opens
// the page anew at that address.
window.addEventListener("popstate", () => location.reload());
window.addEventListener("hashchange", () => location.reload());
// The app keeps itself for offline use once the page is up (a guest opening
// a table's link downloads only the table).
if (!m && !shared) import("./install.js").then((i) => i.keepOffline());

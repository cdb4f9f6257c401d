// @ts-check
// "Your turn" seen from elsewhere (issue 26, point 4): while the tab is in
// the background its title says so and its icon wears a gold dot; a phone
// that can vibrate gives a short buzz when a decision comes. A tab in front
// keeps its plain title: the page itself says whose turn it is.

import { t } from "./i18n.js";

/** The tab's own icon as the page names it (its published name), put
 * back when the mark comes off. @type {string | null} */
let icon = null;
/** The gold dot drawn over the icon's corner. */
const DOT = '<circle cx="25" cy="7" r="7" fill="#f2c94c" stroke="#0e4a33" stroke-width="2"/>';
/** The tab's icon with the dot, made from the icon itself once asked. */
/** @type {Promise<string> | null} */
let badged = null;

/** @param {string} url */
function badgedIcon(url) {
  if (!badged) {
    badged = fetch(url).then((r) => r.text())
      .then((svg) => "data:image/svg+xml," + encodeURIComponent(svg.replace("</svg>", DOT + "</svg>")));
  }
  return badged;
}

/** Whether the title and icon now say "your turn" (null: not set yet). */
/** @type {boolean | null} */
let marked = null;

/** Sets the title and icon for this moment: `mine` when this page's seat
 * must decide. Cheap to call often (the clock's tick does). @param {boolean} mine */
export function turnMark(mine) {
  const mark = mine && document.visibilityState === "hidden";
  if (mark === marked) return;
  marked = mark;
  document.title = mark ? t("title-your-turn") : "Tripoley";
  const link = document.querySelector('link[rel="icon"]');
  if (!link) return;
  icon ??= link.getAttribute("href");
  if (!mark) link.setAttribute("href", icon);
  else badgedIcon(new URL(icon, document.baseURI).href).then((href) => { if (marked) link.setAttribute("href", href); }, () => {});
}

/** A short vibration at a new decision, where the device has one. */
export function buzz() {
  if (typeof navigator.vibrate === "function") navigator.vibrate(120);
}

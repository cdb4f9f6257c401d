// "Your turn" seen from elsewhere (issue 26, point 4): while the tab is in
// the background its title says so and its icon wears a gold dot; a phone
// that can vibrate gives a short buzz when a decision comes. A tab in front
// keeps its plain title: the page itself says whose turn it is.

import { t } from "./i18n.js";

const ICON = "/favicon.svg";
/** The tab's icon with a gold dot in its corner (favicon.svg, drawn again). */
const BADGED = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0e4a33"/>' +
  '<rect x="7" y="4" width="18" height="24" rx="3" fill="#fff"/>' +
  '<path d="M16 11c-2-3-6-1-5 2 1 2 5 5 5 6 0-1 4-4 5-6 1-3-3-5-5-2z" fill="#b3261e"/>' +
  '<circle cx="25" cy="7" r="7" fill="#f2c94c" stroke="#0e4a33" stroke-width="2"/></svg>');

/** Whether the title and icon now say "your turn" (null: not set yet). */
let marked = null;

/** Sets the title and icon for this moment: `mine` when this page's seat
 * must decide. Cheap to call often (the clock's tick does). */
export function turnMark(mine) {
  const mark = mine && document.visibilityState === "hidden";
  if (mark === marked) return;
  marked = mark;
  document.title = mark ? t("title-your-turn") : "Tripoley";
  const icon = document.querySelector('link[rel="icon"]');
  if (icon) icon.href = mark ? BADGED : ICON;
}

/** A short vibration at a new decision, where the device has one. */
export function buzz() {
  if (typeof navigator.vibrate === "function") navigator.vibrate(120);
}

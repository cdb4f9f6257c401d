// Building DOM elements without a library.

import { S } from "./state.js";

/** `el("button", {class: "x", onclick: f}, "text", child)`. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, "");
    else if (v !== false && v != null) e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

const SVG = "http://www.w3.org/2000/svg";

/** `svgEl("rect", {x: 0, fill: "#fff"}, child)`: an SVG element, as `el`
 * makes an HTML one (every attribute set as it is written). */
export function svgEl(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  e.append(...children.flat().filter((c) => c != null && c !== false));
  return e;
}

/** A folding panel (`<details>`, class `name`) that stays open or closed as
 * the player left it: every move draws the page again, and the panel with
 * it. Its state is `S.open[name]` (unset: `openAtFirst`), noted at the
 * summary's click (Enter and Space on it are clicks too), not at the
 * `toggle` event, which comes a task later: a move drawn between the two
 * drew the panel as it was. A `toggle` of the panel on the page is noted
 * too (the browser's find-in-page opens panels). `body()` gives what is
 * inside, drawn only while open; `onOpen(panel)` runs when the player
 * opens it. */
export function keptOpen(name, summary, body, { attrs = {}, openAtFirst = false, onOpen = null } = {}) {
  const panel = el("details", { ...attrs, class: [name, attrs.class].filter(Boolean).join(" "), open: S.open[name] ?? openAtFirst });
  let drawn = false;
  const draw = () => {
    if (!drawn) panel.append(...[body()].flat().filter((c) => c != null && c !== false));
    drawn = true;
  };
  const note = (open) => {
    if ((S.open[name] ?? openAtFirst) === open) return;
    S.open[name] = open;
    if (!open) return;
    draw();
    if (onOpen) onOpen(panel);
  };
  // Named, so the focus stays on it when the page is drawn again.
  panel.append(el("summary", { "data-key": name, onclick: () => note(!panel.open) }, summary));
  panel.addEventListener("toggle", () => {
    if (panel.isConnected) note(panel.open);
  });
  if (panel.open) draw();
  return panel;
}

// @ts-check
// Building DOM elements without a library.

/** What may be put in an element: nodes, text, numbers, lists of them;
 * null, undefined and false are left out.
 * @typedef {Node | string | number | boolean | null | undefined | Child[]} Child */
/** An element's attributes: `class`, `on<event>` listeners, the others
 * set as written (true: present, false or null: absent).
 * @typedef {Record<string, any>} Attrs */

/** `el("button", {class: "x", onclick: f}, "text", child)`: an element of
 * the type its tag names (an `HTMLInputElement` for "input").
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Attrs} [attrs] @param {Child[]} children
 * @returns {HTMLElementTagNameMap[K]} */
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
 * makes an HTML one (every attribute set as it is written).
 * @param {string} tag @param {Attrs} [attrs] @param {Child[]} children @returns {SVGElement} */
export function svgEl(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  e.append(.../** @type {(Node | string)[]} */ (children.flat().filter((c) => c != null && c !== false)));
  return e;
}

/** A folding panel (`<details>`, class `name`) that stays open or closed as
 * the player left it: every move draws the page again, and the panel with
 * it. Its state is `open[name]` (unset: `openAtFirst`), noted at the
 * summary's click (Enter and Space on it are clicks too), not at the
 * `toggle` event, which comes a task later: a move drawn between the two
 * drew the panel as it was. A `toggle` of the panel on the page is noted
 * too (the browser's find-in-page opens panels). `body()` gives what is
 * inside, drawn only while open; `onOpen(panel)` runs when the player
 * opens it.
 * @param {Record<string, boolean>} open the table's panels open or closed, by name
 * @param {string} name
 * @param {Child} summary
 * @param {() => Child} body
 * @param {{ attrs?: Attrs, openAtFirst?: boolean, onOpen?: ((panel: HTMLDetailsElement) => void) | null }} [how]
 */
export function keptOpen(open, name, summary, body, { attrs = {}, openAtFirst = false, onOpen = null } = {}) {
  const panel = el("details", { ...attrs, class: [name, attrs.class].filter(Boolean).join(" "), open: open[name] ?? openAtFirst });
  let drawn = false;
  const draw = () => {
    if (!drawn) panel.append(.../** @type {(Node | string)[]} */ ([body()].flat().filter((c) => c != null && c !== false)));
    drawn = true;
  };
  const note = (/** @type {boolean} */ now) => {
    if ((open[name] ?? openAtFirst) === now) return;
    open[name] = now;
    if (!now) return;
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

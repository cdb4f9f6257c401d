// @ts-check
// Movement that explains: chips fly from where they were to where they go
// (a space to the player who takes it, a bet to the Pot), cards fly from the
// board to the seats when they are dealt, and the cards of a Michigan run land
// on their rows one after another. Nothing moves when the player asks for
// reduced motion.

import { el } from "./dom.js";

const still = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** @param {import("./frames.js").Account} a */
function key(a) {
  if (a === "pot") return "pot";
  return a.stack !== undefined ? "stack:" + a.stack : "space:" + a.space;
}

/** Where an account is on screen now (null: not shown). */
/** @param {ParentNode} root @param {string} account */
function placeOf(root, account) {
  const e = root.querySelector('[data-account="' + account + '"]');
  return e ? e.getBoundingClientRect() : null;
}

/** Flies `node` (appended to the page, `size` pixels wide) from the centre
 * of `from` to the centre of `to`, after `delay` ms, then removes it.
 * @param {HTMLElement} node @param {DOMRect} from @param {DOMRect} to @param {number} size @param {number} delay */
function fly(node, from, to, size, delay) {
  node.style.left = from.left + from.width / 2 - size / 2 + window.scrollX + "px";
  node.style.top = from.top + from.height / 2 - size / 2 + window.scrollY + "px";
  document.body.append(node);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const anim = node.animate(
    [{ transform: "translate(0, 0)" }, { transform: `translate(${dx}px, ${dy}px)` }],
    { duration: 450, delay, easing: "ease-in-out", fill: "both" },
  );
  anim.onfinish = () => node.remove();
}

/** Flies a few chips for each transfer, from where the payer is now (a
 * panel inserted above may have moved the board since the move; `before`,
 * the places before the re-render, is for an account no longer shown) to
 * the taker's place.
 * @param {import("./frames.js").Transfer[]} transfers @param {Map<string, DOMRect>} before @param {ParentNode} root */
export function flyChips(transfers, before, root) {
  if (!transfers.length || still()) return;
  transfers.slice(-12).forEach((t, i) => {
    const from = placeOf(root, key(t.from)) || before.get(key(t.from));
    const to = placeOf(root, key(t.to));
    if (!from || !to) return;
    for (let c = 0; c < Math.min(t.amount, 3); c++) {
      fly(el("span", { class: "chip flying", "aria-hidden": "true", "data-from": key(t.from) }), from, to, 18, i * 60 + c * 40);
    }
  });
}

/** Cards dealt: three card backs fly from the board to each seat in turn. @param {ParentNode} root */
export function flyDeal(root) {
  if (still()) return;
  const deck = root.querySelector(".board");
  const seats = [...root.querySelectorAll('.seat[data-account^="stack:"]')];
  if (!deck || !seats.length) return;
  const from = deck.getBoundingClientRect();
  for (let round = 0; round < 3; round++) {
    seats.forEach((seat, i) => {
      fly(el("span", { class: "card-back flying", "aria-hidden": "true" }), from, seat.getBoundingClientRect(), 20,
        (round * seats.length + i) * 70);
    });
  }
}

/** The cards of a move (a Michigan run) land on their rows one after
 * another, in the order they were played. @param {string[]} cards @param {ParentNode} root */
export function landCards(cards, root) {
  if (!cards.length || still()) return;
  cards.forEach((c, i) => {
    const face = root.querySelector('.played-rows [data-played="' + c + '"]');
    if (!face) return;
    face.animate([{ opacity: 0, transform: "translateY(-0.8rem) scale(1.15)" }, { opacity: 1, transform: "none" }],
      { duration: 260, delay: i * 260, easing: "ease-out", fill: "backwards" });
  });
}

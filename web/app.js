// Tripoley web client: plain JavaScript module, no build step.
// Speaks protocol version 1 (docs/protocol.md) over a websocket.

const PROTOCOL = 1;
const main = document.getElementById("main");
const connEl = document.getElementById("conn");

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
const SPACE_NAMES = {
  ace: "Ace", king: "King", queen: "Queen", jack: "Jack", ten: "Ten",
  king_queen: "King-Queen", sequence: "Sequence", kitty: "Kitty", pot: "Pot",
};

// ----- small helpers -----

function el(tag, attrs = {}, ...children) {
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

function cardText(c) {
  return c.slice(0, -1) + SUITS[c.slice(-1)];
}

function cardEl(c, extra = {}) {
  const red = c.endsWith("H") || c.endsWith("D");
  return el("span", { class: "card" + (red ? " red" : ""), ...extra }, cardText(c));
}

const RANK_ORDER = "23456789TJQKA";
function sortCards(cards) {
  const key = (c) => "CDHS".indexOf(c.slice(-1)) * 20 + RANK_ORDER.indexOf(c.slice(0, -1).replace("10", "T"));
  return [...cards].sort((a, b) => key(a) - key(b));
}

function storeKey(invite) {
  return "tripoley:" + invite;
}
function saved(invite) {
  try {
    return JSON.parse(localStorage.getItem(storeKey(invite)) || "null");
  } catch {
    return null;
  }
}
function save(invite, data) {
  localStorage.setItem(storeKey(invite), JSON.stringify({ ...(saved(invite) || {}), ...data }));
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error((data && data.message) || res.statusText);
  return data;
}

// ----- the home page: create a table -----

async function home() {
  let presets = [];
  try {
    presets = await api("GET", "/api/presets");
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, "Cannot reach the server: " + e.message));
    return;
  }
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { class: "panel", "aria-label": "New table" },
    el("h2", {}, "New table"),
    el("label", {}, "Your name ", el("input", { name: "name", required: true, maxlength: 24, autocomplete: "nickname" })),
    el("label", {}, "Game ", el("select", { name: "game" }, el("option", { value: "tripoley" }, "Tripoley"), el("option", { value: "napalm" }, "Napalm poker"))),
    el("label", {}, "Rules (Tripoley) ", el("select", { name: "preset" }, presets.map((p) => el("option", { value: p.name }, p.name)))),
    el("label", {}, "Seats ", el("input", { name: "seats", type: "number", min: 2, max: 9, value: 4 })),
    el("label", {}, "Starting chips ", el("input", { name: "chips", type: "number", min: 1, value: 100 })),
    el("label", {}, "Tokens to win (Napalm) ", el("input", { name: "tokens", type: "number", min: 1, max: 100, value: 5 })),
    el("label", {}, "Deals (Tripoley; empty: one per player) ", el("input", { name: "deals", type: "number", min: 1 })),
    el("label", {}, "Seconds per turn (0: no limit) ", el("input", { name: "turn", type: "number", min: 0, max: 3600, value: 60 })),
    el("label", {}, "Bots ", el("select", { name: "bot" }, el("option", { value: "heuristic" }, "heuristic"), el("option", { value: "random" }, "random"))),
    el("details", {}, el("summary", {}, "House rules (JSON)"),
      el("textarea", { name: "rules", rows: 4, placeholder: '{"bet_limit": 5}' })),
    el("button", { type: "submit" }, "Create table"),
    error,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    const body = {
      preset: f.get("preset"),
      seats: Number(f.get("seats")),
      starting_chips: Number(f.get("chips")),
      turn_seconds: Number(f.get("turn")),
      bot: f.get("bot"),
      host_name: f.get("name"),
    };
    if (f.get("game") === "napalm") {
      // Napalm has no presets and no deal count; 2 to 7 seats.
      delete body.preset;
      body.game = "napalm";
      body.tokens_to_win = Number(f.get("tokens"));
    } else if (f.get("deals")) body.deals = Number(f.get("deals"));
    try {
      if (String(f.get("rules")).trim()) body.rules = JSON.parse(f.get("rules"));
      const t = await api("POST", "/api/tables", body);
      save(t.invite, { token: t.host_token, host: true });
      location.href = t.path;
    } catch (e) {
      error.textContent = e.message;
    }
  });
  const join = el("form", { class: "panel", "aria-label": "Join a table" },
    el("h2", {}, "Join a table"),
    el("label", {}, "Invite code ", el("input", { name: "code", required: true })),
    el("button", { type: "submit" }, "Open"),
  );
  join.addEventListener("submit", (ev) => {
    ev.preventDefault();
    location.href = "/t/" + encodeURIComponent(new FormData(join).get("code").trim());
  });
  main.replaceChildren(form, join);
}

// ----- a table -----

const S = {
  invite: null, ws: null, last: null, table: null, view: null, turn: null,
  turnAt: 0, log: [], ledger: [], role: null, seat: null, host: false,
  chosen: new Set(), stopped: null, retry: 0, error: "", winners: null,
};

function name(seat) {
  const s = S.table && S.table.seats[seat];
  return (s && s.name) || "Seat " + (seat + 1);
}
function account(a) {
  if (a === "pot") return "the pot";
  if (a.stack !== undefined) return name(a.stack);
  return "the " + (SPACE_NAMES[a.space] || a.space);
}

function isNapalm() {
  return !!(S.table && S.table.settings && S.table.settings.game === "napalm");
}

// ----- Napalm (RULES.md section 7) -----

const ROUNDS = {
  best_two: { number: 1, claim: "the best two cards", dealt: "two cards each" },
  lowest_five: { number: 2, claim: "the lowest five-card hand", dealt: "three more cards each" },
  best_of_seven: { number: 3, claim: "the best five cards of seven", dealt: "two more cards each" },
};

function seatsOf(mask) {
  const out = [];
  for (let s = 0; s < 16; s++) if ((mask >> s) & 1) out.push(s);
  return out;
}

// One Napalm event in plain words (null for those not worth a line).
function describeNapalm(e) {
  const n = (s) => name(s);
  switch (e.event) {
    case "hand_started": return "Hand " + e.number + ": " + n(e.dealer) + " deals; everyone antes.";
    case "player_out": return n(e.seat) + " cannot ante and is out with " + e.chips + " chips.";
    case "transfer":
      if (e.reason === "ante") return null;
      if (e.reason === "side_bet") return account(e.from) + " pays " + account(e.to) + " " + e.amount + " (a side bet worth the pot).";
      if (e.reason === "pot_won") return account(e.to) + " takes the pot: " + e.amount + " chips.";
      return account(e.from) + " → " + account(e.to) + ": " + e.amount;
    case "dealt": return "You are dealt " + sortCards(e.cards).map(cardText).join(" ") + ".";
    case "round_started": {
      const r = ROUNDS[e.round];
      return r ? "Round " + r.number + " (" + r.dealt + "): a Yes claims " + r.claim + "." : "Round " + e.round + ".";
    }
    case "declared": return n(e.seat) + " says " + (e.yes ? "Yes." : "No.");
    case "challenged": return n(e.seat) + (e.yes ? " challenges the dealer: now Yes." : " keeps their No.");
    case "compared": {
      const hands = e.hands.map(([s, cards]) => (s === S.seat ? "you" : n(s)) + ": " + sortCards(cards).map(cardText).join(" "));
      const best = seatsOf(e.best).map((s) => (s === S.seat ? "you" : n(s)));
      return "Compared privately: " + hands.join("; ") + ". Best: " + best.join(" and ") + (best.length > 1 ? " (a tie)." : ".");
    }
    case "token": return n(e.seat) + " is the only Yes and takes a token (" + e.tokens + " now).";
    case "hand_ended": return "Hand " + e.number + " is over.";
    case "game_over":
      S.winners = e.winners;
      return "Game over. " + e.winners.map(n).join(" and ") + (e.winners.length > 1 ? " share the pot." : " takes the pot and wins.");
    default: return e.event.replace(/_/g, " ");
  }
}

// One event in plain words (null for those not worth a line).
function describe(e) {
  if (isNapalm()) return describeNapalm(e);
  const n = (s) => name(s);
  switch (e.event) {
    case "drew_for_dealer": return "Draw for dealer: " + e.draws.map(([s, c]) => n(s) + " " + cardText(c)).join(", ");
    case "first_dealer": return n(e.seat) + " deals first.";
    case "player_out": return n(e.seat) + " cannot ante and is out with " + e.chips + " chips.";
    case "deal_started": return "Deal " + e.number + ": " + n(e.dealer) + " deals" + (e.pay_suit ? "; pay suit " + e.pay_suit : "") + "; Sequence from " + e.sequence + ".";
    case "transfer": return e.reason === "ante" ? null : account(e.from) + " → " + account(e.to) + ": " + e.amount + " (" + e.reason.replace(/_/g, " ") + ")";
    case "dealt": return "Your hand: " + sortCards(e.cards).map(cardText).join(" ");
    case "dealer_kept": return n(e.seat) + " keeps their hand.";
    case "swapped": return n(e.seat) + " swaps for the other hand.";
    case "new_hand": return "Your new hand: " + sortCards(e.cards).map(cardText).join(" ");
    case "auction_opened": return "Auction of " + (e.item === "spare" ? "the spare hand" : "the dealer's old hand") + ".";
    case "bid": return n(e.seat) + " bids " + e.amount + ".";
    case "passed": return n(e.seat) + " passes.";
    case "auction_sold": return n(e.seat) + " buys it for " + e.price + ".";
    case "auction_unsold": return "Nobody buys.";
    case "pay_suit_named": return "The pay suit is " + e.suit + (e.seat != null ? " (named by " + n(e.seat) + ")" : "") + ".";
    case "pay_cards_shown": return n(e.seat) + " shows " + e.cards.map(cardText).join(" ") + ".";
    case "sequence_shared": return "The Sequence is shared; " + e.remainder + " stays.";
    case "checked": return n(e.seat) + " checks.";
    case "bet": return n(e.seat) + " bets " + e.amount + ".";
    case "called": return n(e.seat) + " calls " + e.amount + (e.all_in ? " (all in)" : "") + ".";
    case "raised": return n(e.seat) + " raises by " + e.by + ".";
    case "folded": return n(e.seat) + " folds.";
    case "showed": return n(e.seat) + " shows " + e.cards.map(cardText).join(" ") + ".";
    case "led": return n(e.seat) + " leads " + cardText(e.card) + (e.misplay ? " (not the lowest: a misplay)" : "") + ".";
    case "played": return n(e.seat) + " plays " + cardText(e.card) + ".";
    case "withheld": return "You withhold " + cardText(e.card) + ".";
    case "run_stopped": return "The run stops: " + stopWhy(e) + ".";
    case "cannot_lead": return n(e.seat) + " cannot lead; the turn passes.";
    case "play_blocked": return "Nobody can lead: play is blocked.";
    case "went_out": return n(e.seat) + " plays their last card.";
    case "final_pot_round": return "Final pot " + e.round + ": " + e.chips + " chips.";
    case "face_up": return n(e.seat) + ": " + e.cards.map(cardText).join(" ");
    case "deal_ended": return "Deal " + e.number + " is over.";
    case "game_over": return "Game over. " + e.winners.map(n).join(" and ") + (e.winners.length > 1 ? " win." : " wins.");
    default: return e.event.replace(/_/g, " ");
  }
}

function stopWhy(e) {
  if (e.reason === "ace") return "it reached an ace";
  const next = e.next ? cardText(e.next) : "the next card";
  if (e.reason === "already_played") return next + " was played earlier";
  return "nobody played " + next;
}

function absorb(events, n) {
  for (const e of events) {
    if (e.event === "deal_ended") S.ledger = [];
    if (e.event === "transfer") S.ledger.push(e);
    if (e.event === "run_stopped") S.stopped = stopWhy(e);
    if (e.event === "deal_started") S.stopped = null;
    const text = describe(e);
    if (text) S.log.push({ n, text });
  }
  if (S.log.length > 300) S.log.splice(0, S.log.length - 300);
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
}

function act(action) {
  S.error = "";
  S.hint = null;
  send({ type: "act", action, n: S.last, seat: S.seat });
}

/** An action in words, for the hint line. */
function actionText(a) {
  if (typeof a === "string") return a.replace(/_/g, " ");
  const [k, v] = Object.entries(a)[0];
  if (k === "lead") return "lead " + cardText(v);
  if (k === "choose") return "set apart " + sortCards(v).map(cardText).join(" ");
  return k.replace(/_/g, " ") + " " + v;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(proto + "//" + location.host + "/ws/" + encodeURIComponent(S.invite));
  S.ws = ws;
  connEl.textContent = "connecting…";
  ws.addEventListener("open", () => {
    const mine = saved(S.invite);
    ws.send(JSON.stringify({ type: "hello", v: PROTOCOL, token: (mine && mine.token) || null, last: S.last }));
  });
  ws.addEventListener("message", (ev) => onMessage(JSON.parse(ev.data)));
  ws.addEventListener("close", () => {
    connEl.textContent = "reconnecting…";
    if (S.ws !== ws) return;
    S.retry = Math.min(S.retry + 1, 6);
    setTimeout(connect, 250 * 2 ** S.retry);
  });
}

function onMessage(m) {
  switch (m.type) {
    case "welcome":
      // Backoff restarts only once the server took us in: it closes a refused
      // hello (a full table), and retrying that at once would loop.
      S.retry = 0;
      S.role = m.role; S.seat = m.seat; S.host = m.host; S.table = m.table;
      connEl.textContent = m.role === "player" ? "playing as " + name(m.seat) : "watching";
      break;
    case "table":
      S.table = m.table;
      break;
    case "state":
      S.log = []; S.ledger = []; S.stopped = null; S.winners = null;
      S.table = m.table;
      for (const entry of m.log) absorb(entry.events, entry.n);
      S.view = m.view; S.last = m.n; setTurn(m.turn);
      S.chosen.clear();
      break;
    case "update":
      absorb(m.events, m.n);
      S.last = Math.max(S.last ?? 0, m.n);
      if (m.view) {
        S.view = m.view; setTurn(m.turn); S.chosen.clear(); S.hint = null;
        if (m.auto && m.turn !== undefined) S.log.push({ n: m.n, text: "(the server played for a player who was away or out of time)" });
      }
      break;
    case "hint":
      S.hint = m.action;
      break;
    case "error":
      S.error = m.message;
      if (m.code === "unauthorized" && S.role == null) {
        localStorage.removeItem(storeKey(S.invite));
        S.ws.close();
      }
      break;
    default:
      break;
  }
  render();
}

function setTurn(turn) {
  S.turn = turn || null;
  S.turnAt = performance.now();
}

// ----- rendering -----

function render() {
  if (!S.table) return;
  const parts = [];
  if (S.table.status === "lobby") parts.push(lobby());
  if (S.view) parts.push(isNapalm() ? napalmView() : tableView());
  if (S.error) parts.push(el("p", { class: "error", role: "alert" }, S.error));
  const active = document.activeElement;
  const focused = active && (active.dataset.key || active.name);
  // What the player is typing (a name, an amount) survives a re-render
  // caused by someone else's move or a player joining.
  const typed = new Map();
  for (const f of main.querySelectorAll("input:not([readonly]), select, textarea")) {
    const key = f.dataset.key || f.name;
    if (key && f.value !== f.defaultValue) typed.set(key, f.value);
  }
  main.replaceChildren(...parts);
  for (const f of main.querySelectorAll("input:not([readonly]), select, textarea")) {
    const key = f.dataset.key || f.name;
    if (!typed.has(key)) continue;
    const v = typed.get(key);
    const n = Number(v);
    const fits = f.type !== "number" || ((f.min === "" || n >= Number(f.min)) && (f.max === "" || n <= Number(f.max)));
    if (fits) f.value = v;
  }
  if (focused) {
    const again = main.querySelector('[data-key="' + focused + '"], [name="' + focused + '"]');
    if (again) again.focus();
  }
}

function lobby() {
  const link = location.origin + "/t/" + S.invite;
  const mine = saved(S.invite);
  const seats = el("ol", { class: "seats" }, S.table.seats.map((s) =>
    el("li", {}, s.name ? s.name + (s.connected ? " ✓" : "") : "open (a bot if nobody sits)")));
  const box = el("section", { class: "panel", "aria-label": "Lobby" },
    el("h2", {}, "Table " + S.invite),
    el("p", {}, "Invite link: ", el("input", { readonly: true, value: link, size: 40, "aria-label": "Invite link", onfocus: (e) => e.target.select() })),
    el("p", {}, "Rules: " + describeRules(S.table.settings)),
    seats);
  if (!mine || !mine.token || (S.role === "spectator" && !mine.seat && !mine.host)) {
    const open = S.table.seats.filter((s) => s.kind === "open");
    if (open.length) {
      const error = el("p", { class: "error", role: "alert" });
      const form = el("form", {},
        el("label", {}, "Your name ", el("input", { name: "name", required: true, maxlength: 24 })),
        el("label", {}, " Seat ", el("select", { name: "seat" }, open.map((s) => el("option", { value: s.seat }, "Seat " + (s.seat + 1))))),
        el("button", { type: "submit" }, "Take the seat"), error);
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const f = new FormData(form);
        try {
          const r = await api("POST", "/api/tables/" + S.invite + "/sit", { seat: Number(f.get("seat")), name: f.get("name") });
          save(S.invite, { token: r.token, seat: r.seat });
          S.ws.close();
        } catch (e) {
          error.textContent = e.message;
        }
      });
      box.append(form);
    }
  }
  if (S.host) box.append(el("button", { "data-key": "start", onclick: () => send({ type: "start" }) }, "Start the game"));
  else box.append(el("p", {}, "Waiting for the host to start."));
  return box;
}

function describeRules(s) {
  if (s.game === "napalm" && s.napalm) {
    const r = s.napalm;
    return "Napalm poker: " + s.seats + " seats, " + r.starting_chips + " chips each, ante " + r.ante + ", " +
      r.tokens_to_win + " tokens win (at most " + r.max_hands + " hands)" + (s.turn_seconds ? ", " + s.turn_seconds + " s per turn" : "");
  }
  const r = s.rules;
  return s.seats + " seats, " + r.starting_chips + " chips each, spare " + JSON.stringify(r.spare).replace(/"/g, "") +
    ", poker " + JSON.stringify(r.poker).replace(/"/g, "") + (s.turn_seconds ? ", " + s.turn_seconds + " s per turn" : "");
}

/** "Your turn" or "Bob's turn", with whether a bot plays it and the timer. */
function turnLine(turnSeat) {
  return el("p", { class: "turn" }, (turnSeat === S.seat ? "Your turn" : name(turnSeat) + "'s turn"),
    S.turn && S.turn.bot ? " (a bot plays)" : "", el("span", { id: "timer" }));
}

/** What both games say about a seat: dealer, out, bot or away. */
function seatBits(v, s) {
  const info = S.table.seats[s] || {};
  const bits = [];
  if (s === v.dealer) bits.push("dealer");
  if (v.out[s]) bits.push("out");
  if (info.kind === "bot") bits.push("bot");
  else if (!info.connected) bits.push("away");
  return bits;
}

function tableView() {
  const v = S.view;
  const wrap = el("div", { class: "table" });
  const turnSeat = S.turn ? S.turn.seat : v.to_act;
  wrap.append(el("section", { class: "status panel", "aria-label": "Status" },
    el("p", {}, "Deal " + Math.max(v.deal_number, 1) + " of " + v.deals_total + " · " + v.stage.replace(/_/g, " ") +
      (v.pay_suit ? " · pay suit " + v.pay_suit : "") + (v.sequence ? " · Sequence from " + v.sequence : "")),
    turnSeat != null ? turnLine(turnSeat) : null,
    S.stopped ? el("p", {}, "Last run stopped: " + S.stopped + ".") : null));
  // Players.
  wrap.append(el("section", { class: "players panel", "aria-label": "Players" },
    el("h2", {}, "Players"),
    el("ul", {}, v.stacks.map((chips, s) => {
      const bits = seatBits(v, s);
      if (v.betting) {
        bits.push("bet " + v.betting.contributed[s]);
        if (v.betting.folded[s]) bits.push("folded");
      }
      const played = v.played[s] || [];
      return el("li", { class: s === turnSeat ? "active" : "" },
        el("strong", {}, name(s) + (s === S.seat ? " (you)" : "")), " · ", chips + " chips · " + v.hand_sizes[s] + " cards",
        bits.length ? " · " + bits.join(", ") : "",
        v.known_cards[s] && v.known_cards[s].length && s !== S.seat ? el("div", {}, "shown: ", sortCards(v.known_cards[s]).map((c) => cardEl(c))) : null,
        played.length ? el("div", { class: "played" }, "played: ", sortCards(played).map((c) => cardEl(c))) : null);
    }))));
  // Layout.
  wrap.append(el("section", { class: "layout panel", "aria-label": "Layout" },
    el("h2", {}, "Layout"),
    el("ul", {}, v.layout.map(([space, chips]) => el("li", {}, (SPACE_NAMES[space] || space) + ": " + chips))),
    v.betting ? el("p", {}, "Highest bet " + v.betting.current + ", raises " + v.betting.raises) : null,
    v.auction ? el("p", {}, "Auction" + (v.auction.high ? ": high bid " + v.auction.high[1] + " by " + name(v.auction.high[0]) : ": no bid yet")) : null,
    v.last_played ? el("p", {}, "Last card: ", cardEl(v.last_played[1]), " by " + name(v.last_played[0])) : null));
  // My hand and choices.
  if (S.seat != null) wrap.append(handView(v));
  if (v.standings) {
    wrap.append(el("section", { class: "panel", "aria-label": "Final standings" }, el("h2", {}, "Final standings"),
      el("ol", {}, [...v.standings].sort((a, b) => b.chips - a.chips).map((s) =>
        el("li", {}, name(s.seat) + ": " + s.chips + " chips" + (s.winner ? " 🏆" : ""))))));
  }
  wrap.append(el("section", { class: "ledger panel", "aria-label": "This deal's ledger" }, el("h2", {}, "This deal's ledger"),
    el("ul", {}, S.ledger.map((t) => el("li", {}, account(t.from) + " → " + account(t.to) + ": " + t.amount + " (" + t.reason.replace(/_/g, " ") + ")")))));
  const log = el("ol", { class: "log", "aria-live": "polite" }, S.log.slice(-80).map((l) => el("li", {}, l.text)));
  wrap.append(el("section", { class: "panel", "aria-label": "What happened" }, el("h2", {}, "What happened"), log));
  requestAnimationFrame(() => { log.scrollTop = log.scrollHeight; });
  return wrap;
}

function handView(v) {
  const d = v.decision;
  const kind = d && (typeof d === "string" ? d : Object.keys(d)[0]);
  const body = d && typeof d === "object" ? d[kind] : null;
  const leads = kind === "lead" ? new Set(body.cards) : new Set();
  const choosing = kind === "choose_five";
  const hand = sortCards(v.hand).map((c) => {
    const legal = leads.has(c) || choosing || (kind === "follow" && body.card === c);
    const chosen = S.chosen.has(c);
    return el("button", {
      class: "cardbtn" + (legal ? " legal" : "") + (chosen ? " chosen" : "") + (c.endsWith("H") || c.endsWith("D") ? " red" : ""),
      disabled: !legal, "data-key": "card-" + c, "aria-pressed": choosing ? String(chosen) : false,
      "aria-label": cardText(c) + (legal ? (choosing ? " (choose)" : " (play)") : ""),
      onclick: () => {
        if (leads.has(c)) act({ lead: c });
        else if (kind === "follow") act("play");
        else if (choosing) {
          if (chosen) S.chosen.delete(c);
          else if (S.chosen.size < 5) S.chosen.add(c);
          render();
        }
      },
    }, cardText(c));
  });
  const controls = el("div", { class: "controls" });
  const button = (label, action, key) => el("button", { "data-key": key || label, onclick: () => act(action) }, label);
  const amount = (label, verb, min, max) => {
    const input = el("input", { type: "number", min, max, value: min, "aria-label": label + " amount", "data-key": verb + "-n" });
    return el("span", { class: "amount" }, input, el("button", { "data-key": verb, onclick: () => act({ [verb]: Number(input.value) }) }, label));
  };
  switch (kind) {
    case "spare_option":
      controls.append(button("Keep", "keep"));
      if (body.can_swap) controls.append(button("Swap for the spare", "swap"));
      if (body.can_auction) controls.append(button("Auction the spare", "auction_spare"));
      if (body.can_swap_and_auction) controls.append(button("Swap, then auction my hand", "swap_and_auction"));
      break;
    case "auction_bid":
    case "pay_suit_bid":
      controls.append(amount("Bid", "bid", body.min, body.max), button("Pass", "pass"));
      break;
    case "name_pay_suit":
      for (const s of SUIT_NAMES) controls.append(button("Name " + s, { name_suit: s }));
      break;
    case "open":
      controls.append(button("Check", "check"));
      if (body.max_bet > 0) controls.append(amount("Bet", "bet", 1, body.max_bet));
      break;
    case "respond":
      controls.append(button("Fold", "fold"), button("Call " + body.to_call, "call"));
      if (body.max_raise > 0) controls.append(amount("Raise", "raise", 1, body.max_raise));
      break;
    case "choose_five":
      controls.append(el("span", {}, "Choose five cards for your poker hand (" + S.chosen.size + "/5) "),
        el("button", { "data-key": "choose", disabled: S.chosen.size !== 5, onclick: () => act({ choose: [...S.chosen] }) }, "Set these five apart"));
      break;
    case "lead":
      controls.append(el("span", {}, "Lead one of the highlighted cards."));
      break;
    case "follow":
      controls.append(button("Play " + cardText(body.card), "play"), button("Withhold it", "withhold"));
      break;
    default:
      break;
  }
  if (d) {
    controls.append(el("button", { "data-key": "hint", class: "hint", onclick: () => send({ type: "hint" }) }, "Hint"));
    if (S.hint) controls.append(el("span", { class: "hint-text", role: "status" }, "The expert would " + actionText(S.hint) + "."));
  }
  return el("section", { class: "hand panel" + (d ? " mine" : ""), "aria-label": "Your hand" },
    el("h2", {}, d ? "Your hand: your move" : "Your hand"), el("div", { class: "cards" }, hand), controls);
}

function napalmView() {
  const v = S.view;
  const wrap = el("div", { class: "table" });
  const turnSeat = S.turn ? S.turn.seat : v.to_act;
  const round = v.round && ROUNDS[v.round];
  const over = S.table.status === "finished" || S.winners;
  wrap.append(el("section", { class: "status panel", "aria-label": "Status" },
    el("p", {}, "Hand " + Math.max(v.hand_number, 1) + " · pot " + v.pot + " chips" +
      (round ? " · round " + round.number + " of 3: a Yes claims " + round.claim : "")),
    turnSeat != null && !over ? turnLine(turnSeat) : null));
  wrap.append(el("section", { class: "players panel", "aria-label": "Players" },
    el("h2", {}, "Players"),
    el("ul", {}, v.stacks.map((chips, s) => {
      const bits = seatBits(v, s);
      const said = v.declared[s];
      const seen = v.seen[s] || [];
      return el("li", { class: s === turnSeat ? "active" : "" },
        el("strong", {}, name(s) + (s === S.seat ? " (you)" : "")), " · ",
        chips + " chips · " + v.tokens[s] + (v.tokens[s] === 1 ? " token" : " tokens") + " · " + v.card_counts[s] + " cards",
        said != null ? " · said " + (said ? "Yes" : "No") : "",
        bits.length ? " · " + bits.join(", ") : "",
        seen.length ? el("div", {}, "seen in a comparison: ", sortCards(seen).map((c) => cardEl(c))) : null);
    }))));
  wrap.append(el("section", { class: "layout panel", "aria-label": "Pot" },
    el("h2", {}, "Pot"), el("p", {}, v.pot + " chips"),
    round ? el("p", {}, "Yes means: I hold " + round.claim + ".") : null));
  if (S.seat != null) wrap.append(napalmHand(v));
  if (over) {
    const order = v.stacks.map((chips, s) => ({ s, chips, tokens: v.tokens[s] }))
      .sort((a, b) => b.tokens - a.tokens || b.chips - a.chips);
    wrap.append(el("section", { class: "panel", "aria-label": "Final result" }, el("h2", {}, "Final result"),
      S.winners ? el("p", {}, (S.winners.length > 1 ? "Winners: " : "Winner: ") + S.winners.map(name).join(" and ")) : null,
      el("ol", {}, order.map((p) => el("li", {}, name(p.s) + ": " + p.chips + " chips, " + p.tokens + (p.tokens === 1 ? " token" : " tokens") +
        (S.winners && S.winners.includes(p.s) ? " 🏆" : ""))))));
  }
  const log = el("ol", { class: "log", "aria-live": "polite" }, S.log.slice(-80).map((l) => el("li", {}, l.text)));
  wrap.append(el("section", { class: "panel", "aria-label": "What happened" }, el("h2", {}, "What happened"), log));
  requestAnimationFrame(() => { log.scrollTop = log.scrollHeight; });
  return wrap;
}

function napalmHand(v) {
  const d = v.decision;
  const kind = d && Object.keys(d)[0];
  const round = d && ROUNDS[d[kind].round];
  const controls = el("div", { class: "controls" });
  const button = (label, action) => el("button", { "data-key": action, onclick: () => act(action) }, label);
  if (kind === "declare") {
    controls.append(el("span", {}, "Do you hold " + round.claim + "? "), button("Yes", "yes"), button("No", "no"));
  } else if (kind === "challenge") {
    controls.append(el("span", {}, "The dealer alone said Yes. Change your No to Yes? "),
      button("Challenge", "challenge"), button("Decline", "decline"));
  }
  if (d) {
    controls.append(el("button", { "data-key": "hint", class: "hint", onclick: () => send({ type: "hint" }) }, "Hint"));
    if (S.hint) controls.append(el("span", { class: "hint-text", role: "status" }, "The bot would say " + actionText(S.hint) + "."));
  }
  return el("section", { class: "hand panel" + (d ? " mine" : ""), "aria-label": "Your cards" },
    el("h2", {}, d ? "Your cards: your move" : "Your cards"),
    el("div", { class: "cards" }, sortCards(v.cards).map((c) => cardEl(c))), controls);
}

function tick() {
  const t = document.getElementById("timer");
  if (t && S.turn && S.turn.ms != null) {
    const left = Math.max(0, S.turn.ms - (performance.now() - S.turnAt));
    t.textContent = " · " + Math.ceil(left / 1000) + " s";
  }
}

async function openTable(invite) {
  S.invite = invite;
  try {
    S.table = await api("GET", "/api/tables/" + encodeURIComponent(invite));
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, e.message), el("p", {}, el("a", { href: "/" }, "Back")));
    return;
  }
  render();
  connect();
  setInterval(tick, 250);
}

const m = location.pathname.match(/^\/t\/([^/]+)$/);
if (m) openTable(decodeURIComponent(m[1]));
else home();

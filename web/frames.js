// @ts-check
// The shapes of what the server (or the offline table's worker) sends, as
// the views read them (docs/protocol.md has every field). Types only: the
// modules name them in JSDoc (`import("./frames.js").View`), which the
// browser never loads, so this file is not served.

/**
 * A seat of a table: who plays it.
 * @typedef {object} SeatInfo
 * @property {number} seat
 * @property {string | null} name
 * @property {"open" | "human" | "bot"} kind
 * @property {boolean} connected
 * @property {boolean} [bot_playing] a bot plays for a person who left
 * @property {string | null} [bot] the level of the bot that plays it
 */

/**
 * Tripoley's rules (a record's `Rules`): the options the client reads by
 * name, and every other by its name in docs/rules.md.
 * @typedef {{ [option: string]: any } & RulesRead} Rules
 */

/**
 * @typedef {object} RulesRead
 * @property {number} [starting_chips]
 * @property {string | Record<string, unknown>} [spare]
 * @property {unknown} [poker]
 * @property {string} [misplays] "forbidden" or "penalised"
 * @property {string} [pay_cards] "stage1" or "in_play"
 * @property {boolean} [ace_always_high]
 * @property {number} [deals]
 */

/**
 * Napalm's rules in force at a Napalm table.
 * @typedef {object} NapalmRules
 * @property {number} starting_chips
 * @property {number} ante
 * @property {number} tokens_to_win
 */

/**
 * A table's settings.
 * @typedef {object} Settings
 * @property {"tripoley" | "napalm"} [game]
 * @property {Rules} rules
 * @property {NapalmRules} [napalm]
 * @property {number} [seats]
 * @property {number} [turn_seconds] 0 or absent: no turn timer
 * @property {string} [bot] the table's bot level
 */

/**
 * `TableInfo`: the table, its settings and seats.
 * @typedef {object} TableInfo
 * @property {string} [invite]
 * @property {"lobby" | "playing" | "finished"} [status]
 * @property {Settings} settings
 * @property {SeatInfo[]} seats
 */

/** A card as the engine writes it: rank then suit letter ("10H", "AS"). @typedef {string} Card */

/** @typedef {{ stack?: number, space?: string } | "pot"} Account */

/**
 * The engine's `View` of a Tripoley table for one viewer.
 * @typedef {object} View
 * @property {number} players
 * @property {number} dealer
 * @property {number} deal_number
 * @property {number} deals_total
 * @property {string} stage
 * @property {number[]} stacks
 * @property {boolean[]} out
 * @property {[string, number][]} layout chips on each space
 * @property {string | null} pay_suit
 * @property {string | null} sequence
 * @property {Card[]} hand
 * @property {number[]} hand_sizes
 * @property {Card[][]} known_cards per seat, the cards this viewer knows
 * @property {Card[][]} played
 * @property {[number, Card] | null} last_played
 * @property {number | null} to_act
 * @property {Decision | null} decision set only for the seat that must decide
 * @property {{ current: number, folded: boolean[], contributed: number[] } | null} betting
 * @property {{ high: [number, number] | null } | null} auction
 * @property {{ seat: number, chips: number, winner: boolean }[] | null} standings
 * @property {boolean[] | null} [chose_five] who set five cards apart before the betting
 * @property {Card[] | null} [my_five]
 * @property {undefined} [round] (a Napalm view's)
 */

/**
 * A Tripoley decision: a name, or one key naming it with what it offers.
 * @typedef {string | Record<string, any>} Decision
 */

/**
 * The Napalm game's `NapalmView`.
 * @typedef {object} NapalmView
 * @property {number} players
 * @property {number} dealer
 * @property {number} hand_number
 * @property {string | null} round
 * @property {number[]} stacks
 * @property {number[]} tokens
 * @property {boolean[]} out
 * @property {number} pot
 * @property {Card[]} cards
 * @property {number[]} card_counts
 * @property {Card[][]} seen
 * @property {(boolean | null)[]} declared
 * @property {number | null} to_act
 * @property {Record<string, { round: string }> | null} decision
 */

/** @typedef {View | NapalmView} AnyView */

/** Who must decide: `ms` left on their timer (null: none), whether a bot plays.
 * @typedef {{ seat: number, ms: number | null, bot?: boolean }} Turn */

/**
 * One of the engine's events, tagged by `event`; the fields the client
 * reads of each (the others are in docs/protocol.md).
 * @typedef {{ event: string, [field: string]: any }} GameEvent
 */

/**
 * A transfer of chips.
 * @typedef {object} Transfer
 * @property {"transfer"} event
 * @property {Account} from
 * @property {Account} to
 * @property {number} amount
 * @property {string} reason
 */

/**
 * A message from the server or the worker (every one carries `type`; an
 * `error` its `code`, English `message` and `detail`).
 * @typedef {{ type: string, code?: string, message?: string, detail?: Record<string, any>, [field: string]: any }} ServerMessage
 */

/** A preset of rules (`GET /api/presets`). @typedef {{ name: string, rules: Rules }} Preset */

/**
 * A replayed game (`/replay`, `/api/replays`, the worker's `replayed`).
 * @typedef {object} Replay
 * @property {string} [game]
 * @property {string[]} names
 * @property {Frame[]} frames
 */

/**
 * One step of a replay, as its seat saw it.
 * @typedef {object} Frame
 * @property {number} n
 * @property {number} [step] the record's step that made it
 * @property {GameEvent[]} events
 * @property {AnyView} view
 */

/**
 * Why the expert's choice is better (`crates/analysis/src/why.rs`): the
 * message `why` for its kind, `why-but` for the trade-off.
 * @typedef {{ kind: string, chips: number, back: number, best_percent: number, played_percent: number, but: { part: string, chips: number } | null }} Why
 */

/**
 * The expert's analysis of a game (`tripoley analyse --json`).
 * @typedef {object} Analysis
 * @property {{ step: number, deal: number, seat: number, played: unknown, best: unknown, cost: number, std_error: number, part?: "spare" | "poker" | "michigan", why?: Why | null, line?: { seat: number, action: unknown }[] }[]} decisions
 * @property {{ deals: number, stacks: number[] }[]} chips at the start, after each deal (before the next antes), and after the final pot
 * @property {(string | null)[]} names
 * @property {number | null} seat whose decisions were judged (null: everyone's)
 * @property {number[]} cost_by_seat each seat's chips lost to its judged moves
 * @property {{ spare: number, poker: number, michigan: number }[]} [cost_by_part] the same by part of the deal (not in analyses kept from before)
 */

export {};

// The offline engine's glue as web/worker.js calls it, for the worker's type
// check (web/jsconfig.worker.json). The glue itself is built from crates/web
// by scripts/build-wasm (wasm-bindgen, into target/wasm-pkg) and served as
// /pkg/ by the server; this folder holds only these types and is not served.
// Every argument and answer that is not a number or a seat is JSON text.

/** Loads the WebAssembly module (once, before anything else). */
export default function init(): Promise<unknown>;

/** A table played on one device (`tripoley-table`'s `Local`). */
export class Offline {
  constructor(create: string, names: string, bots: string, seed: string, lang?: string);
  static resume(saved: string): Offline;
  /** The next game at this table (a rematch). */
  again(seed: string): Offline;
  /** What is due next: `{"due": "bot" | "held" | "person" | "over", "seat"?}`. */
  next(): string;
  bot_acts(): boolean;
  release(): boolean;
  /** A person's action: the protocol's `error` frame, or nothing when taken. */
  act(seat: number, action: string, n?: number): string | undefined;
  welcome(seat: number): string;
  state(seat: number): string;
  update(seat: number): string;
  hint(seat: number): string;
  /** The game as a record with its `play` field. */
  saved(): string;
}

export function analyse(record: string, seat?: number): string;
export function replay(record: string, seat?: number): string;
export function presets(): string;
export function warm(): void;

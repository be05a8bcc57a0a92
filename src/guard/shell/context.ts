/** What a command handler knows about the command it classifies. */

import type { Cwd, Effect } from "./effects.js";
import type { Word } from "./parse.js";
import type { Heredoc } from "./prescan.js";

export interface CmdCx {
  /** The command as written, for messages (truncated). */
  what: string;
  /** The directories the command may run in. */
  cwds: Cwd[];
  /** Its stdin comes from a here-document, here-string, file or pipe. */
  stdinFed: boolean;
  heredocs: readonly Heredoc[];
  /** Reads a pipe (in addition to, or instead of, here-documents). */
  pipedIn: boolean;
  hasLocalBin?: (name: string) => boolean;
  /** Classifies a nested argv: wrappers (`sudo`, `env`, `timeout` …), `find -exec`, `xargs`. */
  sub(argv: readonly Word[], cwds?: Cwd[]): Effect[];
  /** Classifies a nested script (`sh -c '…'`). */
  script(text: string): Effect[];
}

export type Handler = (args: readonly Word[], cx: CmdCx, name: string) => Effect[];

/**
 * Command name → handler. A `Map` built from arrays of pairs: an object literal with spreads of a few hundred
 * names is several times slower to build, and every shell call's hook builds the tables it asks at start-up
 * (figures: `docs/hooks.md`, Speed).
 */
export type HandlerTable = ReadonlyMap<string, Handler>;

/**
 * A handler table built on first use. The classifier asks the tables in turn and most commands are found in the
 * first one, so a shell call's hook never pays for building the others.
 */
export class LazyTable implements HandlerTable {
  #build: (() => Map<string, Handler>) | undefined;
  #map: Map<string, Handler> | undefined;

  constructor(build: () => Map<string, Handler>) {
    this.#build = build;
  }

  #table(): Map<string, Handler> {
    if (this.#map === undefined) {
      this.#map = (this.#build as () => Map<string, Handler>)();
      this.#build = undefined;
    }
    return this.#map;
  }

  get size(): number {
    return this.#table().size;
  }
  get(name: string): Handler | undefined {
    return this.#table().get(name);
  }
  has(name: string): boolean {
    return this.#table().has(name);
  }
  keys(): MapIterator<string> {
    return this.#table().keys();
  }
  values(): MapIterator<Handler> {
    return this.#table().values();
  }
  entries(): MapIterator<[string, Handler]> {
    return this.#table().entries();
  }
  forEach(fn: (handler: Handler, name: string, table: HandlerTable) => void): void {
    for (const [name, handler] of this.#table()) fn(handler, name, this);
  }
  [Symbol.iterator](): MapIterator<[string, Handler]> {
    return this.#table()[Symbol.iterator]();
  }
}

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
 * names costs about 0.6 ms to build at start-up, every shell call's hook pays it once, and a Map about 0.1.
 */
export type HandlerTable = ReadonlyMap<string, Handler>;

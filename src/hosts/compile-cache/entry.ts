/**
 * What the launcher's bootstrap runs of the compile cache (`./bootstrap.ts`), built into
 * `./bootstrap.generated.ts` by `scripts/build-compile-cache.ts`: the bootstrap's own `fs` and `path` (`f`,
 * `p`) go in, `Q` (compile) and `QS` (flush) come out as bindings of the bootstrap's scope, which the build
 * declares in front of this module's code. `Q` is also published for the bundle's lazily loaded parts.
 */

import type * as Fs from "node:fs";
import type * as Path from "node:path";
import { type CompileCache, createCompileCache } from "./bootstrap.js";

declare const f: typeof Fs;
declare const p: typeof Path;
declare const require: NodeJS.Require;
// biome-ignore lint/style/useConst: the build declares `let Q,QS` in the bootstrap; this code assigns them
declare let Q: CompileCache["compile"];
// biome-ignore lint/style/useConst: as above
declare let QS: CompileCache["flush"];

({ compile: Q, flush: QS } = createCompileCache(f, p, require("node:vm")));
(globalThis as Record<symbol, unknown>)[Symbol.for("devrites.compile")] = Q;

/**
 * Entry point of `hooks/pre-tool-use.cjs`: the guard on every tool call. Fails closed for leaves. Keep this
 * bundle small: it runs before every tool call (no zod, no validator, no SubagentStop logic).
 */

import { decide } from "../src/guard/index.js";
import { preToolUseHook } from "../src/hooks/pre-tool-use.js";
import { hookEntry } from "../src/hooks/runtime.js";

hookEntry(preToolUseHook({ decide, now: () => new Date() }), module, require.main === module);

/**
 * Entry point of `hooks/subagent-stop.cjs`: when a devrites leaf stops, store and check its result with the
 * functions behind `devrites result record` and `devrites result check`; block a rejection once.
 */

import { hookEntry } from "../src/hooks/runtime.js";
import { cliFunctions, subagentStopHook } from "../src/hooks/subagent-stop.js";

hookEntry(subagentStopHook(cliFunctions), module, require.main === module);

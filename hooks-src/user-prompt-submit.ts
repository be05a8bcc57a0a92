/** Entry point of `hooks/user-prompt-submit.mjs`: one line of journey context per prompt; never blocks. */

import { runtimeMain } from "../src/hooks/runtime.js";
import { userPromptSubmitHook, workspaceContextLine } from "../src/hooks/user-prompt-submit.js";

runtimeMain(userPromptSubmitHook({ contextLine: workspaceContextLine, now: () => new Date() }));

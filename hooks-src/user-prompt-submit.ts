/** Entry point of `hooks/user-prompt-submit.cjs`: one line of journey context per prompt; never blocks. */

import { hookEntry } from "../src/hooks/runtime.js";
import { userPromptSubmitHook, workspaceContextLine } from "../src/hooks/user-prompt-submit.js";

hookEntry(
  userPromptSubmitHook({ contextLine: workspaceContextLine, now: () => new Date() }),
  module,
  require.main === module,
);

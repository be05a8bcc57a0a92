/** Leaf shell calls in an OS sandbox: mechanism choice, the planner, quoting, the scrubbed environment. */

export { isScrubbedEnv, SCRUBBED_ENV_NAMES, SCRUBBED_ENV_PREFIXES } from "./env.js";
export {
  chooseMechanism,
  type DetectFs,
  detectMechanisms,
  type MechanismChoice,
  type MechanismFacts,
} from "./mechanism.js";
export {
  EXECUTED_LATER,
  executedLater,
  type Probe,
  planSandbox,
  type SandboxMode,
  type SandboxPlan,
  type SandboxRequest,
  type SandboxTools,
} from "./plan.js";
export { shellJoin, shellQuote } from "./quote.js";

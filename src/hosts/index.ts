/**
 * Host adapters: render the pack model for Claude Code and Codex, check drift, write.
 *
 *     const { plan, diagnostics } = planOutputs(model, { hosts, layouts, meta, bundles });
 *     const drift = await checkPlan(target, plan);   // or: await applyPlan(target, plan)
 */

export { type ApplyReport, applyPlan } from "./apply.js";
export { checkPlan, type Drift, type DriftReport, driftOf } from "./check.js";
export { unifiedDiff } from "./diff.js";
export { GENERATE_COMMAND, GENERATED_NOTE } from "./headers.js";
export { hookCommand, type LauncherOptions, launcherScript } from "./launcher.js";
export { MANIFEST_NAME, parseManifest } from "./manifest.js";
export {
  BLOCK_BEGIN,
  BLOCK_END,
  DEVRITES_HOOK_MARKER,
  isDevritesHandler,
  type MergeResult,
  markedBlock,
  mergeSettingsJson,
  removeMarkedBlock,
  upsertMarkedBlock,
} from "./merge.js";
export { packageMeta } from "./meta.js";
export { checkOutputOnDisk, checkOutputPath, HOOKS_DIR, outputPath } from "./output-path.js";
export { planOutputs } from "./plan.js";
export { type Action, readTarget, reconcile, type TargetState } from "./reconcile.js";
export * from "./types.js";

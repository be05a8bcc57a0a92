/**
 * The pack model: load `pack/.claude`, lint it, draw its delegation graph.
 *
 *     const { model, diagnostics } = await loadPack("pack/.claude");
 *     const all = [...diagnostics, ...lintPack(model, commandNames())];
 *     console.log(renderGraph(model.graph, "mermaid"));
 */

export {
  ALWAYS_ON_CHAR_BUDGET,
  ALWAYS_ON_CHARS_PER_TOKEN,
  type BudgetReport,
  CHARS_PER_TOKEN,
  type ComponentCost,
  DESCRIPTION_MAX_CHARS,
  estimateTokens,
  INVOKE_CHAR_BUDGET,
  measurePack,
} from "./budget.js";
export { buildPack, type LoadResult, splitTools, WIRING_PATH } from "./build.js";
export { type CommandMention, findCommandMentions, matchCommand } from "./commands.js";
export { buildGraph, findCycles, lintGraph } from "./graph.js";
export { expandIncludes, INCLUDE_LINE } from "./includes.js";
export { HOOK_ENTRY_FOR, lintPack } from "./lint.js";
export { AGENT_SECTIONS, DISPATCH_SECTION, SKILL_SECTIONS } from "./lint-components.js";
export { READ_TOOLS, SPAWN_TOOLS, WRITE_TOOLS } from "./lint-roles.js";
export { loadPack, type ReadFilesResult, readPackFiles } from "./load.js";
export {
  GRAPH_FORMATS,
  type GraphFormat,
  renderDot,
  renderGraph,
  renderJson,
  renderMermaid,
} from "./render-graph.js";
export type * from "./types.js";

/**
 * The pack model: `pack/.claude/**` loaded into one typed value that host adapters render and the linter
 * checks. All paths in the model are pack-relative with forward slashes (e.g. `skills/rite-build/SKILL.md`),
 * so the model does not depend on where the pack lives on disk.
 */

import type { PayloadType, RoleMode, RoleName } from "../envelope/roles.js";
import type { Phase } from "../envelope/types.js";

/** Where a document came from, kept so lint rules can point at a file and line. */
export interface SourceInfo {
  /** Pack-relative path of the file, e.g. `agents/devrites-slice-wright.md`. */
  path: string;
  /** The raw frontmatter text between the `---` lines. */
  frontmatterText: string;
  /**
   * 1-based file line of each frontmatter key, by dotted path (`name`, `devrites.dispatches`,
   * `devrites.dispatches.0`). Used to put a line on a diagnostic.
   */
  keyLines: Record<string, number>;
  /** 1-based file line where the body starts. */
  bodyLine: number;
  /** The body as written, before fragments are expanded. */
  rawBody: string;
}

/** The `devrites:` block of a rite's frontmatter. Adapters strip it; the router and the graph read it. */
export interface RiteMeta {
  /** The lifecycle phase the rite runs in; absent for rites that dispatch nothing (`rite`, `rite-status`, …). */
  phase?: Phase;
  /** The roles this rite may dispatch. Depth one: these must be leaf roles. */
  dispatches: string[];
  /** Words and phrases the router matches against the user's request. */
  route: { hints: string[] };
}

/** The `devrites:` block of a leaf role's frontmatter. Must agree with `src/envelope/roles.ts`. */
export interface RoleMeta {
  mode: RoleMode;
  payload: PayloadType;
  /**
   * Accepted only so the linter can reject it with a precise code (`pack.role-dispatches`): a leaf may not
   * dispatch. Always empty in a clean pack.
   */
  dispatches: string[];
}

/** A file shipped next to a skill and read by the model only when the skill tells it to. */
export interface ReferenceFile {
  /** Path relative to the skill folder, e.g. `reference/dispatch.md`. */
  relPath: string;
  /** Pack-relative path, e.g. `skills/rite/reference/dispatch.md`. */
  path: string;
  /** Contents with fragments expanded. */
  content: string;
  /** Contents as written. */
  rawContent: string;
}

/** A root orchestrator: `skills/<name>/SKILL.md`. */
export interface SkillModel {
  kind: "skill";
  name: string;
  /** Pack-relative folder, e.g. `skills/rite-build`. */
  dir: string;
  description: string;
  /** Host-facing frontmatter (`name`, `description`, `argument-hint`, …) without the `devrites` block. */
  frontmatter: Record<string, unknown>;
  devrites: RiteMeta;
  /** The body with `<!-- devrites:include … -->` lines replaced by the fragment text. */
  body: string;
  /** `reference/**` markdown files, sorted by `relPath`. */
  references: ReferenceFile[];
  /** Any other file in the skill folder (pack-relative paths), carried for adapters that want to copy it. */
  assets: string[];
  source: SourceInfo;
}

/** A leaf role: `agents/<name>.md`. */
export interface AgentModel {
  kind: "agent";
  name: string;
  description: string;
  /** The tools allowlist, split and trimmed, in the order written. */
  tools: string[];
  /** The host model id or alias, when set. */
  model?: string;
  mode: RoleMode;
  payload: PayloadType;
  /** Host-facing frontmatter (`name`, `description`, `tools`, `model`, …) without the `devrites` block. */
  frontmatter: Record<string, unknown>;
  devrites: RoleMeta;
  /** The body with fragments expanded. */
  body: string;
  source: SourceInfo;
}

/** A shared text included into roles and rites with `<!-- devrites:include fragments/<name>.md -->`. */
export interface FragmentModel {
  /** File name without `.md`, e.g. `never-list`. */
  name: string;
  /** Pack-relative path, e.g. `fragments/never-list.md`. */
  path: string;
  content: string;
  /** Pack-relative paths of the files that include it, sorted. */
  includedBy: string[];
}

export type HookEvent = "PreToolUse" | "SubagentStop" | "UserPromptSubmit";
export type HookEntry = "pre-tool-use" | "subagent-stop" | "user-prompt-submit";

/** One hook, declared once in `hooks/wiring.yaml` and rendered per host by the adapters. */
export interface HookWiring {
  event: HookEvent;
  /** The bundled entry point `hooks/<entry>.cjs`. */
  entry: HookEntry;
  /** Tool-name matcher; the guard uses `*` so unknown write tools are seen too. */
  matcher: string;
  /** Seconds the host waits for the hook. */
  timeout: number;
  /** 1-based line of the entry in the wiring file. */
  line?: number;
}

export interface GraphNode {
  /** The component name. */
  id: string;
  kind: "rite" | "role";
  /** Roles only. */
  mode?: RoleMode;
  /** Rites only, when declared. */
  phase?: Phase;
  /** Pack-relative file. */
  path: string;
}

export interface GraphEdge {
  from: string;
  to: string;
  /** 1-based frontmatter line of the declaration, when known. */
  line?: number;
}

/**
 * Who may dispatch whom, from the `devrites.dispatches` declarations. Edges to names that are not in the pack
 * are kept (the linter reports them as dangling); renderers draw only edges between known nodes.
 */
export interface DelegationGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface PackModel {
  skills: SkillModel[];
  agents: AgentModel[];
  fragments: FragmentModel[];
  hooks: HookWiring[];
  /** Pack-relative path of the wiring file, or undefined when it is missing or unreadable. */
  hooksPath?: string;
  graph: DelegationGraph;
}

/** The raw files of a pack: pack-relative path → text. Read at the edge, built into a model by a pure step. */
export type PackFiles = ReadonlyMap<string, string>;

/** Convenience re-export for consumers of the model. */
export type { PayloadType, Phase, RoleMode, RoleName };

/**
 * Shared types of the host adapters: what a plan is made of and what it needs as input. A plan is pure data;
 * `apply` is the only code that writes it and `check` the only code that compares it with a target.
 */

/** The hosts devrites renders the pack for. */
export const HOSTS = ["claude", "codex"] as const;
export type Host = (typeof HOSTS)[number];

/**
 * `project`: files a repository checks in and the host picks up from the working tree (`.claude/`, `.codex/`,
 * `.agents/skills/`, `AGENTS.md`, `.devrites/hooks/`). `plugin`: an installable plugin and its marketplace entry.
 */
export const LAYOUTS = ["project", "plugin"] as const;
export type Layout = (typeof LAYOUTS)[number];

/**
 * How a planned file relates to what is on disk:
 * - `owned`: devrites writes the whole file; it is listed with its hash in its root's manifest;
 * - `merged-json`: `content` is devrites' part of a JSON hooks file the user may also edit
 *   (`mergeSettingsJson`); user keys and user hooks are kept;
 * - `marked-block`: `content` is a block between devrites markers inside a file the user owns
 *   (`upsertMarkedBlock`).
 */
export type PlannedFileKind = "owned" | "merged-json" | "marked-block";

export interface PlannedFile {
  /** Target-relative POSIX path, already checked by `checkOutputPath`. */
  path: string;
  /** `owned`: the whole file. `merged-json`: devrites' JSON fragment. `marked-block`: the block. */
  content: string;
  /** File mode for new files (`0o644`). */
  mode: number;
  kind: PlannedFileKind;
  /** The owned-file root whose manifest lists this file (owned files only). */
  root?: string;
}

/** What the plugin manifests and marketplaces say about the package. */
export interface PackageMeta {
  name: string;
  version: string;
  description: string;
  license: string;
  author: { name: string; email?: string; url?: string };
  homepage?: string;
  repository?: string;
}

/**
 * Everything a plan needs besides the pack model, all read at the edge: the package metadata, the bundled hook
 * entry points (`entry` → JavaScript text, treated as opaque) and the bytes of skill assets (pack-relative
 * path → text).
 */
export interface PlanInput {
  hosts: readonly Host[];
  layouts: readonly Layout[];
  meta: PackageMeta;
  bundles: ReadonlyMap<string, string>;
  assets?: ReadonlyMap<string, string>;
  /**
   * The one-file CLI (`bin/devrites.cjs`, built by `scripts/build-cli.ts`), as JavaScript text: the Claude Code
   * plugin carries it as `bin/devrites`. Absent: the plugin layout reports `generate.cli-bundle-missing`.
   */
  cli?: string;
  /**
   * The command the generated headers name (default `devrites generate`, in the devrites repository): a
   * repository that got its files from `devrites init` regenerates them with `devrites update`.
   */
  regenerate?: string;
}

/** A plan: the files to write, the roots whose manifests it owns, and what went wrong while planning. */
export interface Plan {
  files: PlannedFile[];
  /** Target-relative owned-file roots this plan covers (their manifests list every owned file). */
  roots: string[];
}

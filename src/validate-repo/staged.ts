/**
 * `validate --staged`: which check each staged path concerns (pure). Pack sources → the pack lint (and, since
 * every generated file is rendered from the pack, the drift check in full; so are customised pack files under
 * `.devrites/pack/`); files devrites may have generated
 * → the drift check; `.devrites/runs/<run-id>/…` → that run's checks; other `.devrites/` files → the
 * workspace-wide checks; everything else → the active-run check (no staged file may be one a leaf is still
 * writing whose result nobody accepted yet).
 */

export const PACK_DIR = "pack/.claude";
export const WORKSPACE = ".devrites";
/** Where generated files can be (the drift check decides whether a path is really one). */
export const GENERATED_PREFIXES = [
  ".claude/",
  ".agents/",
  ".codex/",
  ".devrites/hooks/",
  "plugins/",
  ".claude-plugin/",
];
export const GENERATED_FILES = ["AGENTS.md"];
/**
 * In the devrites repository itself, what the generated files are also rendered from (the renderers, the hook
 * sources and bundles, the package metadata) and what the pack lint reads (the CLI's command names).
 */
export const SELF_SOURCES = ["src/", "hooks-src/", "hooks/", "package.json"];
/** In any repository: its customised pack files (`.devrites/pack/`, src/install/overlay.ts) are sources too. */
export const OVERLAY_PREFIX = ".devrites/pack/";

export interface StagedClasses {
  pack: string[];
  /** Sources of generated files: the customised pack files, and the devrites repository's own (only when `self`). */
  sources: string[];
  /** Candidates for the drift check; what it does not cover falls back to `other`. */
  generated: string[];
  /** Run id → its staged paths. */
  runs: Map<string, string[]>;
  /** Other staged `.devrites/` paths (state, ledgers, install manifest, records). */
  workspace: string[];
  other: string[];
}

const RUN_PATH = /^\.devrites\/runs\/([^/]+)\/./;

/** `self`: the repository is devrites itself (its generated files are rendered from its own sources too). */
export function classifyStaged(paths: readonly string[], self = false): StagedClasses {
  const out: StagedClasses = {
    pack: [],
    sources: [],
    generated: [],
    runs: new Map(),
    workspace: [],
    other: [],
  };
  for (const p of paths) {
    if (p.startsWith(`${PACK_DIR}/`)) out.pack.push(p);
    else if (p.startsWith(OVERLAY_PREFIX)) out.sources.push(p);
    else if (self && SELF_SOURCES.some((s) => (s.endsWith("/") ? p.startsWith(s) : p === s)))
      out.sources.push(p);
    else if (GENERATED_FILES.includes(p) || GENERATED_PREFIXES.some((g) => p.startsWith(g)))
      out.generated.push(p);
    else if (p.startsWith(`${WORKSPACE}/`)) {
      const run = RUN_PATH.exec(p)?.[1];
      if (run !== undefined) out.runs.set(run, [...(out.runs.get(run) ?? []), p]);
      else out.workspace.push(p);
    } else out.other.push(p);
  }
  return out;
}

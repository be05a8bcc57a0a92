/**
 * `devrites init --git-hook`: a pre-commit hook that runs `devrites validate --staged`. A hook the user already
 * has is never replaced: it is moved aside to `pre-commit.pre-devrites` and ours runs it first (its failure
 * fails the commit); uninstall moves it back, so its bytes, mode and link-ness are exactly as they were.
 * The hook goes where git looks for it (`git rev-parse --git-path hooks/pre-commit`, which honours
 * `core.hooksPath`), and only when that is inside the repository: a shared hooks folder is left alone.
 */

import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { git } from "../baseline/_git.js";
import { type Diagnostic, error } from "../core/diagnostics.js";

/** Every hook devrites writes carries this marker (and nothing of the user's does). */
export const GIT_HOOK_MARKER = "devrites-git-hook";
export const HOOK_NAME = "pre-commit";
/** The user's previous hook, moved aside: `<hooks>/pre-commit.pre-devrites`. */
export const CHAINED_SUFFIX = ".pre-devrites";

/** Single-quote `s` for a POSIX shell. */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * The hook script. devrites is looked up as `$DEVRITES_BIN`, then the repository's `node_modules/.bin`, then
 * `PATH`, then (when given) the devrites that installed the hook. Not found is a failed commit with a message:
 * a hook that silently passes would be a vacuous pass.
 */
export function preCommitScript(fallback?: { node: string; bin: string }): string {
  const run = "validate --staged";
  return [
    "#!/bin/sh",
    `# ${GIT_HOOK_MARKER}: installed by \`devrites init --git-hook\`; \`devrites uninstall\` puts back the hook`,
    "# that was here before (it is kept beside this one as pre-commit.pre-devrites and runs first).",
    'hook_dir=$(dirname -- "$0")',
    `if [ -x "$hook_dir/${HOOK_NAME}${CHAINED_SUFFIX}" ]; then`,
    `  "$hook_dir/${HOOK_NAME}${CHAINED_SUFFIX}" "$@" || exit $?`,
    "fi",
    `if [ -n "\${DEVRITES_BIN:-}" ]; then exec "$DEVRITES_BIN" ${run}; fi`,
    `if [ -x ./node_modules/.bin/devrites ]; then exec ./node_modules/.bin/devrites ${run}; fi`,
    `if command -v devrites >/dev/null 2>&1; then exec devrites ${run}; fi`,
    ...(fallback
      ? [
          `if [ -f ${shellQuote(fallback.bin)} ]; then exec ${shellQuote(fallback.node)} ${shellQuote(fallback.bin)} ${run}; fi`,
        ]
      : []),
    'echo "devrites pre-commit: devrites was not found (DEVRITES_BIN, ./node_modules/.bin, PATH)." >&2',
    'echo "  install it (npm install --save-dev devrites), or remove this hook: devrites uninstall" >&2',
    "exit 1",
    "",
  ].join("\n");
}

export function isDevritesHook(text: string): boolean {
  return text.includes(GIT_HOOK_MARKER);
}

function inside(parent: string, child: string): boolean {
  const r = relative(parent, child);
  return r === "" || (!r.startsWith(`..${sep}`) && r !== ".." && !isAbsolute(r));
}

/** Realpath of `p`, or of its deepest existing ancestor with the rest appended. */
function realish(p: string): string {
  const rest: string[] = [];
  let cur = p;
  for (;;) {
    try {
      return resolve(realpathSync(cur), ...rest.reverse());
    } catch {
      const up = dirname(cur);
      if (up === cur) return p;
      rest.push(cur.slice(up.length + 1));
      cur = up;
    }
  }
}

export type HookLocation =
  | { ok: true; rel: string; chainedRel: string }
  | { ok: false; diagnostic: Diagnostic };

/** Where git runs the pre-commit hook of the repository at `root` (a resolved top level), target-relative. */
export async function locatePreCommit(root: string): Promise<HookLocation> {
  const r = await git(root, ["rev-parse", "--git-path", `hooks/${HOOK_NAME}`]);
  const out = r.stdout.toString("utf8").replace(/\n$/, "");
  if (r.exitCode !== 0 || out === "")
    return {
      ok: false,
      diagnostic: error(
        "install.hooks-path-unknown",
        `git cannot say where its hooks go: ${r.stderr.trim()}`,
        {
          hint: "check the repository with git status",
        },
      ),
    };
  const abs = resolve(root, out);
  const realRoot = realpathSync(root);
  const real = realish(abs);
  if (!inside(realRoot, real) || real === realRoot) {
    return {
      ok: false,
      diagnostic: error(
        "install.hooks-path-outside",
        `git runs hooks from ${dirname(abs)}, which is outside this repository (core.hooksPath, or a worktree)`,
        {
          hint:
            "devrites does not write into a shared hooks folder; run `devrites validate --staged` from your hook " +
            "manager instead (pre-commit, husky and lefthook snippets are in the README)",
        },
      ),
    };
  }
  const rel = relative(realRoot, real).split(sep).join("/");
  return { ok: true, rel, chainedRel: `${rel}${CHAINED_SUFFIX}` };
}

/**
 * Role × effect → decision. The first effect (in command order) that the role may not have decides the denial.
 *
 * | effect          | read-only roles                  | devrites-proof-runner     | devrites-slice-wright                 |
 * | --------------- | -------------------------------- | ------------------------- | ------------------------------------- |
 * | read            | allow                            | allow                     | allow                                 |
 * | env (NAME=…)    | safe names only                  | safe names only           | all but code-loading names            |
 * | exec (program)  | guard.shell-unclassified         | guard.shell-unclassified  | allow (the tree check is behind it)   |
 * | test (proof)    | guard.shell-unclassified         | allow                     | allow                                 |
 * | write target    | guard.readonly-write             | guard.readonly-write      | allowlist check (scope)               |
 * | write unknown   | guard.readonly-write             | guard.readonly-write      | guard.write-target-unknown            |
 * | deny(rule)      | rule                             | rule                      | rule                                  |
 *
 * A write into `.devrites/` is `guard.devrites-write` for every role. A foreign agent during a run is judged
 * as the read-only class (`foreign`: no proof commands).
 *
 * When the call runs sandboxed (`ctx.sandboxed`), the kernel is the boundary: the effects then come from the
 * front table (./shell/front-table.ts), not the classifier, and this table only answers fast what is plainly
 * not allowed: `exec`, `test` and `env` are allowed for every
 * role, and so is a `deny(guard.shell-unclassified)` (inline code, constructs the classifier cannot read), a
 * write to an undeterminable target and a write under `/tmp` (the sandbox's private scratch folder); the
 * rest stays as above (a read-only role's writes, the wright's determinable writes off its allowlist,
 * spawning, installs, git mutation, publishing, the devrites CLI).
 */

import type { RoleName } from "../envelope/roles.js";
import type { Effect } from "./shell/effects.js";
import { showWord } from "./shell/parse.js";
import { literal } from "./shell/words.js";
import { checkWrightTarget, isDevice, isDevritesTarget } from "./targets.js";
import type { GuardContext, GuardRule } from "./types.js";

export interface Refusal {
  rule: GuardRule;
  /** The offending command or path. */
  input: string;
  why: string;
  hint: string;
}

/** Environment names a read-only role may set: they change output, never which program runs or what it loads. */
const SAFE_ENV = new Set([
  "CI",
  "NODE_ENV",
  "FORCE_COLOR",
  "NO_COLOR",
  "TERM",
  "COLUMNS",
  "LINES",
  "LANG",
  "LANGUAGE",
  "TZ",
  "DEBUG",
  "PYTHONDONTWRITEBYTECODE",
  "PYTHONUNBUFFERED",
  "PYTHONHASHSEED",
  "RUST_BACKTRACE",
  "RUST_LOG",
  "GIT_PAGER",
  "PAGER",
]);

/** zsh ties these lower-case names to PATH-like variables. */
const ZSH_TIED = new Set(["path", "cdpath", "fpath", "manpath", "module_path", "mailpath"]);

/** Names no leaf may set: they choose programs, load code or change how the shell parses. */
const CODE_ENV = new Set([
  "BASH_ENV",
  "ENV",
  "PROMPT_COMMAND",
  "PS0",
  "PS1",
  "PS2",
  "PS3",
  "PS4",
  "SHELLOPTS",
  "BASHOPTS",
  "IFS",
  "PATH",
  "CDPATH",
  "GLOBIGNORE",
  "HOME",
  "PAGER",
  "MANPAGER",
  "EDITOR",
  "VISUAL",
  "LESSOPEN",
  "LESSCLOSE",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "PERL5OPT",
  "PERL5LIB",
  "PERLLIB",
  "RUBYOPT",
  "RUBYLIB",
  "PYTHONSTARTUP",
  "PYTHONPATH",
  "NODE_OPTIONS",
  "NODE_PATH",
]);

/**
 * Who the shell effects are judged for: a devrites role, or `foreign` (a subagent that is not a devrites role,
 * during an active run): the read-only class, without the proof runner's proof commands.
 */
export type PolicyRole = RoleName | "foreign";

function label(role: PolicyRole): string {
  return role === "foreign" ? "an agent that is not a devrites role" : role;
}

function envRefusal(e: Extract<Effect, { kind: "env" }>, role: PolicyRole): Refusal | null {
  const name = e.name;
  const lowerSafe = /^[a-z_][a-z0-9_]*$/.test(name) && !ZSH_TIED.has(name);
  if (role === "devrites-slice-wright") {
    const dangerous = CODE_ENV.has(name) || ZSH_TIED.has(name) || /^(LD|DYLD|GIT)_/.test(name);
    if (!dangerous || ((name === "GIT_PAGER" || name === "PAGER") && literal(e.value) === "cat")) return null;
    return {
      rule: "guard.shell-unclassified",
      input: e.what,
      why: `setting \`${name}\` changes which program runs or what code it loads`,
      hint: "drop the assignment",
    };
  }
  if (lowerSafe || /^LC_[A-Z]+$/.test(name)) return null;
  if (SAFE_ENV.has(name) && (name !== "PAGER" && name !== "GIT_PAGER" ? true : literal(e.value) === "cat"))
    return null;
  return {
    rule: "guard.shell-unclassified",
    input: e.what,
    why: `${role === "foreign" ? "during a run, an agent that is not a devrites role" : "a read-only role"} may not set \`${name}\` (it can change which program runs)`,
    hint: `use a lower-case shell variable, or one of ${[...SAFE_ENV].join(", ")}, LC_*`,
  };
}

function isScratch(target: string, root: string): boolean {
  if (!target.startsWith("/tmp/") || target.split("/").includes("..")) return false;
  return !(target === root || target.startsWith(`${root}/`) || root.startsWith(`${target}/`));
}

const READONLY_HINT = "read-only roles never change files; describe the change in your result instead";

/** Judges shell effects for `role`; null = allowed. */
export function judgeEffects(
  effects: readonly Effect[],
  role: PolicyRole,
  allowlist: readonly string[],
  ctx: GuardContext,
): Refusal | null {
  const wright = role === "devrites-slice-wright";
  const sandboxed = ctx.sandboxed === true;
  const checked = new Set<string>();
  for (const e of effects) {
    if (sandboxed && (e.kind === "exec" || e.kind === "test" || e.kind === "env")) continue;
    if (sandboxed && e.kind === "write-unknown") continue;
    if (sandboxed && e.kind === "deny" && e.rule === "guard.shell-unclassified") continue;
    switch (e.kind) {
      case "env": {
        const r = envRefusal(e, role);
        if (r) return r;
        break;
      }
      case "exec":
        if (!wright) {
          return {
            rule: "guard.shell-unclassified",
            input: e.what,
            why: `${e.why}; ${label(role)} is read-only and may only run the read-only allowlist${role === "devrites-proof-runner" ? " and proof commands" : ""}`,
            hint: "use cat, ls, grep, rg, find, head, tail, wc, git status/diff/log/show, or the Read/Grep tools",
          };
        }
        break;
      case "test":
        if (!wright && role !== "devrites-proof-runner") {
          return {
            rule: "guard.shell-unclassified",
            input: e.what,
            why:
              role === "foreign"
                ? "during a run, an agent that is not a devrites role may not run tests, linters or type checks (they write caches and reports)"
                : `running tests, linters or type checks is the proof runner's job, not ${role}'s`,
            hint: "read the code and tests instead, or report that a proof run is needed",
          };
        }
        break;
      case "write": {
        const target = e.target;
        const text = literal(target);
        if (text === undefined) {
          if (sandboxed) break;
          if (wright) {
            return {
              rule: "guard.write-target-unknown",
              input: e.what,
              why: `the write target \`${showWord(target)}\` contains a variable or glob`,
              hint: "write the file name literally",
            };
          }
          return {
            rule: "guard.readonly-write",
            input: e.what,
            why: `\`${e.what}\` writes a file`,
            hint: READONLY_HINT,
          };
        }
        if (e.sink === true && isDevice(text)) break;
        // Sandboxed, /tmp is the call's own private scratch folder (unless the repository lies there).
        if (sandboxed && isScratch(text, ctx.root)) break;
        // Unknown directories first: "cannot tell" is the more useful answer than "not this one".
        for (const cwd of [...e.cwds].sort((a, b) => (a === null ? -1 : b === null ? 1 : 0))) {
          // The same target from the same directory needs one check (`rm a a a …` must not cost one each).
          const key = `${e.dir === true}\u0000${cwd}\u0000${text}`;
          if (checked.has(key)) continue;
          checked.add(key);
          if (!wright) {
            if (isDevritesTarget(ctx, text, cwd)) {
              return {
                rule: "guard.devrites-write",
                input: text,
                why: `\`${e.what}\` writes \`${text}\` inside the devrites workspace`,
                hint: "only the devrites CLI writes .devrites/; return your result as your final message",
              };
            }
            return {
              rule: "guard.readonly-write",
              input: text,
              why: `\`${e.what}\` writes \`${text}\``,
              hint: READONLY_HINT,
            };
          }
          const v = checkWrightTarget(ctx, allowlist, text, cwd, e.dir === true, e.sink === true);
          if (!v.ok) {
            const afterCd =
              e.cwds.length > 1 && !text.startsWith("/")
                ? "after `cd` the shell may be in either directory, so a relative path must be allowed from each; "
                : "";
            return { rule: v.rule, input: text, why: `\`${e.what}\`: ${v.why}`, hint: `${afterCd}${v.hint}` };
          }
        }
        break;
      }
      case "write-unknown":
        if (wright) {
          return {
            rule: "guard.write-target-unknown",
            input: e.what,
            why: `${e.why}, so the guard cannot check it against your allowlist`,
            hint: "write each allowlisted file with the Edit/Write tools or a plain redirect to its literal path",
          };
        }
        return { rule: "guard.readonly-write", input: e.what, why: e.why, hint: READONLY_HINT };
      case "deny":
        return { rule: e.rule, input: e.what, why: e.why, hint: e.hint };
    }
  }
  return null;
}

/**
 * git: leaves may inspect history and the work tree, never change refs, the index, the object store, the
 * configuration or a remote. Unknown subcommands are refused because a git alias can run anything.
 *
 * | class                | subcommands                                                                    | effect                      |
 * | -------------------- | ------------------------------------------------------------------------------ | --------------------------- |
 * | read                 | status diff log show blame grep ls-files rev-parse … (see READ)                | none (`--output` writes)     |
 * | read in list form    | branch, tag, stash, worktree, remote, config, notes, reflog, submodule, …       | none; any other form mutates |
 * | mutation             | commit push tag reset checkout switch restore rebase merge cherry-pick revert  | guard.git-mutation          |
 * |                      | am stash clean add rm mv fetch pull clone init gc prune update-ref bisect …     |                             |
 * | writes work-tree     | apply (unless --check/--stat), format-patch, archive -o, merge-file            | write / write-unknown       |
 */

import type { CmdCx, Handler } from "../context.js";
import { deny, type Effect, unclassified, writes, writeUnknown } from "../effects.js";
import { GIT_BRANCH_MUTATING } from "../known-words.js";
import { showWord, type Word } from "../parse.js";
import { literal, mayBecomeOption, mayBeOption } from "../words.js";

const NONE: Effect[] = [];

const READ = new Set([
  "status",
  "diff",
  "log",
  "show",
  "whatchanged",
  "diff-tree",
  "diff-files",
  "diff-index",
  "range-diff",
  "ls-files",
  "ls-tree",
  "ls-remote",
  "rev-parse",
  "rev-list",
  "blame",
  "annotate",
  "cat-file",
  "describe",
  "shortlog",
  "merge-base",
  "name-rev",
  "for-each-ref",
  "show-ref",
  "show-branch",
  "count-objects",
  "check-ignore",
  "check-attr",
  "check-mailmap",
  "check-ref-format",
  "var",
  "version",
  "help",
  "cherry",
  "verify-commit",
  "verify-tag",
  "get-tar-commit-id",
  "request-pull",
  "column",
  "stripspace",
  "patch-id",
  "grep",
  "fsck",
  "hash-object",
  "interpret-trailers",
]);

const MUTATION = new Set([
  "commit",
  "push",
  "reset",
  "checkout",
  "switch",
  "restore",
  "rebase",
  "merge",
  "cherry-pick",
  "revert",
  "am",
  "clean",
  "add",
  "stage",
  "rm",
  "mv",
  "fetch",
  "pull",
  "clone",
  "init",
  "gc",
  "prune",
  "repack",
  "update-ref",
  "update-index",
  "update-server-info",
  "replace",
  "filter-branch",
  "filter-repo",
  "commit-tree",
  "commit-graph",
  "multi-pack-index",
  "mktree",
  "mktag",
  "write-tree",
  "read-tree",
  "checkout-index",
  "merge-tree",
  "merge-file",
  "merge-index",
  "mergetool",
  "difftool",
  "bisect",
  "maintenance",
  "pack-refs",
  "prune-packed",
  "fast-import",
  "unpack-objects",
  "index-pack",
  "send-email",
  "send-pack",
  "svn",
  "p4",
  "cvsimport",
  "quiltimport",
  "rerere",
  "gui",
  "citool",
]);

/** Subcommands that are read-only in these forms and mutating otherwise. */
const LIST_FORMS: Record<string, readonly string[]> = {
  stash: ["list", "show"],
  worktree: ["list"],
  notes: ["list", "show", "get-ref"],
  reflog: ["show", "exists"],
  submodule: ["status", "summary"],
  "sparse-checkout": ["list"],
  bundle: ["verify", "list-heads"],
  lfs: ["ls-files", "status", "env", "version", "logs", "track"],
};

const SAFE_CONFIG_PREFIX = ["color.", "advice.", "i18n."];
const SAFE_CONFIG = new Set(["core.quotepath", "diff.noprefix", "log.showsignature", "core.abbrev"]);

function mutation(cx: CmdCx, sub: string): Effect {
  return deny(
    "guard.git-mutation",
    cx.what,
    `\`git ${sub}\` changes the repository (refs, index, objects, configuration or a remote)`,
    "leaves never commit, stage, switch branches or talk to remotes; report what should change and let the root do it",
  );
}

/** Read-only subcommands that one option turns into a write or a program run. */
const OPTION_WRITES = new Set(["grep", "fsck", "hash-object", "interpret-trailers"]);

function operandsOf(args: readonly Word[], valueOpts: readonly string[]): Word[] {
  const out: Word[] = [];
  for (let k = 0; k < args.length; k += 1) {
    const t = literal(args[k]);
    if (t?.startsWith("-")) {
      if (valueOpts.includes(t)) k += 1;
      continue;
    }
    out.push(args[k] as Word);
  }
  return out;
}

/** `--output[=]FILE` (and abbreviations) in diff-like commands. */
function outputFiles(args: readonly Word[], cx: CmdCx, sub: string): Effect[] {
  const out: Effect[] = [];
  for (let k = 0; k < args.length; k += 1) {
    const w = args[k] as Word;
    const t = literal(w);
    if (t === undefined) {
      if (mayBeOption(w)) {
        return [
          unclassified(
            cx.what,
            `\`${showWord(w)}\` may expand into an option of git ${sub}`,
            "write it literally",
          ),
        ];
      }
      continue;
    }
    const name = t.split("=")[0] as string;
    if (name.length >= 4 && "--output".startsWith(name) && name !== "--") {
      const v = t.includes("=") ? { ...w, text: t.slice(t.indexOf("=") + 1) } : args[++k];
      if (v) out.push(...writes(cx.what, [v], cx.cwds));
      else out.push(writeUnknown(cx.what, `git ${sub} --output without a file`));
    } else if (t.startsWith("--output-directory")) {
      out.push(writeUnknown(cx.what, `git ${sub} writes into a directory`));
    }
  }
  return out;
}

/** The first of `args` that is `-u` or (an abbreviation of) one of the long options `longs`, if any. */
function programOption(args: readonly Word[], longs: readonly string[]): string | undefined {
  for (const a of args) {
    const t = literal(a);
    if (t === undefined) continue;
    if (t === "--") return undefined;
    const name = t.split("=")[0] as string;
    if (name === "-u" || abbreviates(name, longs)) return t;
  }
  return undefined;
}

/** Whether `name` is an abbreviation of one of the long options `longs` (git takes any unambiguous prefix). */
function abbreviates(name: string, longs: Iterable<string>): boolean {
  return name.startsWith("--") && name.length > 2 && [...longs].some((l) => l.startsWith(name));
}

function branch(args: readonly Word[], cx: CmdCx): Effect[] {
  const mutating = new Set(GIT_BRANCH_MUTATING);
  // Filters put git branch into list mode; --sort, --format, --abbrev and --column do not (`git branch --sort=x
  // name` creates the branch), they only take a value.
  const filters = new Set(["--contains", "--no-contains", "--merged", "--no-merged", "--points-at"]);
  const valued = new Set([...filters, "--sort", "--format"]);
  let list = false;
  const operands: Word[] = [];
  for (let k = 0; k < args.length; k += 1) {
    const w = args[k] as Word;
    const t = literal(w);
    if (t === undefined) {
      if (mayBeOption(w))
        return [unclassified(cx.what, "a variable `git branch` argument", "write it literally")];
      operands.push(w);
      continue;
    }
    const name = t.split("=")[0] as string;
    if (
      mutating.has(name) ||
      abbreviates(name, mutating) ||
      (t.startsWith("-") && !t.startsWith("--") && [...t.slice(1)].some((c) => "dDmMcCfut".includes(c)))
    ) {
      return [mutation(cx, "branch (create, delete, move, copy or set upstream)")];
    }
    if (
      name === "-l" ||
      name === "--list" ||
      name === "-a" ||
      name === "--all" ||
      name === "-r" ||
      name === "--remotes" ||
      name === "--show-current"
    )
      list = true;
    if (filters.has(name)) list = true;
    if (valued.has(name) && !t.includes("=")) k += 1;
    if (!t.startsWith("-")) operands.push(w);
  }
  return operands.length > 0 && !list ? [mutation(cx, "branch <name>")] : NONE;
}

function tag(args: readonly Word[], cx: CmdCx): Effect[] {
  let list = false;
  const operands: Word[] = [];
  for (let k = 0; k < args.length; k += 1) {
    const w = args[k] as Word;
    const t = literal(w);
    if (t === undefined) {
      if (mayBeOption(w))
        return [unclassified(cx.what, "a variable `git tag` argument", "write it literally")];
      operands.push(w);
      continue;
    }
    const name = t.split("=")[0] as string;
    if (
      [
        "-l",
        "--list",
        "-v",
        "--verify",
        "--contains",
        "--no-contains",
        "--merged",
        "--no-merged",
        "--points-at",
      ].includes(name) ||
      /^-n[0-9]*$/.test(name)
    ) {
      // A filter's value is a commit, never an option, and a listing ignores operands: no need to skip it.
      list = true;
      continue;
    }
    // --sort, --format and --column shape a listing but do not ask for one: `git tag --sort=x v1` creates v1.
    if (["--sort", "--format"].includes(name)) {
      if (!t.includes("=")) k += 1;
      continue;
    }
    if (name === "--column" || name === "--no-column") continue;
    if (t.startsWith("-")) return [mutation(cx, `tag ${t}`)];
    operands.push(w);
  }
  return operands.length > 0 && !list ? [mutation(cx, "tag <name>")] : NONE;
}

function remote(args: readonly Word[], cx: CmdCx): Effect[] {
  const ops = operandsOf(args, []);
  const first = literal(ops[0]);
  if (ops.length === 0 || first === "show" || first === "get-url") return NONE;
  return [mutation(cx, `remote ${first ?? ""}`.trim())];
}

function config(args: readonly Word[], cx: CmdCx): Effect[] {
  const readFlags = new Set([
    "--get",
    "--get-all",
    "--get-regexp",
    "--get-urlmatch",
    "--list",
    "-l",
    "--get-color",
    "--get-colorbool",
  ]);
  const writeFlags = new Set([
    "--add",
    "--unset",
    "--unset-all",
    "--replace-all",
    "--rename-section",
    "--remove-section",
    "--edit",
    "-e",
  ]);
  const valued = ["--file", "-f", "--blob", "--type", "-t", "--default", "--comment"];
  let read = false;
  for (const a of args) {
    const t = literal(a);
    if (t === undefined) {
      if (mayBeOption(a))
        return [unclassified(cx.what, "a variable `git config` argument", "write it literally")];
      continue;
    }
    const name = t.split("=")[0] as string;
    if (writeFlags.has(name) || abbreviates(name, writeFlags)) return [mutation(cx, `config ${name}`)];
    if (readFlags.has(name)) read = true;
  }
  const ops = operandsOf(args, valued);
  const first = literal(ops[0]);
  if (first === "get" || first === "list") return NONE;
  if (
    first === "set" ||
    first === "unset" ||
    first === "rename-section" ||
    first === "remove-section" ||
    first === "edit"
  ) {
    return [mutation(cx, `config ${first}`)];
  }
  return read || ops.length <= 1 ? NONE : [mutation(cx, "config <key> <value>")];
}

function apply(args: readonly Word[], cx: CmdCx): Effect[] {
  const texts = args.map((a) => literal(a));
  const readOnly = texts.some(
    (t) => t === "--check" || t === "--stat" || t === "--numstat" || t === "--summary",
  );
  if (readOnly && !texts.includes("--apply")) return NONE;
  return [
    writeUnknown(cx.what, "`git apply` writes the files named inside the patch; use apply_patch or Edit"),
  ];
}

function listForm(sub: string, args: readonly Word[], cx: CmdCx): Effect[] {
  const ops = operandsOf(args, []);
  const first = literal(ops[0]);
  if (ops.length === 0 && sub !== "stash" && sub !== "bundle" && sub !== "sparse-checkout") return NONE;
  if (first !== undefined && LIST_FORMS[sub]?.includes(first)) {
    if (sub === "lfs" && first === "track" && ops.length > 1) return [mutation(cx, "lfs track <pattern>")];
    return NONE;
  }
  if (sub === "submodule" && first === "foreach") {
    return [
      unclassified(cx.what, "`git submodule foreach` runs a command in every submodule", "run it directly"),
    ];
  }
  if (sub === "bundle" && first === "create")
    return [writeUnknown(cx.what, "`git bundle create` writes a file")];
  return [mutation(cx, `${sub} ${first ?? ""}`.trim())];
}

/** git's own options before the subcommand: those that take the next word, … */
const GLOBAL_VALUED = ["-C", "--git-dir", "--work-tree", "--namespace"];
/** … those without a value that change nothing the guard watches, … */
const GLOBAL_FLAGS = [
  "--no-pager",
  "-P",
  "--paginate",
  "-p",
  "--no-replace-objects",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--no-optional-locks",
  "--bare",
  "--no-advice",
  "--no-lazy-fetch",
];
/** … and those that only print. */
const GLOBAL_INFO = [
  "--version",
  "-v",
  "--help",
  "-h",
  "--exec-path",
  "--html-path",
  "--man-path",
  "--info-path",
];

export const git: Handler = (args, cx) => {
  let k = 0;
  for (; k < args.length; k += 1) {
    const w = args[k] as Word;
    const t = literal(w);
    if (t === undefined)
      return [unclassified(cx.what, "git with a variable before its subcommand", "write it literally")];
    if (!t.startsWith("-")) break;
    if (GLOBAL_VALUED.includes(t)) {
      k += 1;
      continue;
    }
    if (t === "-c") {
      const kv = literal(args[k + 1]);
      const key = ((kv ?? "").split("=")[0] as string).toLowerCase();
      if (kv === undefined || !(SAFE_CONFIG.has(key) || SAFE_CONFIG_PREFIX.some((p) => key.startsWith(p)))) {
        return [
          unclassified(
            cx.what,
            `\`git -c ${kv ?? "…"}\` can set a pager, alias or hook that runs a program`,
            "drop -c (only color.*, advice.*, i18n.*, core.quotepath are accepted)",
          ),
        ];
      }
      k += 1;
      continue;
    }
    if (GLOBAL_FLAGS.includes(t) || GLOBAL_VALUED.some((o) => o.startsWith("--") && t.startsWith(`${o}=`)))
      continue;
    if (GLOBAL_INFO.includes(t)) return NONE;
    return [unclassified(cx.what, `the git option \`${t}\``, "use plain git <subcommand>")];
  }
  const subWord = args[k];
  if (subWord === undefined) return NONE;
  const sub = literal(subWord);
  if (sub === undefined) return [unclassified(cx.what, "a variable git subcommand", "write it literally")];
  const rest = args.slice(k + 1);
  if (MUTATION.has(sub)) return [mutation(cx, sub)];
  // These read unless an option says otherwise (`grep -O`, `hash-object -w` …): a variable may be that option.
  if (OPTION_WRITES.has(sub)) {
    const w = rest.find(mayBecomeOption);
    if (w) {
      return [
        unclassified(
          cx.what,
          `\`${showWord(w)}\` may expand into an option of git ${sub}`,
          "write it literally",
        ),
      ];
    }
  }
  switch (sub) {
    case "branch":
      return branch(rest, cx);
    case "tag":
      return tag(rest, cx);
    case "remote":
      return remote(rest, cx);
    case "config":
      return config(rest, cx);
    case "apply":
      return apply(rest, cx);
    case "symbolic-ref": {
      const ops = operandsOf(rest, ["-m"]);
      const del = rest.some((a) => literal(a) === "-d" || literal(a) === "--delete");
      return ops.length <= 1 && !del ? NONE : [mutation(cx, "symbolic-ref <name> <ref>")];
    }
    case "format-patch":
      return rest.some((a) => literal(a) === "--stdout")
        ? NONE
        : [writeUnknown(cx.what, "`git format-patch` writes numbered patch files; use --stdout")];
    case "ls-remote":
    case "archive": {
      // `--upload-pack=<exec>` (ls-remote) and `--exec=<cmd>` (archive, with --remote) name a program git runs;
      // git also takes any unambiguous abbreviation of a long option.
      const program = programOption(rest, sub === "archive" ? ["--exec", "--remote"] : ["--upload-pack"]);
      if (program !== undefined) {
        return [unclassified(cx.what, `\`git ${sub} ${program}\` runs a program`, "drop the option")];
      }
      if (sub === "ls-remote") return outputFiles(rest, cx, sub);
      const out = outputFiles(rest, cx, sub);
      for (let j = 0; j < rest.length; j += 1) {
        const t = literal(rest[j]);
        if (t === "-o") out.push(...writes(cx.what, rest.slice(j + 1, j + 2), cx.cwds));
        else if (t?.startsWith("-o") && t.length > 2 && !t.startsWith("--")) {
          out.push(...writes(cx.what, [{ ...(rest[j] as Word), text: t.slice(2) }], cx.cwds));
        }
      }
      return out;
    }
    case "grep":
      if (
        rest.some((a) => {
          const t = literal(a) ?? "";
          return t.startsWith("--open") || (t.startsWith("-") && !t.startsWith("--") && t.includes("O"));
        })
      ) {
        return [unclassified(cx.what, "`git grep -O` opens a pager program", "drop -O")];
      }
      return NONE;
    case "fsck":
      return rest.some((a) => literal(a) === "--lost-found")
        ? [writeUnknown(cx.what, "`git fsck --lost-found` writes")]
        : NONE;
    case "hash-object":
      return rest.some((a) => literal(a) === "-w") ? [mutation(cx, "hash-object -w")] : NONE;
    case "interpret-trailers":
      return rest.some((a) => literal(a) === "--in-place")
        ? [writeUnknown(cx.what, "`--in-place` rewrites the files")]
        : NONE;
    default:
      break;
  }
  if (sub in LIST_FORMS) return listForm(sub, rest, cx);
  if (READ.has(sub)) return outputFiles(rest, cx, sub);
  return [
    unclassified(
      cx.what,
      `\`git ${sub}\` is not a known read-only subcommand (it may be an alias)`,
      "use status, diff, log, show, blame, grep, ls-files or rev-parse",
    ),
  ];
};

/**
 * Handlers for the everyday utilities: the read-only allowlist, shell builtins, file writers and command
 * wrappers. A handler returns the command's effects; an empty list means "reads only". Those that are data (the
 * allowlist, name lists, writers of their operands) are rows of the program table (./programs.ts); the ones here
 * need code.
 *
 * Conventions:
 * - an option the handler does not know makes the command unclassified (the guard cannot say what it does);
 * - for writers, target operands are over-approximated: when in doubt a word counts as a target, so the
 *   wright's allowlist check gets stricter, never looser;
 * - a word that may expand into an option (`$x`, `*`) where options matter makes the command unclassified.
 */

import type { CmdCx, Handler, HandlerTable } from "../context.js";
import { enter, intoDir } from "../cwd.js";
import { type Cwd, type Effect, exec, sinks, unclassified, writes, writeUnknown } from "../effects.js";
import { hasOpt, type OptSpec, optValues, type ParsedArgs, parseArgs } from "../options.js";
import { showWord, type Word } from "../parse.js";
import { checkSedScript } from "../sed.js";
import { literal, mayBecomeOption, mayBeOption } from "../words.js";
import { programEntries, strict } from "./program.js";
import { PROGRAMS } from "./programs.js";

export { PURE } from "./programs.js";

const NONE: Effect[] = [];

// ---------------------------------------------------------------- read-only utilities with dangerous options

const printf: Handler = (args, cx) =>
  args[0] !== undefined && mayBeOption(args[0]) && literal(args[0]) !== "--"
    ? [unclassified(cx.what, "`printf -v` assigns through a name that can evaluate code", "print to stdout")]
    : NONE;

const DATE_LONG_VALUES = ["date", "file", "reference", "rfc-3339"];
const date: Handler = (args, cx) => {
  for (let k = 0; k < args.length; k += 1) {
    const t = literal(args[k]);
    if (t === undefined)
      return [unclassified(cx.what, "`date` with a variable argument", "write it literally")];
    if (t.startsWith("--")) {
      // Long options may be abbreviated (`--se=…` is `--set`); only --set changes anything.
      const n = t.slice(2).split("=")[0] as string;
      if (n !== "" && "set".startsWith(n)) return [exec(cx.what, "`date` sets the clock")];
      if (!t.includes("=") && n.length >= 2 && DATE_LONG_VALUES.some((o) => o.startsWith(n))) k += 1;
      continue;
    }
    if (t.startsWith("-") && t.length > 1) {
      // A bundle such as `-us@0`: -d, -f, -r take a value (attached or the next word), -s sets the clock.
      for (let i = 1; i < t.length; i += 1) {
        const c = t[i] as string;
        if (c === "s") return [exec(cx.what, "`date` sets the clock")];
        if ("dfr".includes(c)) {
          if (i === t.length - 1) k += 1;
          break;
        }
        if (c === "I") break;
      }
      continue;
    }
    if (!t.startsWith("+")) return [exec(cx.what, "`date` sets the clock")];
  }
  return NONE;
};

const fileCmd: Handler = (args, cx) => {
  if (args.some(mayBecomeOption))
    return [writeUnknown(cx.what, "a variable `file` argument may be -C, which compiles a magic file")];
  return args.some((a) => {
    const t = literal(a) ?? "";
    return t === "--compile" || (/^-[A-Za-z]+$/.test(t) && t.includes("C"));
  })
    ? [writeUnknown(cx.what, "`file -C` compiles a magic file")]
    : NONE;
};

const hostname: Handler = (args, cx) =>
  args.some((a) => !(literal(a) ?? "").startsWith("-"))
    ? [exec(cx.what, "`hostname NAME` renames the host")]
    : NONE;

const tree: Handler = (args, cx) => {
  const out: Word[] = [];
  for (let k = 0; k < args.length; k += 1) {
    const t = literal(args[k]);
    if (t === undefined && mayBeOption(args[k] as Word)) {
      return [
        writeUnknown(cx.what, `\`${showWord(args[k] as Word)}\` may expand into \`tree -o\` or \`-R\``),
      ];
    }
    if (t === undefined || !t.startsWith("-") || t.startsWith("--")) {
      if (t?.startsWith("--output") || t === "--fromfile") return [writeUnknown(cx.what, `\`tree ${t}\``)];
      continue;
    }
    // Short options may be bundled (`-aRo out`): -R writes 00Tree.html files, -o names the output file.
    if (t.includes("R")) return [writeUnknown(cx.what, "`tree -R` writes 00Tree.html files")];
    if (t.includes("o")) {
      const v = args[k + 1];
      if (v) out.push(v);
      k += 1;
    }
  }
  return writes(cx.what, out, cx.cwds);
};

const rg: Handler = (args, cx) => {
  // A variable before `--` may expand into `--pre=PROGRAM`.
  const end = args.findIndex((a) => literal(a) === "--");
  const option = args.slice(0, end === -1 ? args.length : end).find(mayBecomeOption);
  if (option) {
    return [
      unclassified(
        cx.what,
        `\`${showWord(option)}\` may expand into an option of \`rg\` such as --pre`,
        "write it literally, or after --",
      ),
    ];
  }
  return args.some((a) => {
    const t = literal(a) ?? "";
    return t === "--pre" || t.startsWith("--pre=") || t.startsWith("--hostname-bin");
  })
    ? [unclassified(cx.what, "`rg --pre` / `--hostname-bin` runs a program", "drop the option")]
    : NONE;
};

// ---------------------------------------------------------------- find, fd, xargs (nested commands)

const FIND_WRITES = new Set(["-fprint", "-fprint0", "-fls"]);
const find: Handler = (args, cx) => {
  const out: Effect[] = [];
  for (let k = 0; k < args.length; k += 1) {
    const w = args[k] as Word;
    const t = literal(w);
    if (t === undefined) {
      if (mayBeOption(w)) {
        return [
          unclassified(cx.what, `\`${showWord(w)}\` may expand into a find action`, "write it literally"),
        ];
      }
      continue;
    }
    if (t === "-delete") out.push(writeUnknown(cx.what, "`find -delete` removes every match"));
    else if (FIND_WRITES.has(t)) {
      const v = args[k + 1];
      if (v) out.push(...writes(cx.what, [v], cx.cwds));
      k += 1;
    } else if (t === "-fprintf") {
      const v = args[k + 1];
      if (v) out.push(...writes(cx.what, [v], cx.cwds));
      k += 2;
    } else if (t === "-exec" || t === "-execdir") {
      let end = k + 1;
      while (end < args.length && literal(args[end]) !== ";" && literal(args[end]) !== "+") end += 1;
      if (end >= args.length)
        return [unclassified(cx.what, "`find -exec` without `;` or `+`", "end it with \\;")];
      const inner = args.slice(k + 1, end).map(placeholder);
      if (inner.length === 0) return [unclassified(cx.what, "`find -exec` without a command", "give one")];
      out.push(...cx.sub(inner, t === "-execdir" ? [null] : cx.cwds));
      k = end;
    } else if (t === "-ok" || t === "-okdir") {
      return [unclassified(cx.what, "`find -ok` asks interactively", "use -exec")];
    }
  }
  return out;
};

/**
 * `{}` in `find -exec` and `fd -x` is a file name the guard does not know. The word keeps its own splitting and
 * globbing: the shell expands `*{}` before find runs, so it may still become an option.
 */
function placeholder(w: Word): Word {
  return w.text.includes("{}")
    ? { text: w.text.replaceAll("{}", "\u0000{}\u0000"), dynamic: true, split: w.split, glob: w.glob }
    : w;
}

const fd: Handler = (args, cx) => {
  for (let k = 0; k < args.length; k += 1) {
    const t = literal(args[k]);
    if (t !== undefined && (t.startsWith("--exec") || (/^-[A-Za-z]+$/.test(t) && /[xX]/.test(t)))) {
      let end = k + 1;
      while (end < args.length && literal(args[end]) !== ";") end += 1;
      const inner = args.slice(k + 1, end).map(placeholder);
      if (inner.length === 0) return [unclassified(cx.what, "`fd -x` without a command", "give one")];
      return cx.sub([...inner, { text: "\u0000{}\u0000", dynamic: true, split: false, glob: false }]);
    }
    if (t === undefined && mayBeOption(args[k] as Word)) {
      return [unclassified(cx.what, "a variable argument may expand into `fd --exec`", "write it literally")];
    }
  }
  return NONE;
};

const xargs: Handler = (args, cx) => {
  const p = parseArgs(args, {
    posix: true,
    flags: "0prtx",
    values: "adEILnPs",
    longFlags: ["null", "no-run-if-empty", "verbose", "interactive", "exit", "open-tty", "show-limits"],
    longValues: [
      "arg-file",
      "delimiter",
      "max-lines",
      "max-args",
      "max-procs",
      "max-chars",
      "process-slot-var",
    ],
    longOptional: ["eof", "replace"],
  });
  if (p.unknown.some((u) => u !== "-i" && u !== "-e" && u !== "-l")) {
    return [unclassified(cx.what, `\`xargs\` with the option \`${p.unknown[0]}\``, "use -0, -n, -I")];
  }
  if (p.ambiguous.length > 0)
    return [unclassified(cx.what, "a variable xargs argument", "write it literally")];
  const replWords = optValues(p, "-I", "--replace");
  // The replace string decides which words of the command become input lines: an unknown one may be any word.
  if (replWords.some((w) => literal(w) === undefined || literal(w) === "")) {
    return [unclassified(cx.what, "a variable or empty xargs replace string", "write it literally")];
  }
  const repl = replWords.map((w) => literal(w) as string);
  if (p.unknown.includes("-i") || (hasOpt(p, "--replace") && repl.length === 0)) repl.push("{}");
  const dyn: Word = { text: "\u0000xargs\u0000", dynamic: true, split: true, glob: false };
  const inner =
    p.operands.length > 0 ? [...p.operands] : [{ text: "echo", dynamic: false, split: false, glob: false }];
  if (repl.length > 0) {
    // Each -I may name another string (the last one counts); every one is taken as replaced, failing closed.
    return cx.sub(
      inner.map((w) =>
        repl.some((r) => w.text.includes(r))
          ? {
              text: repl.reduce((t, r) => t.replaceAll(r, "\u0000xargs\u0000"), w.text),
              dynamic: true,
              split: w.split,
              glob: w.glob,
            }
          : w,
      ),
    );
  }
  return cx.sub([...inner, dyn]);
};

// ---------------------------------------------------------------- awk, sed and other in-place editors

const AWK_OK_FLAGS = "bcMnNOPrsS";
const awk: Handler = (args, cx, name) => {
  const p = parseArgs(args, {
    posix: true,
    flags: AWK_OK_FLAGS,
    values: "Fve",
    longFlags: [
      "characters-as-bytes",
      "traditional",
      "bignum",
      "use-lc-numeric",
      "non-decimal-data",
      "optimize",
      "posix",
      "re-interval",
      "sandbox",
      "copyright",
      "version",
    ],
    longValues: ["field-separator", "assign", "source"],
  });
  if (p.unknown.length > 0) {
    const u = p.unknown[0] as string;
    if (
      u === "-i" ||
      u.startsWith("--include") ||
      u === "-f" ||
      u.startsWith("--file") ||
      u === "-l" ||
      u === "-E"
    ) {
      return [
        unclassified(
          cx.what,
          `\`${name} ${u}\` loads code the guard cannot read (or edits in place)`,
          "give the program inline",
        ),
      ];
    }
    return [unclassified(cx.what, `\`${name}\` with the option \`${u}\``, "use -F, -v or -e")];
  }
  if (p.ambiguous.length > 0)
    return [unclassified(cx.what, `a variable \`${name}\` argument`, "write it literally")];
  const sources = optValues(p, "-e", "--source");
  const program = sources.length > 0 ? sources : p.operands.slice(0, 1);
  if (program.length === 0)
    return [unclassified(cx.what, `\`${name}\` without a program`, "give the program")];
  for (const w of program) {
    const text = literal(w);
    if (text === undefined)
      return [unclassified(cx.what, `a variable \`${name}\` program`, "write it literally")];
    if (text.includes(">") || text.includes("|") || text.includes("system") || text.includes("@")) {
      return [
        unclassified(
          cx.what,
          `the ${name} program uses \`>\`, \`|\`, \`system\` or \`@\`, which can write files or run commands`,
          "compare with `<` (swap the operands) instead of `>`, and pipe in the shell, not inside awk",
        ),
      ];
    }
  }
  return NONE;
};

const SED_SPEC: OptSpec = {
  flags: "nErsuzb",
  values: "efl",
  longFlags: [
    "quiet",
    "silent",
    "debug",
    "regexp-extended",
    "separate",
    "sandbox",
    "unbuffered",
    "null-data",
    "posix",
    "binary",
    "follow-symlinks",
    "zero-terminated",
  ],
  longValues: ["expression", "file", "line-length"],
  longOptional: ["in-place"],
};

const sed: Handler = (args, cx) => {
  // `-i[SUFFIX]` has an optional attached value; find it before the general reader sees `-i`.
  let inPlace = false;
  let suffix: string | undefined;
  const rest: Word[] = [];
  for (let k = 0; k < args.length; k += 1) {
    const w = args[k] as Word;
    const t = literal(w);
    if (t?.startsWith("-") && !t.startsWith("--") && t.includes("i")) {
      // a bundle such as -ni or -Ei.bak: everything after the i is the suffix
      const at = t.indexOf("i");
      const before = t.slice(1, at);
      if ([...before].every((c) => "nErsuzb".includes(c))) {
        inPlace = true;
        suffix = t.slice(at + 1) || undefined;
        if (before !== "") rest.push({ ...w, text: `-${before}` });
        // BSD form `sed -i '' …`: an empty word right after -i is the (empty) suffix
        if (suffix === undefined && literal(args[k + 1]) === "") k += 1;
        continue;
      }
    }
    rest.push(w);
  }
  const r = strict(rest, cx, "sed", SED_SPEC);
  if (!r.ok) return [r.effect];
  if (hasOpt(r.p, "--in-place")) {
    inPlace = true;
    suffix = literal(optValues(r.p, "--in-place")[0]);
  }
  if (hasOpt(r.p, "-f", "--file")) {
    return [
      unclassified(cx.what, "`sed -f` runs a script file the guard cannot read", "give the script inline"),
    ];
  }
  const expressions = optValues(r.p, "-e", "--expression");
  const scripts = expressions.length > 0 ? expressions : r.p.operands.slice(0, 1);
  const files = expressions.length > 0 ? r.p.operands : r.p.operands.slice(1);
  if (scripts.length === 0) return [unclassified(cx.what, "`sed` without a script", "give the script")];
  const out: Effect[] = [];
  for (const s of scripts) {
    const text = literal(s);
    if (text === undefined) return [unclassified(cx.what, "a variable sed script", "write it literally")];
    const check = checkSedScript(text);
    if (!check.ok) {
      out.push(
        check.writes ? writeUnknown(cx.what, check.why) : unclassified(cx.what, check.why, "use p, s, d"),
      );
    }
  }
  if (inPlace) {
    if (files.length === 0) out.push(writeUnknown(cx.what, "`sed -i` without a file"));
    out.push(...writes(cx.what, files, cx.cwds));
    if (suffix !== undefined) {
      if (suffix.includes("*") || suffix.includes("/"))
        out.push(writeUnknown(cx.what, "`sed -i` backup name pattern"));
      else
        out.push(
          ...writes(
            cx.what,
            files.map((f) => ({ ...f, text: f.text + suffix })),
            cx.cwds,
          ),
        );
    }
  }
  return out;
};

/** `yq -i EXPR FILE…` edits the files in place. */
const yq: Handler = (args, cx) => {
  const option = args.find(mayBecomeOption);
  if (option) return [writeUnknown(cx.what, `\`${showWord(option)}\` may expand into \`yq -i\``)];
  const inPlace = args.some((a) => {
    const t = literal(a) ?? "";
    return t === "--inplace" || (/^-[a-zA-Z]+$/.test(t) && t.includes("i"));
  });
  if (args.some((a) => (literal(a) ?? "").startsWith("--split-exp") || (literal(a) ?? "") === "-s")) {
    return [writeUnknown(cx.what, "`yq --split-exp` writes a file per document")];
  }
  if (!inPlace) return NONE;
  // A variable word is an operand (the expression or a file), never an option: that was refused above.
  const operands = args.filter((a) => !(literal(a) ?? "").startsWith("-"));
  return writes(cx.what, operands.slice(1), cx.cwds);
};

// ---------------------------------------------------------------- file writers

const FILE_CP: OptSpec = {
  flags: "abdfHilLnPpRrsTuvxZ",
  values: "St",
  longFlags: [
    "archive",
    "attributes-only",
    "copy-contents",
    "debug",
    "dereference",
    "force",
    "interactive",
    "keep-directory-symlink",
    "link",
    "no-clobber",
    "no-dereference",
    "no-target-directory",
    "one-file-system",
    "parents",
    "recursive",
    "remove-destination",
    "strip-trailing-slashes",
    "symbolic-link",
    "verbose",
    "exchange",
    "no-copy",
  ],
  longValues: ["suffix", "target-directory"],
  longOptional: ["backup", "preserve", "no-preserve", "reflink", "sparse", "update", "context"],
};

/** cp, mv, ln, install: the destination (or each `dir/basename(source)`) is written. */
function copyLike(name: string, opts: { movesSources?: boolean; recursiveUnknown?: boolean }): Handler {
  return (args, cx) => {
    const r = strict(args, cx, name, FILE_CP, true);
    if (!r.ok) return [r.effect];
    const p = r.p;
    if (hasOpt(p, "-b", "--backup", "-S", "--suffix")) {
      return [writeUnknown(cx.what, `\`${name}\` with a backup option also writes backup files`)];
    }
    if (hasOpt(p, "--parents"))
      return [writeUnknown(cx.what, `\`${name} --parents\` recreates source paths`)];
    if (opts.recursiveUnknown && hasOpt(p, "-r", "-R", "-a", "--recursive", "--archive")) {
      return [writeUnknown(cx.what, `a recursive \`${name}\` writes every file of a tree`)];
    }
    const d = destinations(p, cx, name);
    if ("kind" in d) return [d];
    return [
      ...writes(cx.what, d.dests, cx.cwds),
      ...(opts.movesSources ? writes(cx.what, d.sources, cx.cwds) : []),
    ];
  };
}

/** The files a cp/mv/ln/install writes: `-t DIR`, a trailing directory, or a single destination. */
function destinations(p: ParsedArgs, cx: CmdCx, name: string): { sources: Word[]; dests: Word[] } | Effect {
  const targetDir = optValues(p, "-t", "--target-directory")[0];
  const dests: Word[] = [];
  if (targetDir) {
    for (const s of p.operands) {
      const d = intoDir(targetDir, s);
      if (!d) return writeUnknown(cx.what, `\`${name}\` into a directory with an unknown file name`);
      dests.push(d);
    }
    return { sources: p.operands, dests };
  }
  if (name === "ln" && p.operands.length === 1) {
    const d = intoDir({ text: ".", dynamic: false, split: false, glob: false }, p.operands[0] as Word);
    if (!d) return writeUnknown(cx.what, "`ln` with an unknown link name");
    return { sources: p.operands, dests: [d] };
  }
  if (p.operands.length < 2)
    return unclassified(cx.what, `\`${name}\` needs a source and a destination`, "give both");
  const sources = p.operands.slice(0, -1);
  const dest = p.operands[p.operands.length - 1] as Word;
  const destText = literal(dest);
  if (
    hasOpt(p, "-T", "--no-target-directory") ||
    (sources.length === 1 && destText !== undefined && !destText.endsWith("/"))
  ) {
    // A single source onto a path: the path is written. (If the path is a directory the write lands inside it;
    // a directory is never on an allowlist, so the check still fails closed.)
    return { sources, dests: [dest] };
  }
  for (const s of sources) {
    const d = intoDir(dest, s);
    if (!d) return writeUnknown(cx.what, `\`${name}\` into a directory with an unknown file name`);
    dests.push(d);
  }
  return { sources, dests };
}

const cp = copyLike("cp", { recursiveUnknown: true });
const mv = copyLike("mv", { movesSources: true });
const lnWrites = copyLike("ln", {});
/** `ln -s TARGET LINK`: the link is written; a link text that leaves the directory tree is refused. */
const ln: Handler = (args, cx, name) => {
  // Read the options as ln does, so that abbreviations (`--symb`) and `-t DIR` are seen: with a target directory
  // every operand is a link text; otherwise all but the last one are (a single operand is its own link text).
  const p = parseArgs(args, FILE_CP);
  if (hasOpt(p, "-s", "--symbolic-link")) {
    const sources =
      optValues(p, "-t", "--target-directory").length > 0 || p.operands.length < 2
        ? p.operands
        : p.operands.slice(0, -1);
    for (const src of sources) {
      const t = literal(src);
      if (t === undefined || t.startsWith("/") || t.split("/").includes("..")) {
        return [
          writeUnknown(
            cx.what,
            "a symbolic link whose text is absolute, has `..` or is unknown may point outside the repository",
          ),
        ];
      }
    }
  }
  return lnWrites(args, cx, name);
};

/** chmod / chown / chgrp: the first operand is the mode or owner (unless --reference), the rest are written. */
function attributeChanger(name: string): Handler {
  return (args, cx) => {
    const spec: OptSpec = {
      flags: "cfvRhHLP",
      longFlags: [
        "changes",
        "silent",
        "quiet",
        "verbose",
        "recursive",
        "dereference",
        "no-dereference",
        "preserve-root",
        "no-preserve-root",
      ],
      longValues: ["reference", "from"],
    };
    // chmod accepts symbolic modes that look like options: `chmod -x file`.
    const filtered: Word[] = [];
    let mode = false;
    for (const a of args) {
      const t = literal(a);
      if (
        name === "chmod" &&
        !mode &&
        t !== undefined &&
        /^-[rwxXstugoa,+=-]+$/.test(t) &&
        !/^-[cfvR]+$/.test(t)
      ) {
        mode = true;
        continue;
      }
      filtered.push(a);
    }
    const r = strict(filtered, cx, name, spec, true);
    if (!r.ok) return [r.effect];
    const targets = mode || hasOpt(r.p, "--reference") ? r.p.operands : r.p.operands.slice(1);
    if (targets.length === 0) return [unclassified(cx.what, `\`${name}\` without a file`, "name the file")];
    return writes(cx.what, targets, cx.cwds);
  };
}

const install: Handler = (args, cx) => {
  const r = strict(
    args,
    cx,
    "install",
    {
      flags: "bcCdDpsTvZ",
      values: "gmoSt",
      longFlags: ["compare", "directory", "preserve-timestamps", "strip", "no-target-directory", "verbose"],
      longValues: ["group", "mode", "owner", "suffix", "target-directory", "strip-program"],
      longOptional: ["backup", "context"],
    },
    true,
  );
  if (!r.ok) return [r.effect];
  if (hasOpt(r.p, "-d", "--directory")) return writes(cx.what, r.p.operands, cx.cwds, true);
  if (hasOpt(r.p, "-b", "--backup", "-S", "--suffix"))
    return [writeUnknown(cx.what, "`install -b` also writes backups")];
  const d = destinations(r.p, cx, "install");
  return "kind" in d ? [d] : writes(cx.what, d.dests, cx.cwds);
};

const dd: Handler = (args, cx) => {
  const out: Effect[] = [];
  for (const a of args) {
    const t = literal(a);
    if (t === undefined) {
      if (a.text.startsWith("of=") || mayBeOption(a)) {
        return [writeUnknown(cx.what, "`dd` with a variable operand")];
      }
      continue;
    }
    if (t.startsWith("of=")) out.push(...sinks(cx.what, [{ ...a, text: t.slice(3) }], cx.cwds));
  }
  return out;
};

const link: Handler = (args, cx) =>
  args.length === 2
    ? writes(cx.what, [args[1] as Word], cx.cwds)
    : [unclassified(cx.what, "`link` needs two files", "give two")];

const TAR_VALUES = "fCTXbgIKLNVHF";
const tar: Handler = (args, cx) => {
  let words = [...args];
  // Old style: the first word is a bundle of letters without a dash (`tar czf out.tgz dir`); each letter that
  // takes a value consumes the next word in turn.
  const first = literal(words[0]);
  if (first !== undefined && /^[A-Za-z]+$/.test(first)) {
    const expanded: Word[] = [];
    let next = 1;
    for (const c of first) {
      expanded.push({ text: `-${c}`, dynamic: false, split: false, glob: false });
      if (TAR_VALUES.includes(c)) {
        const v = words[next];
        if (v) expanded.push(v);
        next += 1;
      }
    }
    words = [...expanded, ...words.slice(next)];
  }
  const p = parseArgs(words, {
    flags: "AcdrtuxvzjJZaOkmpPSWhiBGMlUn",
    values: TAR_VALUES,
    longFlags: [
      "create",
      "extract",
      "get",
      "list",
      "append",
      "update",
      "catenate",
      "concatenate",
      "diff",
      "compare",
      "delete",
      "verbose",
      "gzip",
      "bzip2",
      "xz",
      "zstd",
      "lzma",
      "auto-compress",
      "to-stdout",
      "keep-old-files",
      "overwrite",
      "no-same-owner",
      "remove-files",
      "dereference",
      "preserve-permissions",
      "same-permissions",
      "exclude-vcs",
      "numeric-owner",
      "totals",
      "warning",
      "sparse",
      "verify",
      "one-file-system",
      "absolute-names",
      "test-label",
    ],
    longValues: [
      "file",
      "directory",
      "files-from",
      "exclude-from",
      "blocking-factor",
      "listed-incremental",
      "use-compress-program",
      "to-command",
      "exclude",
      "transform",
      "xform",
      "owner",
      "group",
      "mode",
      "mtime",
      "label",
      "format",
      "strip-components",
      "newer",
      "after-date",
      "info-script",
      "new-volume-script",
    ],
  });
  if (
    hasOpt(p, "-I", "--use-compress-program", "--to-command", "--info-script", "--new-volume-script", "-F")
  ) {
    return [
      unclassified(
        cx.what,
        "tar runs a program (compress program, to-command, volume script)",
        "drop the option",
      ),
    ];
  }
  // Any other option may run a program (`--checkpoint-action=exec=…`, `--rsh-command`), and a variable word may
  // expand into one (GNU tar reads options after operands too).
  if (p.unknown.length > 0) {
    return [unclassified(cx.what, `\`tar\` with the option \`${p.unknown[0]}\``, "use its common options")];
  }
  if (p.ambiguous.length > 0) {
    return [
      unclassified(
        cx.what,
        `\`${showWord(p.ambiguous[0] as Word)}\` may expand into an option of \`tar\``,
        "write the argument literally",
      ),
    ];
  }
  const file = optValues(p, "-f", "--file")[0];
  const toStdout = hasOpt(p, "-O", "--to-stdout");
  if (hasOpt(p, "-t", "--list", "-d", "--diff", "--compare")) return NONE;
  if (hasOpt(p, "-x", "--extract", "--get")) {
    return toStdout
      ? NONE
      : [writeUnknown(cx.what, "extracting an archive writes files the guard cannot list")];
  }
  if (
    hasOpt(
      p,
      "-c",
      "--create",
      "-r",
      "--append",
      "-u",
      "--update",
      "-A",
      "--catenate",
      "--concatenate",
      "--delete",
    )
  ) {
    if (hasOpt(p, "--remove-files"))
      return [writeUnknown(cx.what, "`tar --remove-files` deletes the sources")];
    if (hasOpt(p, "-g", "--listed-incremental"))
      return [writeUnknown(cx.what, "`tar -g` writes a snapshot file")];
    if (!file) return [writeUnknown(cx.what, "tar without -f writes to the default archive")];
    return literal(file) === "-" ? NONE : writes(cx.what, [file], cx.cwds);
  }
  return [unclassified(cx.what, "tar without a recognised mode", "use -t, -x or -c")];
};

/** Short options of gzip, xz and zstd that take a value (`-S .gz`, `-T 4`, `-o FILE`); the union, failing closed. */
const COMPRESSOR_VALUES = "SoTMFCDB";
/** Their long options that take a value; an abbreviation counts for every name it begins (`--memlimit`, `--files`). */
const COMPRESSOR_LONG_VALUES = [
  "suffix",
  "format",
  "check",
  "threads",
  "memlimit-compress",
  "memlimit-decompress",
  "block-size",
  "block-list",
  "files0",
  "filters",
  "output-dir-flat",
  "output-dir-mirror",
  "patch-from",
];

/**
 * Whether a compressor only prints, lists or tests: a `-c`, `-l` or `-t` option before any word that may be an
 * option. A letter after a value option in a bundle, or the word after it, is that value (`gzip -Sc f` compresses
 * `f` to `fc`), and a variable word before may expand into such an option or `--`.
 */
function compressorReadsOnly(args: readonly Word[]): boolean {
  for (let k = 0; k < args.length; k += 1) {
    const w = args[k] as Word;
    const t = literal(w);
    if (t === undefined) {
      if (mayBeOption(w)) return false;
      continue;
    }
    if (t === "--") return false;
    if (t.startsWith("--")) {
      const n = t.slice(2);
      if (["stdout", "to-stdout", "list", "test"].includes(n)) return true;
      // `--suffix=.z` carries its value: no name begins with `suffix=.z`
      if (COMPRESSOR_LONG_VALUES.some((o) => o.startsWith(n))) k += 1;
      continue;
    }
    if (!t.startsWith("-")) continue;
    const at = [...t].findIndex((c) => COMPRESSOR_VALUES.includes(c));
    const head = at === -1 ? t.slice(1) : t.slice(1, at);
    if (/^[a-zA-Z0-9]+$/.test(head) && /[clt]/.test(head)) return true;
    if (at === t.length - 1) k += 1;
  }
  return false;
}

const compressor: Handler = (args, cx, name) =>
  compressorReadsOnly(args) ? NONE : [writeUnknown(cx.what, `\`${name}\` replaces files in place`)];

/** curl's long options (any abbreviation of three letters or more) that write a file. */
const CURL_WRITING = [
  "remote-name",
  "remote-name-all",
  "remote-header-name",
  "output-dir",
  "dump-header",
  "cookie-jar",
  "trace",
  "trace-ascii",
  "libcurl",
  "stderr",
  "config",
  "create-dirs",
  "etag-save",
  "hsts",
  "alt-svc",
  "ssl-sessions",
];

const curl: Handler = (args, cx) => {
  const out: Effect[] = [];
  for (let k = 0; k < args.length; k += 1) {
    const w = args[k] as Word;
    const t = literal(w);
    if (t === undefined) {
      if (mayBeOption(w)) return [writeUnknown(cx.what, "a variable curl argument may be an output option")];
      continue;
    }
    const long = t.startsWith("--") ? (t.slice(2).split("=")[0] as string) : "";
    const inlineValue = t.includes("=") ? t.slice(t.indexOf("=") + 1) : undefined;
    if (long !== "") {
      if ("output".startsWith(long) && long.length >= 3) {
        const v = inlineValue !== undefined ? { ...w, text: inlineValue } : args[++k];
        if (v && literal(v) !== "-") out.push(...writes(cx.what, [v], cx.cwds));
      } else if (CURL_WRITING.some((o) => o.startsWith(long) && long.length >= 3)) {
        return [writeUnknown(cx.what, `\`curl --${long}\` writes a file`)];
      } else if (
        (long === "write-out" || long === "w") &&
        (inlineValue ?? literal(args[k + 1]) ?? "").includes("%output")
      ) {
        return [writeUnknown(cx.what, "`curl --write-out %output{…}` writes a file")];
      }
      continue;
    }
    if (t.startsWith("-")) {
      for (let c = 1; c < t.length; c += 1) {
        const ch = t[c] as string;
        if (ch === "o") {
          const rest = t.slice(c + 1);
          const v = rest !== "" ? { ...w, text: rest } : args[++k];
          if (v && literal(v) !== "-") out.push(...writes(cx.what, [v], cx.cwds));
          break;
        }
        if ("ODcKJ".includes(ch)) return [writeUnknown(cx.what, `\`curl -${ch}\` writes a file`)];
        if (ch === "w") {
          const rest = t.slice(c + 1);
          if ((rest !== "" ? rest : (literal(args[k + 1]) ?? "")).includes("%output")) {
            return [writeUnknown(cx.what, "`curl -w %output{…}` writes a file")];
          }
          break;
        }
      }
    }
  }
  return [...out, exec(cx.what, "curl reaches the network; use the host's web fetch tool")];
};

const wget: Handler = (args, cx) => {
  const safe = new Set(["-q", "--quiet", "-nv", "--no-verbose", "-S", "--server-response"]);
  let toStdout = false;
  for (let k = 0; k < args.length; k += 1) {
    const t = literal(args[k]);
    if (t === undefined) return [writeUnknown(cx.what, "a variable wget argument")];
    if (t === "-O" || t === "--output-document") {
      toStdout = literal(args[k + 1]) === "-";
      if (!toStdout) return [writeUnknown(cx.what, "wget -O writes a file; use curl -o <allowlisted path>")];
      k += 1;
    } else if (t === "-O-" || t === "-qO-" || t === "--output-document=-") toStdout = true;
    else if (t === "--spider") toStdout = true;
    else if (t.startsWith("-") && !safe.has(t))
      return [writeUnknown(cx.what, `\`wget ${t}\` may write files`)];
  }
  return toStdout
    ? [exec(cx.what, "wget reaches the network; use the host's web fetch tool")]
    : [writeUnknown(cx.what, "wget saves to a file named after the URL")];
};

// ---------------------------------------------------------------- shell builtins

/** Names that bash evaluates in arithmetic context (`a[$(cmd)]`) run code. */
function nameArgs(args: readonly Word[], cx: CmdCx, name: string, valueOpts = ""): Effect[] {
  const out: Effect[] = [];
  for (let k = 0; k < args.length; k += 1) {
    const w = args[k] as Word;
    const t = literal(w);
    if (t === undefined || w.text.includes("[") || w.text.includes("\uE000")) {
      return [
        unclassified(
          cx.what,
          `\`${name}\` with a computed or subscripted name can evaluate code`,
          "use a plain name",
        ),
      ];
    }
    if (t.startsWith("-")) {
      if (t.includes("n") && name !== "read") {
        return [unclassified(cx.what, `\`${name} -n\` (nameref)`, "use a plain variable")];
      }
      if (valueOpts && [...t.slice(1)].some((c) => valueOpts.includes(c))) k += 1;
      continue;
    }
    const eq = t.indexOf("=");
    const varName = eq >= 0 ? t.slice(0, eq).replace(/\+$/, "") : t;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(varName)) {
      return [unclassified(cx.what, `\`${name}\` of \`${varName}\``, "use a plain name")];
    }
    out.push({ kind: "env", name: varName, what: cx.what });
  }
  return out;
}

const assignBuiltin: Handler = (args, cx, name) => nameArgs(args, cx, name);
// `-a NAME` is itself a name (an array), so `a` is not among the value options.
const read: Handler = (args, cx) => nameArgs(args, cx, "read", "dinNptu");
const getopts: Handler = (args, cx) => nameArgs(args.slice(1, 2), cx, "getopts");

const command: Handler = (args, cx) => {
  let k = 0;
  while (literal(args[k]) === "-p") k += 1;
  const t = literal(args[k]);
  if (t === "-v" || t === "-V") return NONE;
  return args.length > k ? cx.sub(args.slice(k)) : NONE;
};

const hash: Handler = (args, cx) =>
  args.some((a) => {
    const t = literal(a);
    return t === undefined || t.startsWith("-p") || t.startsWith("-d");
  })
    ? [
        unclassified(
          cx.what,
          "`hash -p` maps a command name to another program",
          "call the program by its path",
        ),
      ]
    : NONE;

const trap: Handler = (args, cx) =>
  args.every((a) => ["-l", "-p"].includes(literal(a) ?? ""))
    ? NONE
    : [unclassified(cx.what, "`trap` installs code to run later", "run the code directly")];

const alias: Handler = (args, cx) =>
  args.every((a) => !(literal(a) ?? "=").includes("="))
    ? NONE
    : [unclassified(cx.what, "`alias` redefines command names", "call the command directly")];

const shopt: Handler = (args, cx) =>
  args.some((a) => {
    const t = literal(a) ?? "-s";
    return t.startsWith("-") && (t.includes("s") || t.includes("u"));
  })
    ? [unclassified(cx.what, "`shopt -s/-u` changes how later commands are parsed", "drop it")]
    : NONE;

// ---------------------------------------------------------------- wrappers that run another command

const env: Handler = (args, cx) => {
  const out: Effect[] = [];
  let k = 0;
  let cwds: Cwd[] = cx.cwds;
  for (; k < args.length; k += 1) {
    const w = args[k] as Word;
    const t = literal(w);
    if (t === undefined)
      return [unclassified(cx.what, "`env` with a variable argument", "write it literally")];
    if (
      t === "-i" ||
      t === "--ignore-environment" ||
      t === "-0" ||
      t === "--null" ||
      t === "-v" ||
      t === "--debug" ||
      t === "-"
    )
      continue;
    if (t === "-u" || t === "--unset") {
      k += 1;
      continue;
    }
    if (t.startsWith("--unset=") || (t.startsWith("-u") && t.length > 2)) continue;
    if (t === "-C" || t === "--chdir") {
      cwds = enter(cwds, args[k + 1]);
      k += 1;
      continue;
    }
    if (t.startsWith("--chdir=")) {
      cwds = enter(cwds, { ...w, text: t.slice(8) });
      continue;
    }
    if (t === "--") {
      k += 1;
      break;
    }
    if (t.startsWith("-")) {
      return [
        unclassified(
          cx.what,
          `\`env ${t}\` (e.g. -S splits a string into a command)`,
          "use env NAME=value cmd",
        ),
      ];
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(t);
    if (!m) break;
    out.push({
      kind: "env",
      name: m[1] as string,
      value: { ...w, text: t.slice(m[0].length) },
      what: cx.what,
    });
  }
  const inner = args.slice(k);
  return inner.length === 0 ? out : [...out, ...cx.sub(inner, cwds)];
};

const timeout: Handler = (args, cx, name) => {
  const p = parseArgs(args, {
    posix: true,
    flags: "fpv",
    values: "ks",
    longFlags: ["foreground", "preserve-status", "verbose"],
    longValues: ["kill-after", "signal"],
  });
  if (p.unknown.length > 0 || p.ambiguous.length > 0) {
    return [unclassified(cx.what, `\`${name}\` with an unknown option`, "use timeout DURATION cmd")];
  }
  const inner = p.operands.slice(1);
  return inner.length === 0 ? NONE : cx.sub(inner);
};

const nice: Handler = (args, cx) => {
  let k = 0;
  const t = literal(args[0]);
  if (t === "-n") k = 2;
  else if (t !== undefined && (/^-[0-9]+$/.test(t) || t.startsWith("--adjustment=") || /^-n[0-9-]+$/.test(t)))
    k = 1;
  const inner = args.slice(k);
  return inner.length === 0 ? NONE : cx.sub(inner);
};

const execBuiltin: Handler = (args, cx) => {
  const p = parseArgs(args, { posix: true, flags: "cl", values: "a" });
  if (p.unknown.length > 0 || p.ambiguous.length > 0)
    return [unclassified(cx.what, "`exec` with options", "drop them")];
  // A bare `exec` only sets up redirects (checked separately); with a command it replaces the shell.
  return p.operands.length === 0 ? NONE : [exec(cx.what, "`exec` replaces the shell"), ...cx.sub(p.operands)];
};
const busybox: Handler = (args, cx) => (args.length === 0 ? NONE : cx.sub(args));

export const CORE: HandlerTable = new Map<string, Handler>([
  ...programEntries(PROGRAMS),
  ...Object.entries<Handler>({
    printf,
    file: fileCmd,
    date,
    hostname,
    tree,
    rg,
    find,
    fd,
    fdfind: fd,
    xargs,
    awk,
    gawk: awk,
    mawk: awk,
    nawk: awk,
    sed,
    gsed: sed,
    yq,
    cp,
    mv,
    ln,
    link,
    chmod: attributeChanger("chmod"),
    chown: attributeChanger("chown"),
    chgrp: attributeChanger("chgrp"),
    install,
    dd,
    tar,
    gzip: compressor,
    gunzip: compressor,
    bzip2: compressor,
    bunzip2: compressor,
    xz: compressor,
    unxz: compressor,
    zstd: compressor,
    unzstd: compressor,
    lzma: compressor,
    curl,
    wget,
  }),
  ...Object.entries<Handler>({
    // builtins
    export: assignBuiltin,
    declare: assignBuiltin,
    typeset: assignBuiltin,
    local: assignBuiltin,
    readonly: assignBuiltin,
    unset: (args, cx) =>
      args.some((a) => a.text.includes("[") || a.text.includes("\uE000") || a.dynamic)
        ? [unclassified(cx.what, "`unset` of a subscripted or computed name", "use a plain name")]
        : NONE,
    read,
    getopts,
    command,
    hash,
    trap,
    alias,
    shopt,
    // wrappers
    env,
    timeout,
    gtimeout: timeout,
    nice,
    exec: execBuiltin,
    busybox,
  }),
]);

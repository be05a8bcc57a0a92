/**
 * Interpreters, test runners, type checkers, linters and formatters.
 *
 * Interpreters: inline code (`python -c`, `node -e|--eval|-p`, `perl -e`, `ruby -e`, `php -r`, code fed on stdin
 * by a here-document or pipe …) is refused for every role: it is the usual way around a write guard, and the
 * guard cannot read it. Shell interpreters are the exception: `bash -c 'str'` / `sh -c` / `zsh -c` classify the
 * string itself. Running a script file is an `exec` (the wright may; read-only roles may not). `python -m pip`
 * is an install; `python -m pytest|unittest`, `node --test` are proof commands.
 *
 * Proof commands (`test` effect) are what the proof runner may run besides the read-only allowlist. They write
 * caches and coverage (node_modules/.vite, .pytest_cache, target/, coverage/ …), normally ignored by git; the
 * validator's tree check rejects a read-only result whose candidate moved, so a test run that changes tracked
 * or unignored files is caught behind the guard. Flags that update snapshots or write report files make the
 * command a write instead.
 *
 * Formatters and fixers in write mode (`prettier --write`, `eslint --fix`, `biome check --write`, `black`,
 * `ruff format`, `gofmt -w`, `rustfmt` …) write their file operands: for the wright each must be on the
 * allowlist; with no operand (the whole project) the target is unknown.
 */

import { patchPaths } from "../../patch.js";
import { type CmdCx, type Handler, type HandlerTable, LazyTable } from "../context.js";
import { type Effect, exec, test, unclassified, writes, writeUnknown } from "../effects.js";
import type { Word } from "../parse.js";
import { literal, mayBeOption } from "../words.js";
import { install, testFlags } from "./packages.js";
import { programEntries } from "./program.js";
import { TOOL_PROGRAMS } from "./programs.js";

const NONE: Effect[] = [];

function inline(cx: CmdCx, what: string): Effect {
  return unclassified(
    cx.what,
    `${what} runs inline code the guard cannot read`,
    "use the Edit/Write tools for files; for a computation, put a script in a file inside your allowlist (wright) or report what you need (read-only roles)",
  );
}

interface InterpreterSpec {
  /** Options that take inline code. */
  code: readonly string[];
  /** Options that take a value (skipped). */
  valued?: readonly string[];
  /** Options that only print (version, help). */
  info?: readonly string[];
  /** `-m module` runs a module. */
  module?: string;
  /** `--test` style flags that make it a proof command. */
  proof?: readonly string[];
  /** Options whose presence means a check-only run (`node --check`). */
  check?: readonly string[];
}

const PY_TEST_MODULES = new Set([
  "pytest",
  "unittest",
  "doctest",
  "mypy",
  "pyright",
  "flake8",
  "pylint",
  "ruff",
  "black",
  "isort",
  "tox",
  "nox",
  "coverage",
  "compileall",
]);

function interpreter(spec: InterpreterSpec): Handler {
  return (args, cx, name) => {
    for (let k = 0; k < args.length; k += 1) {
      const w = args[k] as Word;
      const t = literal(w);
      if (t === undefined) {
        if (mayBeOption(w))
          return [unclassified(cx.what, `a variable \`${name}\` option`, "write it literally")];
        return [exec(cx.what, `\`${name}\` runs a script`)];
      }
      const optName = t.split("=")[0] as string;
      if (
        spec.code.includes(optName) ||
        spec.code.some(
          (c) =>
            c.length === 2 &&
            !c.startsWith("--") &&
            t.startsWith("-") &&
            !t.startsWith("--") &&
            t.includes(c[1] as string),
        )
      ) {
        return [inline(cx, `\`${name} ${t}\``)];
      }
      if (spec.info?.includes(t)) return NONE;
      if (spec.check?.includes(t)) return NONE;
      if (spec.proof?.includes(optName)) return [test(cx.what)];
      if (
        spec.module !== undefined &&
        (t === spec.module || (t.startsWith(spec.module) && !t.startsWith("--")))
      ) {
        const mod = t === spec.module ? literal(args[k + 1]) : t.slice(spec.module.length);
        const rest = args.slice(t === spec.module ? k + 2 : k + 1);
        if (mod === undefined)
          return [unclassified(cx.what, `\`${name} -m\` without a literal module`, "write it literally")];
        if (mod === "pip")
          return cx.sub([{ text: "pip", dynamic: false, split: false, glob: false }, ...rest]);
        if (mod === "venv" || mod === "virtualenv" || mod === "ensurepip")
          return [install(cx, `\`${name} -m ${mod}\``)];
        if (PY_TEST_MODULES.has(mod))
          return cx.sub([{ text: mod, dynamic: false, split: false, glob: false }, ...rest]);
        return [exec(cx.what, `\`${name} -m ${mod}\` runs a module`)];
      }
      if (t === "-") return [inline(cx, `\`${name} -\` (code on stdin)`)];
      if (t === "--") {
        const script = args[k + 1];
        if (script === undefined) break;
        // `node -- devrites.js` is still the devrites CLI.
        const s = literal(script);
        return s === undefined ? [exec(cx.what, `\`${name}\` runs a script`)] : scriptEffect(cx, name, s);
      }
      if (t.startsWith("-")) {
        if (spec.valued?.includes(optName) && !t.includes("=")) k += 1;
        continue;
      }
      return scriptEffect(cx, name, t);
    }
    // No script operand: the program comes from stdin (here-document, pipe) or an interactive prompt.
    return [inline(cx, `\`${name}\` without a script file (code on stdin)`)];
  };
}

/** Running a script file; the devrites CLI's own entry point is refused like `devrites`. */
function scriptEffect(cx: CmdCx, name: string, script: string): Effect[] {
  const base = script.slice(script.lastIndexOf("/") + 1).toLowerCase();
  if (base === "devrites" || base.startsWith("devrites."))
    return cx.sub([{ text: "devrites", dynamic: false, split: false, glob: false }]);
  return [exec(cx.what, `\`${name}\` runs a script`)];
}

const python = interpreter({
  code: ["-c"],
  valued: ["-W", "-X", "-Q"],
  info: ["-V", "--version", "-VV", "-h", "--help"],
  module: "-m",
});
const node = interpreter({
  code: ["-e", "--eval", "-p", "--print"],
  valued: [
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "--input-type",
    "--conditions",
    "-C",
    "--env-file",
    "--stack-size",
    "--max-old-space-size",
    "--title",
    "--inspect-port",
    "--test-reporter",
    "--test-reporter-destination",
    "--test-name-pattern",
    "--test-concurrency",
  ],
  info: ["-v", "--version", "-h", "--help", "--v8-options"],
  proof: ["--test"],
  check: ["-c", "--check"],
});
// No check-only form for perl: `perl -c` still runs BEGIN blocks and `use` imports, which are code.
const perl = interpreter({
  code: ["-e", "-E"],
  valued: ["-I", "-M", "-m"],
  info: ["-v", "-V", "--version", "-h"],
});
const ruby = interpreter({
  code: ["-e"],
  valued: ["-I", "-r"],
  info: ["-v", "--version", "-h", "--help"],
  check: ["-c"],
});
const php = interpreter({
  code: ["-r", "-B", "-R", "-E", "-F", "-a"],
  valued: ["-c", "-d", "-f"],
  info: ["-v", "--version", "-h", "-i", "-m"],
});
const lua = interpreter({ code: ["-e"], valued: ["-l"], info: ["-v"] });
const rscript = interpreter({ code: ["-e"], info: ["--version"] });
const pwsh = interpreter({
  code: ["-c", "-command", "-Command", "-encodedcommand", "-EncodedCommand", "-ec", "-e"],
  info: ["-v", "-version"],
});

/** Shells: `-c STRING` is classified as a script; a script file is an exec; stdin code is refused. */
const shell: Handler = (args, cx, name) => {
  for (let k = 0; k < args.length; k += 1) {
    const w = args[k] as Word;
    const t = literal(w);
    if (t === undefined) {
      if (mayBeOption(w))
        return [unclassified(cx.what, `a variable \`${name}\` option`, "write it literally")];
      return [exec(cx.what, `\`${name}\` runs a script file`)];
    }
    if (
      t === "-c" ||
      (t.startsWith("-") && !t.startsWith("--") && !t.startsWith("-o") && t.includes("c") && !t.includes("O"))
    ) {
      const body = args[k + 1];
      const text = literal(body);
      if (text === undefined) return [inline(cx, `\`${name} -c\` with a variable string`)];
      return cx.script(text);
    }
    if (t === "-o" || t === "+o" || t === "-O" || t === "+O" || t === "--rcfile" || t === "--init-file") {
      if (t === "-O" || t === "--rcfile" || t === "--init-file") {
        return [unclassified(cx.what, `\`${name} ${t}\` loads settings or code`, "drop it")];
      }
      k += 1;
      continue;
    }
    if (t === "-s" || t === "-i" || t === "--" || t === "-") {
      if (t === "--" && args[k + 1] !== undefined) return [exec(cx.what, `\`${name}\` runs a script file`)];
      if (t === "-i") return [inline(cx, `\`${name} -i\` (interactive)`)];
      break;
    }
    if (t === "--version" || t === "--help") return NONE;
    if (t.startsWith("-") || t.startsWith("+")) continue;
    return [exec(cx.what, `\`${name}\` runs a script file`)];
  }
  // The script comes from stdin: a single literal here-document is classified like `-c`; a pipe is refused.
  const only = cx.heredocs[0];
  if (cx.heredocs.length === 1 && only !== undefined && !only.expands && !cx.pipedIn)
    return cx.script(only.body);
  return [inline(cx, `\`${name}\` without a script file (code on stdin)`)];
};

// ---------------------------------------------------------------- test runners and checkers

const SNAPSHOT = [
  "-u",
  "--update",
  "--updateSnapshot",
  "--update-snapshots",
  "--snapshot-update",
  "--force-regen",
  "--snapshot",
  "--ci=false",
];
const REPORT = [
  "--outputFile",
  "--output-file",
  "--junitxml",
  "--junit-xml",
  "--html",
  "--json-report-file",
  "--reporter-output",
];

const runner: Handler = (args, cx) => testFlags(args, cx, SNAPSHOT, REPORT);

const vitest: Handler = (args, cx) => {
  const sub = literal(args[0]);
  if (sub === "init") return [writeUnknown(cx.what, "`vitest init` writes configuration")];
  return testFlags(args, cx, SNAPSHOT, REPORT);
};

const jest: Handler = (args, cx) =>
  args.some((a) => literal(a) === "--init")
    ? [writeUnknown(cx.what, "`jest --init` writes configuration")]
    : testFlags(args, cx, SNAPSHOT, REPORT);

const playwright: Handler = (args, cx) => {
  const sub = literal(args[0]);
  if (sub === "install" || sub === "install-deps" || sub === "uninstall")
    return [install(cx, `\`playwright ${sub}\``)];
  if (sub === "test") return testFlags(args.slice(1), cx, SNAPSHOT, REPORT);
  if (sub === "--version" || sub === "--help") return NONE;
  return [exec(cx.what, `\`playwright ${sub ?? ""}\``)];
};

const cypress: Handler = (args, cx) => {
  const sub = literal(args[0]);
  if (sub === "install" || sub === "cache") return [install(cx, `\`cypress ${sub}\``)];
  if (sub === "run" || sub === "verify") return [test(cx.what)];
  return [exec(cx.what, `\`cypress ${sub ?? ""}\``)];
};

const tsc: Handler = (args, cx) => {
  const texts = args.map((a) => (literal(a) ?? "").toLowerCase());
  if (
    texts.some((t) =>
      ["-v", "--version", "-h", "--help", "--showconfig", "--listfilesonly", "--all"].includes(t),
    )
  )
    return NONE;
  if (texts.includes("--init")) return [writeUnknown(cx.what, "`tsc --init` writes tsconfig.json")];
  const noEmit = texts.some((t, i) => (t === "--noemit" || t === "-noemit") && texts[i + 1] !== "false");
  return noEmit ? [test(cx.what)] : [exec(cx.what, "tsc emits build output; add --noEmit for a type check")];
};

const vueTsc: Handler = (args, cx) =>
  args.some((a) => (literal(a) ?? "").toLowerCase() === "--noemit")
    ? [test(cx.what)]
    : [exec(cx.what, "vue-tsc emits declarations; add --noEmit")];

// ---------------------------------------------------------------- formatters and fixers

interface FormatterSpec {
  /** Options that make it write (`--write`, `--fix`, `-i` …); `always` when it writes unless a check flag is given. */
  write: readonly string[] | "always";
  /** Options that make it a check (`--check`, `--diff`, `-l` …). */
  check?: readonly string[];
  /** Options that take a value (to find the file operands). */
  valued?: readonly string[];
  /** Options that write a report file. */
  output?: readonly string[];
  /**
   * Subcommands (`ruff format`, `biome check`): "default" writes as `write` says, "rewrite" writes unless a
   * check flag is given, "check" writes only with a write flag.
   */
  sub?: Record<string, "default" | "rewrite" | "check" | "write-unknown" | "exec">;
}

function formatter(spec: FormatterSpec): Handler {
  return (args, cx, name) => {
    let rest = args;
    let mode: "default" | "rewrite" | "check" = "default";
    if (spec.sub) {
      const s = literal(args[0]);
      const kind = s === undefined ? undefined : spec.sub[s];
      if (s === "--version" || s === "--help" || s === "-V" || s === "-h") return NONE;
      if (kind === undefined) return [exec(cx.what, `\`${name} ${s ?? ""}\``)];
      if (kind === "write-unknown") return [writeUnknown(cx.what, `\`${name} ${s}\` writes files`)];
      if (kind === "exec") return [exec(cx.what, `\`${name} ${s}\``)];
      mode = kind;
      rest = args.slice(1);
    }
    let writing = mode === "rewrite" || (mode === "default" && spec.write === "always");
    let checking = false;
    const operands: Word[] = [];
    const out: Effect[] = [];
    for (let k = 0; k < rest.length; k += 1) {
      const w = rest[k] as Word;
      const t = literal(w);
      if (t === undefined) {
        if (mayBeOption(w))
          return [writeUnknown(cx.what, `a variable \`${name}\` argument may be a write option`)];
        operands.push(w);
        continue;
      }
      const opt = t.split("=")[0] as string;
      if (spec.check?.includes(opt)) checking = true;
      else if (spec.write !== "always" && spec.write.includes(opt)) writing = true;
      else if (spec.output?.includes(opt)) {
        const v = t.includes("=") ? { ...w, text: t.slice(t.indexOf("=") + 1) } : rest[++k];
        if (v) out.push(...writes(cx.what, [v], cx.cwds));
      } else if (t.startsWith("-")) {
        if (spec.valued?.includes(opt) && !t.includes("=")) k += 1;
      } else operands.push(w);
    }
    if (writing && !checking) {
      if (operands.length === 0)
        return [writeUnknown(cx.what, `\`${name}\` in write mode without files rewrites the whole project`)];
      return [...out, ...writes(cx.what, operands, cx.cwds)];
    }
    return [...out, test(cx.what)];
  };
}

const prettier = formatter({
  write: ["--write", "-w"],
  check: ["--check", "-c", "--list-different", "-l"],
  valued: [
    "--config",
    "--ignore-path",
    "--plugin",
    "--parser",
    "--stdin-filepath",
    "--cache-location",
    "--cache-strategy",
    "--log-level",
    "--print-width",
    "--tab-width",
    "--end-of-line",
    "--trailing-comma",
    "--arrow-parens",
    "--prose-wrap",
    "--quote-props",
    "--html-whitespace-sensitivity",
    "--embedded-language-formatting",
    "--experimental-operator-position",
    "--object-wrap",
    "--cursor-offset",
    "--range-start",
    "--range-end",
    "--config-precedence",
  ],
});

const biome = formatter({
  write: ["--write", "--fix", "--apply", "--apply-unsafe"],
  valued: [
    "--config-path",
    "--max-diagnostics",
    "--diagnostic-level",
    "--reporter",
    "--log-level",
    "--log-kind",
    "--stdin-file-path",
    "--files-max-size",
    "--vcs-root",
    "--vcs-client-kind",
    "--changed-since",
    "--since",
    "--only",
    "--skip",
  ],
  sub: {
    check: "check",
    lint: "check",
    format: "check",
    ci: "check",
    migrate: "write-unknown",
    init: "write-unknown",
    search: "check",
    explain: "check",
    version: "check",
    rage: "check",
    "lsp-proxy": "exec",
    start: "exec",
    stop: "exec",
    clean: "write-unknown",
  },
});

const eslint = formatter({
  write: ["--fix"],
  check: ["--fix-dry-run"],
  output: ["-o", "--output-file"],
  valued: [
    "-c",
    "--config",
    "--ext",
    "--parser",
    "--parser-options",
    "--resolve-plugins-relative-to",
    "--rulesdir",
    "--plugin",
    "--rule",
    "--ignore-path",
    "--ignore-pattern",
    "--stdin-filename",
    "-f",
    "--format",
    "--max-warnings",
    "--cache-location",
    "--cache-strategy",
    "--env",
    "--global",
    "--fix-type",
    "--report-unused-disable-directives-severity",
    "--flag",
    "--concurrency",
  ],
});

const stylelint = formatter({
  write: ["--fix"],
  output: ["-o", "--output-file"],
  valued: [
    "-c",
    "--config",
    "--config-basedir",
    "--ignore-path",
    "-i",
    "--ignore-pattern",
    "--custom-syntax",
    "-f",
    "--formatter",
    "--max-warnings",
    "--cache-location",
    "--stdin-filename",
  ],
});

const markdownlint = formatter({
  write: ["--fix"],
  output: ["-o", "--output"],
  valued: ["-c", "--config", "-i", "--ignore", "-p", "--ignore-path", "-r", "--rules"],
});

const ruff = formatter({
  write: ["--fix", "--unsafe-fixes"],
  check: ["--check", "--diff", "--no-fix"],
  output: ["-o", "--output-file"],
  valued: [
    "--config",
    "--select",
    "--ignore",
    "--extend-select",
    "--extend-ignore",
    "--target-version",
    "--line-length",
    "--output-format",
    "--exclude",
    "--extend-exclude",
    "--per-file-ignores",
    "--cache-dir",
    "--stdin-filename",
    "--fixable",
    "--unfixable",
  ],
  sub: {
    check: "check",
    format: "rewrite",
    rule: "check",
    config: "check",
    linter: "check",
    version: "check",
    clean: "write-unknown",
    server: "exec",
    analyze: "check",
  },
});

const black = formatter({
  write: "always",
  check: ["--check", "--diff", "-c", "--code"],
  valued: [
    "-l",
    "--line-length",
    "-t",
    "--target-version",
    "--include",
    "--exclude",
    "--extend-exclude",
    "--force-exclude",
    "--stdin-filename",
    "--config",
    "-W",
    "--workers",
    "--required-version",
    "--python-cell-magics",
  ],
});

const isort = formatter({
  write: "always",
  check: ["--check", "--check-only", "-c", "--diff", "--df", "--show-files"],
  valued: [
    "--settings-path",
    "--settings-file",
    "--sp",
    "-p",
    "--project",
    "-l",
    "--line-length",
    "--profile",
    "-j",
    "--jobs",
    "--skip",
    "-s",
    "--skip-glob",
  ],
});

const autopep8 = formatter({
  write: ["-i", "--in-place"],
  valued: ["--select", "--ignore", "--max-line-length", "-j", "--jobs", "--global-config", "--exit-code"],
});
const gofmt = formatter({ write: ["-w"], check: ["-l", "-d"], valued: ["-r"] });
const rustfmt = formatter({
  write: "always",
  check: ["--check"],
  valued: ["--edition", "--config-path", "--config", "--emit", "--color"],
});
const clangFormat = formatter({
  write: ["-i"],
  check: ["--dry-run", "-n"],
  valued: ["--style", "--assume-filename", "--lines", "--offset", "--length", "--fallback-style"],
});
const shfmt = formatter({
  write: ["-w", "--write"],
  check: ["-l", "-d", "--list", "--diff"],
  valued: ["-i", "--indent", "-ln", "--language-dialect", "-f", "--find", "--filename"],
});
const rubocop = formatter({
  write: [
    "-a",
    "-A",
    "--autocorrect",
    "--autocorrect-all",
    "--auto-correct",
    "--auto-correct-all",
    "-x",
    "--fix-layout",
  ],
  output: ["-o", "--out"],
  valued: ["-c", "--config", "-f", "--format", "--only", "--except", "--require", "-r"],
});
const dprint = formatter({
  write: ["--write"],
  sub: {
    fmt: "rewrite",
    check: "check",
    "output-file-paths": "check",
    "output-resolved-config": "check",
    init: "write-unknown",
    upgrade: "write-unknown",
    config: "write-unknown",
    lsp: "exec",
  },
  valued: ["-c", "--config", "--excludes", "--plugins"],
});
const deno: Handler = (args, cx) => {
  const sub = literal(args[0]);
  if (sub === undefined)
    return args.length === 0
      ? [inline(cx, "`deno` (REPL)")]
      : [unclassified(cx.what, "a variable deno command", "write it literally")];
  if (sub === "eval" || sub === "repl") return [inline(cx, `\`deno ${sub}\``)];
  if (
    ["install", "add", "remove", "uninstall", "upgrade", "outdated", "cache", "vendor", "init"].includes(sub)
  )
    return [install(cx, `\`deno ${sub}\``)];
  if (sub === "test" || sub === "check" || sub === "lint" || sub === "bench") {
    return args.some((a) => literal(a) === "--fix")
      ? [writeUnknown(cx.what, "`deno lint --fix` rewrites sources")]
      : [test(cx.what)];
  }
  if (sub === "fmt") return formatter({ write: "always", check: ["--check"] })(args.slice(1), cx, "deno fmt");
  if (sub === "--version" || sub === "-V" || sub === "--help" || sub === "info" || sub === "doc") return NONE;
  return [exec(cx.what, `\`deno ${sub}\` runs code`)];
};

const dotnet: Handler = (args, cx) => {
  const sub = literal(args[0]);
  if (sub === "test") return [test(cx.what)];
  if (
    sub === "restore" ||
    sub === "add" ||
    sub === "remove" ||
    sub === "tool" ||
    sub === "workload" ||
    sub === "new"
  )
    return [install(cx, `\`dotnet ${sub}\``)];
  if (sub === "format")
    return args.some((a) => literal(a) === "--verify-no-changes")
      ? [test(cx.what)]
      : [writeUnknown(cx.what, "`dotnet format` rewrites sources")];
  if (sub === "nuget") return [install(cx, "`dotnet nuget`")];
  if (sub === "--version" || sub === "--info" || sub === "--list-sdks" || sub === "--list-runtimes")
    return NONE;
  return [exec(cx.what, `\`dotnet ${sub ?? ""}\` builds or runs code`)];
};

/** Build tools: named proof goals are proof commands; anything else builds or runs code. */
function goals(tool: string, proof: readonly string[], installs: readonly string[] = []): Handler {
  return (args, cx) => {
    const targets = args
      .map((a) => literal(a))
      .filter((t): t is string => t !== undefined && !t.startsWith("-") && !t.includes("="));
    if (args.some((a) => a.dynamic)) return [exec(cx.what, `\`${tool}\` with a variable argument`)];
    if (targets.some((t) => installs.includes(t))) return [install(cx, `\`${tool} ${targets.join(" ")}\``)];
    // A dry run is no exemption: `make -n` still runs `+` recipe lines and `$(shell …)`, and every build tool
    // evaluates its build file (Makefile, Rakefile, build.gradle, justfile backticks), which is code.
    if (args.length > 0 && args.every((a) => literal(a) === "--version")) return NONE;
    if (targets.length > 0 && targets.every((t) => proof.includes(t))) return [test(cx.what)];
    return [exec(cx.what, `\`${[tool, ...targets].join(" ")}\` builds or runs code`)];
  };
}

const PROOF_GOALS = ["test", "tests", "check", "checks", "lint", "typecheck", "verify", "spec", "ci"];

const mix: Handler = (args, cx) => {
  const sub = literal(args[0]);
  if (sub === "test" || sub === "credo" || sub === "dialyzer") return [test(cx.what)];
  if (sub === "format")
    return args.some((a) => literal(a) === "--check-formatted")
      ? [test(cx.what)]
      : [writeUnknown(cx.what, "`mix format` rewrites sources")];
  if (sub === "deps.get" || sub === "deps.update" || sub === "local.hex" || sub === "archive.install")
    return [install(cx, `\`mix ${sub}\``)];
  return [exec(cx.what, `\`mix ${sub ?? ""}\``)];
};

const swift: Handler = (args, cx) => {
  const sub = literal(args[0]);
  if (sub === "test") return [test(cx.what)];
  if (sub === "package") return [install(cx, "`swift package`")];
  return [exec(cx.what, `\`swift ${sub ?? ""}\``)];
};

/** Coverage wrappers: `c8 vitest run`, `nyc mocha`. */
const coverageWrapper: Handler = (args, cx) => {
  let k = 0;
  while (k < args.length && (literal(args[k]) ?? "").startsWith("-")) k += 1;
  if (literal(args[k]) === "report" || literal(args[k]) === "check-coverage") return [test(cx.what)];
  return args.length > k ? cx.sub(args.slice(k)) : [test(cx.what)];
};

/** Codex's `apply_patch` as a command: the patch comes from a here-document or the first argument. */
const applyPatch: Handler = (args, cx) => {
  const doc = cx.heredocs[0];
  if (doc?.expands && doc.body.includes("$")) {
    return [
      writeUnknown(cx.what, "an unquoted here-document patch may expand variables into new file markers"),
    ];
  }
  const body = doc?.body ?? literal(args[0]);
  if (body === undefined) return [writeUnknown(cx.what, "apply_patch without a literal patch")];
  const p = patchPaths(body);
  if (!p.ok) return [writeUnknown(cx.what, `a malformed patch (${p.why})`)];
  return writes(
    cx.what,
    p.paths.map((x) => ({ text: x.path, dynamic: false, split: false, glob: false })),
    cx.cwds,
  );
};

export const TOOLS: HandlerTable = new LazyTable(
  () =>
    new Map([
      ...programEntries(TOOL_PROGRAMS),
      ...Object.entries<Handler>({
        apply_patch: applyPatch,
        applypatch: applyPatch,
        python,
        python3: python,
        py: python,
        pypy: python,
        pypy3: python,
        node,
        nodejs: node,
        perl,
        ruby,
        php,
        lua,
        luajit: lua,
        rscript,
        pwsh,
        powershell: pwsh,
        bash: shell,
        sh: shell,
        zsh: shell,
        dash: shell,
        ksh: shell,
        mksh: shell,
        ash: shell,
        fish: shell,
        deno,
        dotnet,
        vitest,
        jest,
        mocha: runner,
        ava: runner,
        tap: runner,
        pytest: runner,
        "py.test": runner,
        rspec: runner,
        phpunit: runner,
        ctest: runner,
        playwright,
        cypress,
        tsc,
        "vue-tsc": vueTsc,
        prettier,
        biome,
        eslint,
        stylelint,
        markdownlint,
        "markdownlint-cli2": markdownlint,
        ruff,
        black,
        isort,
        autopep8,
        gofmt,
        goimports: gofmt,
        rustfmt,
        "clang-format": clangFormat,
        shfmt,
        rubocop,
        dprint,
        make: goals("make", PROOF_GOALS),
        gmake: goals("make", PROOF_GOALS),
        just: goals("just", PROOF_GOALS),
        rake: goals("rake", [...PROOF_GOALS, "spec"]),
        rails: goals("rails", ["test"]),
        mvn: goals("mvn", ["test", "verify", "validate"], ["dependency:get", "dependency:resolve"]),
        mvnw: goals("mvn", ["test", "verify", "validate"], ["dependency:get", "dependency:resolve"]),
        gradle: goals("gradle", ["test", "check"]),
        gradlew: goals("gradle", ["test", "check"]),
        mix,
        swift,
        c8: coverageWrapper,
        nyc: coverageWrapper,
      }),
    ]),
);

/**
 * Package managers, package runners, publishing, agent CLIs and the devrites CLI itself.
 *
 * Installs (guard.install): any verb that adds, removes, updates or downloads dependencies or tools —
 * `npm|pnpm|yarn|bun install|i|add|ci|update|remove|link…`, bare `yarn`/`bundle`, `pip install`,
 * `uv add|sync|pip install`, `uv run` (it syncs the environment unless `--no-sync`), `poetry add|install|lock`,
 * `cargo add|install|update|fetch`, `go get|install|mod tidy|mod download`, `gem install`, `bundle install`,
 * system package managers, version managers, and package runners that download: `npx` of a package that is not
 * installed locally (decided by `ctx.hasLocalBin`), `npx --yes|-p`, `pnpm dlx`, `yarn dlx`, `bunx` (when not
 * local), `uvx`, `pipx run`.
 *
 * Publishing (guard.publish): `npm publish|version|unpublish|deprecate|dist-tag`, `pnpm|yarn|bun publish`,
 * `cargo publish|yank`, `twine upload`, `gem push|yank`, `poetry publish`, mutating `gh` commands.
 *
 * Scripts: `npm test` and `npm run <script>` (same for pnpm, yarn, bun) count as proof commands only when the
 * script's name says it checks (test, check, typecheck, lint, verify, ci, coverage, e2e, spec, bench …) and does
 * not say it changes things (fix, format, write, update, snapshot, build, release, …). The guard cannot read
 * package.json; the validator's tree check is the layer behind a script that writes anyway.
 */

import { type CmdCx, type Handler, type HandlerTable, LazyTable } from "../context.js";
import { deny, type Effect, exec, test, unclassified, writeUnknown } from "../effects.js";
import { type Word, word } from "../parse.js";
import { literal } from "../words.js";
import { programEntries } from "./program.js";
import { PACKAGE_PROGRAMS } from "./programs.js";

const NONE: Effect[] = [];

const PROOF_SCRIPT = [
  "test",
  "tests",
  "check",
  "checks",
  "typecheck",
  "type-check",
  "types",
  "tsc",
  "lint",
  "verify",
  "validate",
  "ci",
  "coverage",
  "e2e",
  "spec",
  "bench",
  "proof",
  "prove",
];
const MUTATING_SCRIPT = [
  "fix",
  "format",
  "fmt",
  "write",
  "update",
  "snap",
  "build",
  "release",
  "publish",
  "deploy",
  "install",
  "clean",
  "gen",
  "migrate",
  "seed",
  "bump",
  "version",
];

/** Whether a package-script name reads as a proof step (see the module comment). */
export function isProofScript(name: string): boolean {
  const n = name.toLowerCase();
  if (MUTATING_SCRIPT.some((m) => n.includes(m))) return false;
  return PROOF_SCRIPT.some(
    (p) =>
      n === p ||
      n.startsWith(`${p}:`) ||
      n.startsWith(`${p}-`) ||
      n.startsWith(`${p}.`) ||
      n.startsWith(`${p}_`),
  );
}

export function install(cx: CmdCx, what: string): Effect {
  return deny(
    "guard.install",
    cx.what,
    `${what} installs or downloads dependencies`,
    "leaves never change dependencies; report the missing package and let the root decide",
  );
}

function publish(cx: CmdCx, what: string): Effect {
  return deny(
    "guard.publish",
    cx.what,
    `${what} publishes or releases`,
    "leaves never publish; report it to the root",
  );
}

/** Script names that say they rewrite files (`format`, `lint:fix`, `test:update-snapshots` …). */
const REWRITING_SCRIPT = ["fix", "format", "fmt", "write", "snap", "prettier"];

function script(cx: CmdCx, runner: string, name: Word | undefined): Effect {
  const n = literal(name);
  if (n === undefined)
    return unclassified(cx.what, `\`${runner} run\` with a variable script name`, "write it literally");
  if (REWRITING_SCRIPT.some((m) => n.toLowerCase().includes(m))) {
    return writeUnknown(cx.what, `the script \`${n}\` rewrites files the guard cannot list`);
  }
  return isProofScript(n)
    ? test(cx.what)
    : exec(cx.what, `the script \`${n}\` is not a proof script (test, check, lint, typecheck, verify …)`);
}

/**
 * When the first operand is not a known verb (an unknown option may have taken it as its value), an install verb
 * anywhere later still counts: `pip --index-url URL install x`.
 */
function laterInstall(
  args: readonly Word[],
  verbs: ReadonlySet<string> | readonly string[],
): string | undefined {
  const set = verbs instanceof Set ? verbs : new Set(verbs as readonly string[]);
  for (const a of args) {
    const t = literal(a);
    if (t !== undefined && set.has(t)) return t;
  }
  return undefined;
}

/** Skips leading options; `valued` take the next word. Returns the index of the first operand. */
function skipOptions(args: readonly Word[], valued: readonly string[]): number {
  let k = 0;
  while (k < args.length) {
    const t = literal(args[k]);
    if (t === undefined || !t.startsWith("-") || t === "-") break;
    if (t === "--") return k + 1;
    k += valued.includes(t) ? 2 : 1;
  }
  return k;
}

/** npx / bunx / `npm exec` / `pnpm dlx`: runs a package's binary, downloading it when it is not installed. */
function runPackage(args: readonly Word[], cx: CmdCx, runner: string, alwaysDownloads: boolean): Effect[] {
  let forced = alwaysDownloads;
  let noInstall = false;
  let k = 0;
  for (; k < args.length; k += 1) {
    const t = literal(args[k]);
    if (t === undefined)
      return [unclassified(cx.what, `a variable ${runner} argument`, "write it literally")];
    if (!t.startsWith("-")) break;
    if (t === "--") {
      k += 1;
      break;
    }
    if (t === "-y" || t === "--yes" || t === "--ignore-existing" || t.startsWith("--package=")) forced = true;
    else if (t === "-p" || t === "--package") {
      forced = true;
      k += 1;
    } else if (t === "--no" || t === "--no-install" || t === "--yes=false") noInstall = true;
    else if (t === "-c" || t === "--call") {
      return [unclassified(cx.what, `\`${runner} -c\` runs a shell string`, "run the command directly")];
    } else if (t === "-w" || t === "--workspace" || t === "--prefix") k += 1;
  }
  const pkg = literal(args[k]);
  if (pkg === undefined) return [unclassified(cx.what, `\`${runner}\` without a package`, "name the binary")];
  const versioned = pkg.lastIndexOf("@") > 0;
  const scoped = pkg.startsWith("@");
  const bin = scoped ? ((pkg.split("/")[1] ?? pkg).split("@")[0] ?? pkg) : (pkg.split("@")[0] ?? pkg);
  if (forced || versioned || (!noInstall && !(cx.hasLocalBin?.(bin) ?? false))) {
    return [install(cx, `\`${runner} ${pkg}\` (not an installed local binary)`)];
  }
  return cx.sub([word(bin), ...args.slice(k + 1)]);
}

const NPM_INSTALL = new Set([
  "install",
  "i",
  "in",
  "ins",
  "inst",
  "insta",
  "instal",
  "isnt",
  "isnta",
  "isntal",
  "isntall",
  "add",
  "ci",
  "clean-install",
  "ic",
  "install-clean",
  "isntall-clean",
  "install-ci-test",
  "cit",
  "clean-install-test",
  "sit",
  "install-test",
  "it",
  "update",
  "up",
  "upgrade",
  "udpate",
  "uninstall",
  "unlink",
  "remove",
  "rm",
  "r",
  "un",
  "link",
  "ln",
  "dedupe",
  "ddp",
  "prune",
  "rebuild",
  "rb",
  "shrinkwrap",
  "init",
  "create",
  "innit",
]);
const NPM_PUBLISH = new Set([
  "publish",
  "unpublish",
  "deprecate",
  "dist-tag",
  "dist-tags",
  "version",
  "owner",
  "access",
  "team",
  "token",
  "star",
  "unstar",
]);
const NPM_READ = new Set([
  "ls",
  "list",
  "la",
  "ll",
  "view",
  "v",
  "info",
  "show",
  "outdated",
  "explain",
  "why",
  "search",
  "s",
  "se",
  "find",
  "fund",
  "doctor",
  "prefix",
  "root",
  "bin",
  "whoami",
  "ping",
  "help",
  "help-search",
  "query",
  "sbom",
  "diff",
  "--version",
  "-v",
]);

const npm: Handler = (args, cx) => {
  const k = skipOptions(args, [
    "--prefix",
    "-w",
    "--workspace",
    "--registry",
    "--loglevel",
    "--userconfig",
    "--cache",
    "-C",
  ]);
  const first = literal(args[0]);
  if (first === "--version" || first === "-v" || first === "--help" || first === "-h") return NONE;
  const cmdWord = args[k];
  if (cmdWord === undefined) return NONE;
  const cmd = literal(cmdWord);
  if (cmd === undefined) return [unclassified(cx.what, "a variable npm command", "write it literally")];
  const rest = args.slice(k + 1);
  if (NPM_INSTALL.has(cmd)) return [install(cx, `\`npm ${cmd}\``)];
  if (NPM_PUBLISH.has(cmd)) return [publish(cx, `\`npm ${cmd}\``)];
  if (cmd === "audit")
    return rest.some((a) => literal(a) === "fix") ? [install(cx, "`npm audit fix`")] : NONE;
  // `npm pkg get` reads; set, delete, fix (or a variable that may be one of them) rewrite package.json.
  if (cmd === "pkg")
    return rest.length === 0 || literal(rest[0]) === "get"
      ? NONE
      : [install(cx, `\`npm pkg ${literal(rest[0]) ?? "…"}\``)];
  if (cmd === "config" || cmd === "c")
    return ["get", "list", "ls"].includes(literal(rest[0]) ?? "") ? NONE : [install(cx, "`npm config set`")];
  if (cmd === "cache")
    return ["ls", "verify"].includes(literal(rest[0]) ?? "") ? NONE : [install(cx, "`npm cache`")];
  if (cmd === "test" || cmd === "t" || cmd === "tst") return [test(cx.what)];
  if (cmd === "run" || cmd === "run-script" || cmd === "rum" || cmd === "urn") {
    const s = skipOptions(rest, ["-w", "--workspace"]);
    return rest[s] === undefined ? NONE : [script(cx, "npm", rest[s])];
  }
  if (cmd === "exec" || cmd === "x") return runPackage(rest, cx, "npm exec", false);
  if (cmd === "pack") return [writeUnknown(cx.what, "`npm pack` writes a tarball")];
  if (cmd === "edit" || cmd === "explore")
    return [unclassified(cx.what, `\`npm ${cmd}\` opens an editor or a shell`, "drop it")];
  if (NPM_READ.has(cmd)) return NONE;
  const later = laterInstall(rest, NPM_INSTALL);
  if (later !== undefined) return [install(cx, `\`npm … ${later}\``)];
  return [exec(cx.what, `\`npm ${cmd}\` runs package code`)];
};

const PNPM_INSTALL = new Set([
  "install",
  "i",
  "add",
  "update",
  "up",
  "upgrade",
  "remove",
  "rm",
  "un",
  "uninstall",
  "unlink",
  "link",
  "ln",
  "prune",
  "rebuild",
  "rb",
  "import",
  "fetch",
  "dedupe",
  "setup",
  "self-update",
  "install-test",
  "it",
  "patch",
  "patch-commit",
  "patch-remove",
  "env",
  "create",
  "init",
]);

function pmRun(
  runner: string,
  install_: Set<string>,
  opts: { bareInstalls?: boolean; read?: string[] },
): Handler {
  return (args, cx) => {
    const first = literal(args[0]);
    if (first === "--version" || first === "-v" || first === "--help" || first === "-h") return NONE;
    const k = skipOptions(args, ["--dir", "-C", "--filter", "-F", "--cwd", "--workspace", "-w"]);
    const cmdWord = args[k];
    if (cmdWord === undefined) return opts.bareInstalls ? [install(cx, `bare \`${runner}\``)] : NONE;
    const cmd = literal(cmdWord);
    if (cmd === undefined)
      return [unclassified(cx.what, `a variable ${runner} command`, "write it literally")];
    const rest = args.slice(k + 1);
    if (install_.has(cmd)) return [install(cx, `\`${runner} ${cmd}\``)];
    if (cmd === "dlx") return [install(cx, `\`${runner} dlx\``)];
    if (cmd === "publish" || cmd === "version" || cmd === "npm" || cmd === "release") {
      return cmd === "npm" && literal(rest[0]) !== "publish"
        ? [exec(cx.what, `\`${runner} npm\``)]
        : [publish(cx, `\`${runner} ${cmd}\``)];
    }
    if (cmd === "test" || cmd === "t") return [test(cx.what)];
    if (cmd === "run" || cmd === "run-script") {
      const s = skipOptions(rest, ["--filter", "-F"]);
      return rest[s] === undefined ? NONE : [script(cx, runner, rest[s])];
    }
    if (cmd === "exec") {
      const s = skipOptions(rest, []);
      return rest[s] === undefined ? NONE : cx.sub(rest.slice(s));
    }
    if (cmd === "pack") return [writeUnknown(cx.what, `\`${runner} pack\` writes a tarball`)];
    if (opts.read?.includes(cmd)) return NONE;
    // `pnpm <name>` / `yarn <name>` runs a script of that name, or a local binary: never a download.
    if (isProofScript(cmd)) return [test(cx.what)];
    if (REWRITING_SCRIPT.some((m) => cmd.toLowerCase().includes(m))) return [script(cx, runner, cmdWord)];
    const inner = cx.sub(args.slice(k));
    return inner.length > 0 ? inner : [exec(cx.what, `\`${runner} ${cmd}\` runs a script or binary`)];
  };
}

const pnpm = pmRun("pnpm", PNPM_INSTALL, {
  read: [
    "list",
    "ls",
    "ll",
    "la",
    "outdated",
    "why",
    "view",
    "info",
    "audit",
    "licenses",
    "root",
    "bin",
    "store",
    "config",
  ],
});
const yarn = pmRun(
  "yarn",
  new Set([
    "install",
    "add",
    "remove",
    "upgrade",
    "up",
    "upgrade-interactive",
    "dedupe",
    "link",
    "unlink",
    "import",
    "create",
    "set",
    "plugin",
    "workspaces",
    "init",
    "global",
    "autoclean",
    "generate-lock-entry",
  ]),
  {
    bareInstalls: true,
    read: ["list", "info", "why", "outdated", "config", "licenses", "owner", "bin", "cache", "explain"],
  },
);

const bun: Handler = (args, cx) => {
  const first = literal(args[0]);
  if (first === undefined && args.length > 0)
    return [unclassified(cx.what, "a variable bun command", "write it literally")];
  if (
    first === undefined ||
    first === "--version" ||
    first === "-v" ||
    first === "--help" ||
    first === "-h" ||
    first === "--revision"
  )
    return NONE;
  if (first === "-e" || first === "--eval" || first === "-p" || first === "--print") {
    return [
      unclassified(
        cx.what,
        "`bun -e` runs inline code",
        "put the code in a file inside your allowlist, or use Edit",
      ),
    ];
  }
  const rest = args.slice(1);
  if (
    [
      "install",
      "i",
      "add",
      "a",
      "remove",
      "rm",
      "update",
      "link",
      "unlink",
      "create",
      "c",
      "init",
      "upgrade",
      "patch",
      "patch-commit",
    ].includes(first)
  ) {
    return [install(cx, `\`bun ${first}\``)];
  }
  if (first === "x") return runPackage(rest, cx, "bun x", false);
  if (first === "publish") return [publish(cx, "`bun publish`")];
  if (first === "pm")
    return literal(rest[0]) === "ls" || literal(rest[0]) === "bin" ? NONE : [install(cx, "`bun pm`")];
  if (first === "test") return testFlags(rest, cx, ["-u", "--update-snapshots"]);
  if (first === "run") {
    const s = skipOptions(rest, ["--cwd"]);
    const name = literal(rest[s]);
    if (name !== undefined && (name.includes("/") || name.includes(".")))
      return [exec(cx.what, "`bun run` of a file")];
    return rest[s] === undefined ? NONE : [script(cx, "bun", rest[s])];
  }
  if (first.includes("/") || first.includes(".")) return [exec(cx.what, "`bun` runs a file")];
  return isProofScript(first) ? [test(cx.what)] : [exec(cx.what, `\`bun ${first}\` runs a script or file`)];
};

/** Test runners' snapshot-update and report-file flags write files; anything else is a test run. */
export function testFlags(
  args: readonly Word[],
  cx: CmdCx,
  update: readonly string[],
  output: readonly string[] = [],
): Effect[] {
  for (const a of args) {
    const t = literal(a);
    if (t === undefined) {
      if (a.split || a.text.startsWith("\u0000"))
        return [writeUnknown(cx.what, "a variable argument could be a snapshot-update flag")];
      continue;
    }
    const name = t.split("=")[0] as string;
    const shortBundle =
      /^-[A-Za-z]+$/.test(t) &&
      update.some((u) => u.length === 2 && u.startsWith("-") && t.includes(u.slice(1)));
    if (update.includes(name) || update.includes(t) || shortBundle)
      return [writeUnknown(cx.what, `\`${t}\` updates snapshot files`)];
    if (output.includes(name)) return [writeUnknown(cx.what, `\`${t}\` writes a report file`)];
  }
  return [test(cx.what)];
}

function verbInstalls(
  tool: string,
  installs: readonly string[],
  read: readonly string[] = [],
  extra?: Handler,
): Handler {
  return (args, cx, name) => {
    const k = skipOptions(args, []);
    const verb = literal(args[k]);
    const first = literal(args[0]);
    if (first === "--version" || first === "-v" || first === "-V" || first === "--help" || first === "-h")
      return NONE;
    if (verb === undefined)
      return args[k] === undefined
        ? NONE
        : [unclassified(cx.what, `a variable ${tool} verb`, "write it literally")];
    if (installs.includes(verb)) return [install(cx, `\`${tool} ${verb}\``)];
    if (read.includes(verb)) return NONE;
    const later = laterInstall(args.slice(k + 1), installs);
    if (later !== undefined) return [install(cx, `\`${tool} … ${later}\``)];
    return extra ? extra(args.slice(k), cx, name) : [exec(cx.what, `\`${tool} ${verb}\``)];
  };
}

const pip = verbInstalls(
  "pip",
  ["install", "uninstall", "download", "wheel"],
  ["list", "show", "freeze", "check", "debug", "inspect", "hash", "search", "index", "help", "cache"],
);

const uv: Handler = (args, cx) => {
  const first = literal(args[0]);
  if (first === "--version" || first === "-V" || first === "--help" || first === "-h" || first === "version")
    return NONE;
  if (first === undefined)
    return args.length === 0 ? NONE : [unclassified(cx.what, "a variable uv command", "write it literally")];
  const rest = args.slice(1);
  if (first === "run") {
    const texts = rest.map((a) => literal(a));
    if (!texts.includes("--no-sync"))
      return [install(cx, "`uv run` (it syncs the environment first; add --no-sync)")];
    const s = skipOptions(rest, [
      "--with",
      "--python",
      "-p",
      "--directory",
      "--project",
      "--package",
      "--group",
      "--extra",
    ]);
    return rest[s] === undefined ? NONE : cx.sub(rest.slice(s));
  }
  if (first === "pip") {
    const v = literal(rest[0]);
    return ["list", "show", "freeze", "check", "tree"].includes(v ?? "")
      ? NONE
      : [install(cx, `\`uv pip ${v ?? ""}\``)];
  }
  if (["tree", "help", "cache"].includes(first)) return NONE;
  return [install(cx, `\`uv ${first}\``)];
};

/** Options of `poetry|pdm|conda … config` that only print; any other option may set, add or delete a setting. */
const CONFIG_READ_OPTS = [
  "--list",
  "-l",
  "--show",
  "--show-sources",
  "--describe",
  "--json",
  "--local",
  "--global",
];
/** Verbs of `hatch|pdm config` that change the configuration. */
const CONFIG_VERBS = ["set", "unset", "restore", "update", "edit", "delete", "remove"];

/**
 * `<tool> env info|list` and `<tool> config [KEY]` read; `env use|remove …` builds or deletes an environment and
 * `config KEY VALUE` (or a setting option) changes the tool's configuration, which may be a file in the project.
 */
function envOrConfig(tool: string, first: string, args: readonly Word[], cx: CmdCx): Effect[] {
  if (first === "env") {
    const v = literal(args[1]);
    return args.length === 1 || v === "info" || v === "list"
      ? NONE
      : [install(cx, `\`${tool} env ${v ?? "…"}\``)];
  }
  const words = args.slice(1).map((a) => literal(a));
  if (words.some((w) => w === undefined)) return [install(cx, `\`${tool} config\` with a variable argument`)];
  const operands = (words as string[]).filter((w) => !w.startsWith("-"));
  const reads =
    operands.length <= 1 &&
    !CONFIG_VERBS.some((v) => v === operands[0]) &&
    (words as string[]).every((w) => !w.startsWith("-") || CONFIG_READ_OPTS.includes(w));
  return reads ? NONE : [install(cx, `\`${tool} config\` that changes a setting`)];
}

const pythonProjectTool =
  (tool: string, installs: string[]): Handler =>
  (args, cx) => {
    const first = literal(args[0]);
    if (first === "run") return args.length > 1 ? cx.sub(args.slice(1)) : NONE;
    if ((first === "env" || first === "config") && !installs.includes(first))
      return envOrConfig(tool, first, args, cx);
    return verbInstalls(tool, installs, ["show", "check", "list", "graph", "info"])(args, cx, tool);
  };

const cargo: Handler = (args, cx) => {
  let k = skipOptions(args, ["--manifest-path", "-Z", "--config", "-C"]);
  if ((literal(args[k]) ?? "").startsWith("+"))
    k += 1 + skipOptions(args.slice(k + 1), ["--manifest-path", "-Z", "--config", "-C"]);
  const verb = literal(args[k]);
  const first = literal(args[0]);
  if (
    first === "--version" ||
    first === "-V" ||
    first === "--help" ||
    first === "-h" ||
    args[k] === undefined
  )
    return NONE;
  if (verb === undefined) return [unclassified(cx.what, "a variable cargo command", "write it literally")];
  const rest = args.slice(k + 1);
  if (
    [
      "add",
      "install",
      "remove",
      "rm",
      "update",
      "uninstall",
      "fetch",
      "binstall",
      "vendor",
      "generate-lockfile",
      "init",
      "new",
    ].includes(verb)
  ) {
    return [install(cx, `\`cargo ${verb}\``)];
  }
  if (["publish", "yank", "owner", "login", "logout"].includes(verb))
    return [publish(cx, `\`cargo ${verb}\``)];
  if (verb === "test" || verb === "t" || verb === "check" || verb === "c" || verb === "bench")
    return [test(cx.what)];
  if (verb === "clippy")
    return rest.some((a) => literal(a) === "--fix")
      ? [writeUnknown(cx.what, "`cargo clippy --fix` rewrites sources")]
      : [test(cx.what)];
  if (verb === "fmt")
    return rest.some((a) => literal(a) === "--check")
      ? [test(cx.what)]
      : [writeUnknown(cx.what, "`cargo fmt` rewrites every source file")];
  if (
    [
      "tree",
      "metadata",
      "search",
      "locate-project",
      "pkgid",
      "verify-project",
      "read-manifest",
      "help",
    ].includes(verb)
  )
    return NONE;
  return [exec(cx.what, `\`cargo ${verb}\` builds or runs code`)];
};

const go: Handler = (args, cx) => {
  const verb = literal(args[0]);
  const rest = args.slice(1);
  if (
    args.length === 0 ||
    verb === "version" ||
    verb === "env" ||
    verb === "help" ||
    verb === "doc" ||
    verb === "list"
  )
    return NONE;
  if (verb === undefined) return [unclassified(cx.what, "a variable go command", "write it literally")];
  if (verb === "get" || verb === "install") return [install(cx, `\`go ${verb}\``)];
  if (verb === "mod") {
    const v = literal(rest[0]);
    return ["graph", "why", "verify"].includes(v ?? "") ? NONE : [install(cx, `\`go mod ${v ?? ""}\``)];
  }
  // Bare `go work` prints help; any operand (a variable may be `init`, `use` or `sync`) writes go.work or go.mod.
  if (verb === "work") return rest.length === 0 ? NONE : [install(cx, "`go work`")];
  if (verb === "test" || verb === "vet") return [test(cx.what)];
  if (verb === "fmt") return [writeUnknown(cx.what, "`go fmt` rewrites every file of the packages")];
  // A variable may name `pkg@version`, which downloads.
  if (verb === "run" && rest.some((a) => literal(a)?.includes("@") ?? true))
    return [install(cx, "`go run pkg@version`")];
  return [exec(cx.what, `\`go ${verb}\` builds or runs code`)];
};

const gem = verbInstalls(
  "gem",
  ["install", "i", "uninstall", "update", "cleanup", "pristine"],
  ["list", "search", "env", "which", "contents", "info", "specification", "help", "outdated"],
  (args, cx) =>
    ["push", "yank", "owner", "signin"].includes(literal(args[0]) ?? "")
      ? [publish(cx, `\`gem ${literal(args[0])}\``)]
      : [exec(cx.what, "gem")],
);

const bundle: Handler = (args, cx) => {
  const verb = literal(args[0]);
  if (args.length === 0) return [install(cx, "bare `bundle`")];
  if (verb === "exec") return args.length > 1 ? cx.sub(args.slice(1)) : NONE;
  if (
    [
      "check",
      "list",
      "info",
      "outdated",
      "show",
      "version",
      "--version",
      "help",
      "platform",
      "licenses",
    ].includes(verb ?? "")
  )
    return NONE;
  return [install(cx, `\`bundle ${verb ?? ""}\``)];
};

/** System and language-version package managers: listing verbs only. */
function systemPm(tool: string, read: readonly string[]): Handler {
  return (args, cx) => {
    const k = skipOptions(args, ["-c", "-o", "-t"]);
    const verb = literal(args[k]);
    const first = literal(args[0]);
    if (first === "--version" || first === "-v" || first === "-V" || first === "--help" || first === "-h")
      return NONE;
    if (args[k] === undefined) return NONE;
    if (verb !== undefined && read.includes(verb)) return [exec(cx.what, `\`${tool} ${verb}\``)];
    return [install(cx, `\`${tool} ${verb ?? "…"}\``)];
  };
}

/** pacman's operations that change the system; getopt also takes any unambiguous abbreviation (`--rem`). */
const PACMAN_WRITE_OPS = ["--sync", "--remove", "--upgrade", "--database"];

const pacman: Handler = (args, cx) =>
  args.some((a) => {
    const t = literal(a);
    if (t === undefined || /^-[A-Za-z]*[SRUD]/.test(t)) return true;
    const name = t.split("=")[0] as string;
    return name.length > 2 && PACMAN_WRITE_OPS.some((op) => op.startsWith(name));
  })
    ? [install(cx, "`pacman -S/-R/-U`")]
    : [exec(cx.what, "pacman query")];

/** dpkg passes these dpkg-deb actions through: they unpack or build archives into the named directory. */
const DPKG_EXTRACT = [
  "-x",
  "--extract",
  "-X",
  "--vextract",
  "-R",
  "--raw-extract",
  "--control",
  "-b",
  "--build",
];

/** dpkg and rpm actions that install, remove or upgrade packages. */
const DPKG_CHANGE = [
  "-i",
  "--install",
  "-r",
  "--remove",
  "-P",
  "--purge",
  "--unpack",
  "--configure",
  "-U",
  "--upgrade",
  "-e",
  "--erase",
  "-F",
  "--freshen",
];

const dpkgLike: Handler = (args, cx, name) => {
  if (name === "dpkg" && args.some((a) => DPKG_EXTRACT.includes(literal(a) ?? "")))
    return [writeUnknown(cx.what, "`dpkg` extracts or builds a package archive into a directory")];
  return args.some((a) => {
    const t = literal(a);
    if (t === undefined) return true;
    return DPKG_CHANGE.includes(t) || (/^-[a-zA-Z]+$/.test(t) && /[iUeF]/.test(t) && name === "rpm");
  })
    ? [install(cx, `\`${name}\` install or removal`)]
    : [exec(cx.what, `\`${name}\` query`)];
};

/** `gh GROUP VERB`: the verbs that change something on the forge (or the local checkout). */
const GH_MUTATING = [
  "create",
  "merge",
  "close",
  "reopen",
  "edit",
  "delete",
  "comment",
  "review",
  "ready",
  "upload",
  "fork",
  "sync",
  "rename",
  "archive",
  "unarchive",
  "transfer",
  "set",
  "remove",
  "add",
  "lock",
  "unlock",
  "pin",
  "unpin",
  "develop",
  "run",
  "rerun",
  "cancel",
  "enable",
  "disable",
  "checkout",
  "clone",
  "deploy-key",
  "set-default",
  "install",
  "upgrade",
  "login",
  "logout",
];

const gh: Handler = (args, cx) => {
  const group = literal(args[0]);
  const verb = literal(args[1]);
  if (group === undefined)
    return args.length === 0 ? NONE : [unclassified(cx.what, "a variable gh command", "write it literally")];
  if (group === "api") {
    // A variable may be `-X POST` or a field.
    if (args.some((a) => literal(a) === undefined)) return [publish(cx, "`gh api` with a variable argument")];
    const texts = args.map((a) => literal(a) as string);
    const method = texts.findIndex((t) => t === "-X" || t === "--method");
    const m =
      method >= 0
        ? (texts[method + 1] ?? "").toUpperCase()
        : texts
            .find((t) => t.startsWith("--method=") || (t.startsWith("-X") && t.length > 2))
            ?.replace(/^(--method=|-X)/, "")
            .toUpperCase();
    const fields = texts.some(
      (t) =>
        ["-f", "-F", "--field", "--raw-field", "--input"].includes(t.split("=")[0] as string) ||
        /^-[fF]./.test(t),
    );
    if ((m !== undefined && m !== "GET") || fields) return [publish(cx, "`gh api` with a write method")];
    return [exec(cx.what, "`gh api` reaches the network")];
  }
  if (verb !== undefined && GH_MUTATING.includes(verb)) return [publish(cx, `\`gh ${group} ${verb}\``)];
  // `gh release download`, `gh run download` write the downloaded files into the work tree.
  if (verb === "download") return [writeUnknown(cx.what, `\`gh ${group} download\` writes files`)];
  return [exec(cx.what, "`gh` reaches the network")];
};

/** conda's subcommands that change an environment; mamba is a drop-in conda and takes the same. */
const CONDA_VERBS = ["install", "create", "update", "upgrade", "remove", "uninstall", "env", "clean"];

export const PACKAGES: HandlerTable = new LazyTable(
  () =>
    new Map<string, Handler>([
      ...programEntries(PACKAGE_PROGRAMS),
      ...Object.entries<Handler>({
        npm,
        npx: (args, cx) => runPackage(args, cx, "npx", false),
        // pnpx is `pnpm dlx`, which always fetches the package, even when a local binary has its name.
        pnpx: (args, cx) => runPackage(args, cx, "pnpx", true),
        bunx: (args, cx) => runPackage(args, cx, "bunx", false),
        pnpm,
        yarn,
        yarnpkg: yarn,
        bun,
        corepack: verbInstalls("corepack", ["enable", "disable", "prepare", "install", "use", "up", "pack"]),
        pip,
        pip3: pip,
        uv,
        pipx: verbInstalls(
          "pipx",
          [
            "install",
            "install-all",
            "inject",
            "upgrade",
            "upgrade-all",
            "uninstall",
            "reinstall",
            "reinstall-all",
            "run",
            "runpip",
            "ensurepath",
          ],
          ["list", "environment"],
        ),
        poetry: pythonProjectTool("poetry", [
          "add",
          "remove",
          "install",
          "update",
          "lock",
          "sync",
          "self",
          "init",
          "new",
          "source",
        ]),
        pipenv: pythonProjectTool("pipenv", [
          "install",
          "uninstall",
          "update",
          "upgrade",
          "lock",
          "sync",
          "clean",
        ]),
        pdm: pythonProjectTool("pdm", [
          "add",
          "remove",
          "install",
          "update",
          "lock",
          "sync",
          "init",
          "self",
          "use",
        ]),
        hatch: pythonProjectTool("hatch", ["env", "new", "python", "self"]),
        rye: pythonProjectTool("rye", [
          "add",
          "remove",
          "install",
          "sync",
          "lock",
          "fetch",
          "toolchain",
          "init",
          "self",
          "tools",
        ]),
        conda: pythonProjectTool("conda", CONDA_VERBS),
        mamba: pythonProjectTool("mamba", CONDA_VERBS),
        micromamba: pythonProjectTool("micromamba", [
          "install",
          "create",
          "update",
          "remove",
          "env",
          "clean",
        ]),
        cargo,
        go,
        gem,
        bundle,
        bundler: bundle,
        composer: verbInstalls(
          "composer",
          [
            "install",
            "require",
            "update",
            "upgrade",
            "remove",
            "create-project",
            "global",
            "reinstall",
            "self-update",
            "init",
          ],
          [
            "show",
            "info",
            "validate",
            "check-platform-reqs",
            "outdated",
            "licenses",
            "depends",
            "why",
            "prohibits",
            "why-not",
            "search",
            "diagnose",
          ],
        ),
        rustup: verbInstalls(
          "rustup",
          [
            "install",
            "update",
            "uninstall",
            "toolchain",
            "component",
            "target",
            "default",
            "self",
            "override",
            "set",
          ],
          ["show", "which", "doc", "help", "run"],
        ),
        nvm: verbInstalls(
          "nvm",
          [
            "install",
            "uninstall",
            "use",
            "alias",
            "unalias",
            "reinstall-packages",
            "install-latest-npm",
            "deactivate",
          ],
          ["ls", "list", "ls-remote", "current", "which", "version"],
        ),
        fnm: verbInstalls(
          "fnm",
          ["install", "uninstall", "use", "default", "alias", "unalias", "env"],
          ["list", "ls", "list-remote", "ls-remote", "current"],
        ),
        volta: verbInstalls("volta", ["install", "uninstall", "pin", "fetch", "setup"], ["list", "which"]),
        asdf: verbInstalls(
          "asdf",
          ["install", "uninstall", "plugin", "global", "local", "set", "shell", "reshim", "update"],
          ["list", "current", "where", "which", "info", "version"],
        ),
        mise: verbInstalls(
          "mise",
          [
            "install",
            "i",
            "uninstall",
            "use",
            "u",
            "upgrade",
            "up",
            "plugins",
            "global",
            "local",
            "self-update",
            "sync",
            "trust",
          ],
          ["ls", "list", "current", "where", "which", "doctor", "env", "version", "exec", "x", "run", "r"],
        ),
        sdk: verbInstalls(
          "sdk",
          [
            "install",
            "i",
            "uninstall",
            "rm",
            "use",
            "u",
            "default",
            "d",
            "upgrade",
            "ug",
            "selfupdate",
            "update",
            "flush",
          ],
          ["list", "ls", "current", "c", "version", "v", "home", "h"],
        ),
        apt: systemPm("apt", ["list", "search", "show", "policy", "depends", "rdepends", "madison"]),
        "apt-get": systemPm("apt-get", ["check", "changelog"]),
        "apt-cache": systemPm("apt-cache", [
          "search",
          "show",
          "policy",
          "depends",
          "rdepends",
          "madison",
          "showpkg",
          "stats",
          "dump",
          "pkgnames",
        ]),
        aptitude: systemPm("aptitude", ["search", "show", "why", "why-not"]),
        dnf: systemPm("dnf", [
          "list",
          "search",
          "info",
          "repoquery",
          "provides",
          "repolist",
          "check-update",
          "history",
        ]),
        yum: systemPm("yum", ["list", "search", "info", "provides", "repolist", "check-update", "history"]),
        microdnf: systemPm("microdnf", ["repolist"]),
        zypper: systemPm("zypper", ["search", "se", "info", "if", "list-updates", "lu", "repos", "lr"]),
        apk: systemPm("apk", ["info", "search", "list", "policy", "dot", "stats"]),
        brew: systemPm("brew", [
          "list",
          "ls",
          "info",
          "search",
          "deps",
          "uses",
          "leaves",
          "config",
          "doctor",
          "--prefix",
          "--cellar",
          "--repository",
          "outdated",
          "desc",
          "home",
          "log",
          "cat",
          "formulae",
          "casks",
        ]),
        port: systemPm("port", ["list", "search", "info", "installed", "outdated", "deps", "contents"]),
        snap: systemPm("snap", ["list", "find", "info", "version"]),
        flatpak: systemPm("flatpak", ["list", "info", "search", "remotes"]),
        "nix-env": systemPm("nix-env", ["-q", "--query"]),
        choco: systemPm("choco", ["list", "search", "info", "outdated"]),
        winget: systemPm("winget", ["list", "search", "show"]),
        scoop: systemPm("scoop", ["list", "search", "info", "status", "which"]),
        pacman,
        dpkg: dpkgLike,
        rpm: dpkgLike,
        gh,
      }),
    ]),
);

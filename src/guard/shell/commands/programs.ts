/**
 * The program table: the handlers of ./core.ts that are data. Each row names its programs and says what their
 * words mean (./program.ts interprets it): the options they take, the options that decide the command alone, the
 * operands or option values they write; or the one outcome of a program whose words decide nothing. Every row
 * has examples of what it comes to, and near misses where its options tell commands apart (PROGRAM_EXAMPLES, at
 * the end; ./programs.test.ts runs them all through the classifier).
 */

import { AGENT_CLIS } from "../known-words.js";
import type { Examples, ProgramSpec } from "./program.js";

/** Utilities that only read files or print, whatever their arguments. */
export const PURE = [
  ":",
  "arch",
  "b2sum",
  "basename",
  "bzcat",
  "cat",
  "cksum",
  "cmp",
  "column",
  "comm",
  "cut",
  "df",
  "diff",
  "dirname",
  "dirs",
  "du",
  "echo",
  "egrep",
  "expand",
  "expr",
  "false",
  "fgrep",
  "fmt",
  "fold",
  "free",
  "getconf",
  "grep",
  "groups",
  "head",
  "hexdump",
  "id",
  "jobs",
  "jq",
  "join",
  "locale",
  "logname",
  "look",
  "ls",
  "md5sum",
  "nl",
  "nproc",
  "od",
  "paste",
  "pgrep",
  "printenv",
  "ps",
  "pwd",
  "readlink",
  "realpath",
  "rev",
  "seq",
  "sha1sum",
  "sha224sum",
  "sha256sum",
  "sha384sum",
  "sha512sum",
  "shasum",
  "sleep",
  "stat",
  "strings",
  "sum",
  "tac",
  "tail",
  "times",
  "tr",
  "true",
  "tty",
  "type",
  "uname",
  "unexpand",
  "uptime",
  "wc",
  "whereis",
  "which",
  "whoami",
  "xzcat",
  "zcat",
] as const;

const DROP = "drop the option";

/** A row for a builtin that is unclassified whatever its words. */
function refused(name: string, why: string, hint: string): ProgramSpec {
  return { names: [name], always: { kind: "unclassified", why, hint } };
}

/** The rows, in no particular order: no name is in two of them (./programs.test.ts). */
export const PROGRAMS: readonly ProgramSpec[] = [
  {
    names: PURE,
    always: { kind: "read" },
  },
  {
    names: ["sort"],
    options: {
      flags: "bcCdfghiMmnRrsuVz",
      values: "kotST",
      longFlags: [
        "ignore-leading-blanks",
        "dictionary-order",
        "ignore-case",
        "general-numeric-sort",
        "ignore-nonprinting",
        "month-sort",
        "human-numeric-sort",
        "numeric-sort",
        "random-sort",
        "reverse",
        "version-sort",
        "debug",
        "merge",
        "stable",
        "unique",
        "zero-terminated",
      ],
      longValues: [
        "key",
        "output",
        "field-separator",
        "buffer-size",
        "temporary-directory",
        "parallel",
        "batch-size",
        "sort",
        "files0-from",
        "random-source",
        "compress-program",
      ],
      longOptional: ["check"],
    },
    decide: [
      {
        options: ["--compress-program"],
        outcome: { kind: "unclassified", why: "`sort --compress-program` runs a program", hint: DROP },
      },
    ],
    writes: { options: ["-o", "--output"] },
  },
  {
    // `uniq IN OUT`: the second operand is an output file
    names: ["uniq"],
    options: {
      flags: "cdDiuz",
      values: "fsw",
      longFlags: ["count", "repeated", "ignore-case", "unique", "zero-terminated"],
      longValues: ["skip-fields", "skip-chars", "check-chars"],
      longOptional: ["all-repeated", "group"],
    },
    writes: { operands: 1 },
  },
  {
    // `xxd IN OUT`: the second operand is an output file
    names: ["xxd"],
    options: {
      flags: "abCEeipruhv",
      values: "cglnosdR",
      longFlags: [
        "autoskip",
        "bits",
        "capitalize",
        "ebcdic",
        "include",
        "plain",
        "revert",
        "uppercase",
        "version",
      ],
      longValues: [],
    },
    writes: { operands: 1 },
  },
  {
    // `-o FILE` / `--output FILE` is their only writing option; other options do not matter
    names: ["iconv", "base64"],
    options: { values: "o", longValues: ["output"] },
    loose: true,
    writes: { options: ["-o", "--output"] },
  },
  {
    names: ["rm"],
    options: {
      flags: "dfiIrRv",
      longFlags: ["dir", "force", "one-file-system", "no-preserve-root", "recursive", "verbose"],
      longOptional: ["interactive", "preserve-root"],
    },
    writer: true,
    writes: { operands: 0, required: true },
  },
  {
    names: ["touch"],
    options: {
      flags: "acfhm",
      values: "drt",
      longFlags: ["no-create", "no-dereference"],
      longValues: ["date", "reference", "time"],
    },
    writer: true,
    writes: { operands: 0, required: true },
  },
  {
    names: ["truncate"],
    options: {
      flags: "co",
      values: "rs",
      longFlags: ["no-create", "io-blocks"],
      longValues: ["reference", "size"],
    },
    writer: true,
    writes: { operands: 0, required: true },
  },
  {
    names: ["shred"],
    options: {
      flags: "fuvxz",
      values: "ns",
      longFlags: ["force", "verbose", "exact", "zero"],
      longValues: ["iterations", "random-source", "size"],
      longOptional: ["remove"],
    },
    writer: true,
    writes: { operands: 0, required: true },
  },
  {
    names: ["unlink"],
    options: {},
    writer: true,
    writes: { operands: 0, required: true },
  },
  {
    // tee opens its operands and writes into them; with none it only prints
    names: ["tee"],
    options: { flags: "aip", longFlags: ["append", "ignore-interrupts"], longOptional: ["output-error"] },
    writer: true,
    writes: { operands: 0, sink: true },
  },
  {
    names: ["sponge"],
    options: { flags: "a" },
    writer: true,
    writes: { operands: 0, required: true },
  },
  {
    names: ["mkdir"],
    options: {
      flags: "pvZ",
      values: "m",
      longFlags: ["parents", "verbose"],
      longValues: ["mode"],
      longOptional: ["context"],
    },
    writer: true,
    writes: { operands: 0, dir: true, required: true },
  },
  {
    names: ["rmdir"],
    options: { flags: "pv", longFlags: ["parents", "verbose", "ignore-fail-on-non-empty"] },
    writer: true,
    decide: [
      {
        options: ["-p", "--parents"],
        outcome: { kind: "write-unknown", why: "`rmdir -p` also removes parent directories" },
      },
    ],
    writes: { operands: 0, dir: true },
  },
  {
    names: [
      "split",
      "csplit",
      "mktemp",
      "rsync",
      "scp",
      "sftp",
      "zip",
      "7z",
      "7za",
      "cpio",
      "ar",
      "mkfifo",
      "mknod",
      "fallocate",
      "setfacl",
      "chattr",
      "ed",
      "ex",
      "vi",
      "vim",
      "nvim",
      "nano",
      "emacs",
      "pico",
      "micro",
      "hx",
      "kak",
      "script",
      "flock",
    ],
    always: {
      kind: "write-unknown",
      why: "`{name}` writes files the guard cannot determine; use the Edit or Write tool",
    },
  },
  {
    names: [
      "ssh",
      "mosh",
      "su",
      "runuser",
      "parallel",
      "tmux",
      "screen",
      "expect",
      "gdb",
      "lldb",
      "entr",
      "watchexec",
      "nodemon",
      "concurrently",
      "docker",
      "podman",
      "kubectl",
      "chroot",
      "unshare",
      "nsenter",
      "systemd-run",
      "at",
      "batch",
      "crontab",
      "xdg-open",
      "open",
      "osascript",
      "sqlite3",
      "psql",
      "mysql",
    ],
    always: {
      kind: "unclassified",
      why: "`{name}` runs commands or statements the guard cannot see",
      hint: "run the command directly, or report that it is needed",
    },
  },
  {
    // builtins that change nothing the guard watches (a top-level `cd` is the walk's: ../walk.ts)
    names: [
      "cd",
      "pushd",
      "popd",
      "set",
      "shift",
      "exit",
      "return",
      "break",
      "continue",
      "umask",
      "ulimit",
      "kill",
      "disown",
      "unalias",
    ],
    always: { kind: "read" },
  },
  // builtins refused whatever their words
  refused("let", "`let` evaluates arithmetic, which can run code", "compute the value elsewhere"),
  refused("mapfile", "`mapfile` can run a callback", "read the file with cat"),
  refused("readarray", "`readarray` can run a callback", "read the file with cat"),
  refused("eval", "`eval` runs a string as code", "run the command directly"),
  refused("source", "`source` runs a file inside this shell", "run it as `bash file`"),
  refused(".", "`.` runs a file inside this shell", "run it as `bash file`"),
  refused("enable", "`enable` loads builtins", "drop it"),
  refused("complete", "`complete` can register code", "drop it"),
  refused("compgen", "`compgen -C` runs a command", "drop it"),
  refused("bind", "`bind -x` registers code", "drop it"),
  refused("fc", "`fc` re-runs history", "run the command directly"),
  refused("history", "`history` edits the history", "drop it"),
  refused("coproc", "`coproc` starts a background process", "run the command directly"),
  refused("function", "function definitions are not classified", "run the commands directly"),
  refused("select", "`select` is interactive", "drop it"),
  refused("case", "`case` is not classified", "use if/then"),
  refused("watch", "`watch` runs its command through a shell", "run the command once"),
  {
    names: ["test", "["],
    words: [
      {
        any: ["-v", "-R"],
        comes: {
          kind: "unclassified",
          why: "`test -v`/`-R` evaluates array subscripts",
          hint: "test the value directly",
        },
      },
    ],
    always: { kind: "read" },
  },
  {
    names: ["[["],
    words: [
      {
        any: ["-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-v", "-R"],
        comes: {
          kind: "unclassified",
          why: "`[[ … -eq … ]]` evaluates its operands as arithmetic, which can run code",
          hint: "use `[ … -eq … ]` (the test builtin) for numbers",
        },
      },
    ],
    always: { kind: "read" },
  },
  {
    names: ["wait"],
    words: [
      {
        any: ["-p"],
        comes: { kind: "unclassified", why: "`wait -p` assigns through a name", hint: "drop -p" },
      },
    ],
    always: { kind: "read" },
  },
  {
    // listing, testing or printing an archive writes nothing
    names: ["unzip"],
    words: [{ any: ["-l", "-t", "-v", "-p", "-z", "-Z*"], comes: { kind: "read" } }],
    always: { kind: "write-unknown", why: "unzip writes the archive's files" },
  },
  {
    names: ["patch"],
    words: [{ any: ["--dry-run", "-C", "--check"], comes: { kind: "read" } }],
    always: { kind: "write-unknown", why: "`patch` writes the files named inside the patch" },
  },
  {
    names: ["sudo", "doas"],
    options: {
      flags: "AbEeHiKklnPSsV",
      values: "CDghpRrtTUu",
      longFlags: [
        "askpass",
        "background",
        "preserve-env",
        "set-home",
        "login",
        "reset-timestamp",
        "remove-timestamp",
        "validate",
        "list",
        "non-interactive",
        "preserve-groups",
        "stdin",
        "shell",
        "edit",
      ],
      longValues: [
        "close-from",
        "chdir",
        "group",
        "host",
        "prompt",
        "chroot",
        "role",
        "type",
        "command-timeout",
        "other-user",
        "user",
      ],
    },
    decide: [
      {
        options: ["-s", "-i", "-e", "--shell", "--login", "--edit"],
        outcome: {
          kind: "unclassified",
          why: "`{name} {option}` runs its command through a shell or editor",
          hint: "drop it",
        },
      },
    ],
    runs: { chdir: ["-D", "--chdir"] },
  },
  { names: ["stdbuf"], options: { values: "ioe", longValues: ["input", "output", "error"] }, runs: {} },
  {
    names: ["ionice"],
    words: [{ any: ["-p", "-P", "-u"], comes: { kind: "exec", why: "ionice on a running process" } }],
    options: { flags: "t", values: "cn", longValues: ["class", "classdata"], longFlags: ["ignore"] },
    runs: {},
  },
  { names: ["nohup", "builtin"], options: {}, runs: {} },
  {
    // GNU `time` (bash's keyword takes only -p): options are read as getopt does, so `-ao FILE` is an output file
    names: ["time"],
    options: {
      flags: "apqvV",
      values: "of",
      longFlags: ["append", "portability", "quiet", "verbose", "version", "help"],
      longValues: ["output", "format"],
    },
    writes: { options: ["-o", "--output"] },
    runs: {},
    hint: "use -p, -f or -o FILE",
  },
];

const INSTALL_HINT = "leaves never change dependencies; report the missing package and let the root decide";

/** Rows of the tools' table (./tools.ts). */
export const TOOL_PROGRAMS: readonly ProgramSpec[] = [
  {
    // proof commands whose arguments never make them write
    names: [
      "svelte-check",
      "mypy",
      "pyright",
      "flake8",
      "pylint",
      "shellcheck",
      "hadolint",
      "actionlint",
      "yamllint",
    ],
    always: { kind: "test" },
  },
  {
    names: ["golangci-lint"],
    words: [
      { any: ["--fix"], comes: { kind: "write-unknown", why: "`golangci-lint --fix` rewrites sources" } },
    ],
    always: { kind: "test" },
  },
  {
    names: ["astro"],
    words: [{ first: ["check"], comes: { kind: "test" } }],
    always: { kind: "exec", why: "astro" },
  },
  {
    names: ["tox", "nox"],
    always: {
      kind: "deny",
      rule: "guard.install",
      why: "`{name}` (it builds virtual environments) installs or downloads dependencies",
      hint: INSTALL_HINT,
    },
  },
];

/** Rows of the package managers' table (./packages.ts). */
export const PACKAGE_PROGRAMS: readonly ProgramSpec[] = [
  {
    names: ["uvx"],
    always: {
      kind: "deny",
      rule: "guard.install",
      why: "`uvx` (downloads the tool) installs or downloads dependencies",
      hint: INSTALL_HINT,
    },
  },
  {
    names: ["twine"],
    words: [
      {
        first: ["upload"],
        comes: {
          kind: "deny",
          rule: "guard.publish",
          why: "`twine upload` publishes or releases",
          hint: "leaves never publish; report it to the root",
        },
      },
    ],
    always: { kind: "test" },
  },
  {
    names: AGENT_CLIS,
    always: {
      kind: "deny",
      rule: "guard.spawn",
      why: "`{name}` starts another coding agent, which the guard would see as a root session",
      hint: "leaves never delegate; do the work yourself or report that it needs another step",
    },
  },
  {
    names: ["devrites", "devrites.js", "devrites.mjs"],
    always: {
      kind: "deny",
      rule: "guard.devrites-write",
      why: "the devrites CLI writes the workspace; only the root runs it",
      hint: "return your agent-result/v1 as your final message; the root records and checks it",
    },
  },
];

/**
 * Each row's examples, by the row's first name: commands it must come to, and near misses where its options tell
 * commands apart (./programs.test.ts runs them through the classifier). Only the test reads them, so the hook
 * bundle leaves them out.
 */
export const PROGRAM_EXAMPLES: Readonly<Record<string, Examples>> = {
  // PURE
  ":": { read: ["cat a b", "grep -rn --include=*.ts x src", "ls -la /", "jq . f.json"] },
  sort: {
    read: ["sort -u -k2 f", "sort -t, -n f"],
    write: ["sort -o out.txt f", "sort --output=out.txt f"],
    unclassified: ["sort --compress-program=gzip f", "sort --frobnicate f", "sort $opt f"],
  },
  uniq: {
    read: ["uniq -c in.txt"],
    write: ["uniq -c in.txt out.txt"],
    unclassified: ["uniq -X in.txt"],
  },
  xxd: { read: ["xxd -l 16 f.bin"], write: ["xxd -r dump.txt f.bin"], unclassified: ["xxd -Z f.bin"] },
  iconv: {
    read: ["iconv -f latin1 -t utf8 f", "base64 -d f"],
    write: ["iconv -f latin1 -t utf8 -o out.txt f", "base64 --output=out.b64 f"],
  },
  rm: {
    write: ["rm -rf build", "rm -- -x a"],
    unknown: ["rm $flags a"],
    unclassified: ["rm -f", "rm --shred a"],
  },
  touch: { write: ["touch -d yesterday a b"], unclassified: ["touch", "touch -X a"] },
  truncate: { write: ["truncate -s 0 log.txt"], unclassified: ["truncate -s 0"] },
  shred: { write: ["shred -u -n 3 secret"], unclassified: ["shred -u"] },
  unlink: { write: ["unlink a"], unclassified: ["unlink", "unlink -f a"] },
  tee: {
    read: ["tee", "tee -a"],
    write: ["tee -a log.txt", "tee /dev/null"],
    unclassified: ["tee -x f"],
  },
  sponge: { write: ["sponge -a f"], unclassified: ["sponge", "sponge -b f"] },
  mkdir: { write: ["mkdir -p a/b c", "mkdir -m 755 d"], unclassified: ["mkdir -p", "mkdir -x d"] },
  rmdir: { write: ["rmdir -v a b"], unknown: ["rmdir -p a/b"], unclassified: ["rmdir -x a"] },
  split: { unknown: ["split -l 10 f", "vim f", "rsync -a a/ b/"] },
  ssh: { unclassified: ["ssh host ls", "docker run img", "sqlite3 db .tables"] },
  cd: { read: ["set -euo pipefail", "exit 1", "umask 022", "kill 1234", "shift"] },
  let: { unclassified: ["let x=1+2"] },
  mapfile: { unclassified: ["mapfile -t lines < f"] },
  readarray: { unclassified: ["readarray lines < f"] },
  eval: { unclassified: ["eval ls"] },
  source: { unclassified: ["source ./env.sh"] },
  ".": { unclassified: [". ./env.sh"] },
  enable: { unclassified: ["enable -f x.so x"] },
  complete: { unclassified: ["complete -F f cmd"] },
  compgen: { unclassified: ["compgen -C ls x"] },
  bind: { unclassified: ["bind -x ls"] },
  fc: { unclassified: ["fc -s"] },
  history: { unclassified: ["history -c"] },
  coproc: { unclassified: ["coproc cat"] },
  function: { unclassified: ["function f"] },
  select: { unclassified: ["select x"] },
  case: { unclassified: ["case x"] },
  watch: { unclassified: ["watch ls"] },
  test: { read: ["test -f x", "[ -n x ]"], unclassified: ["test -v x", "[ -R x ]"] },
  "[[": { read: ["[[ -f x ]]", "[[ a == b ]]"], unclassified: ["[[ x -eq 1 ]]", "[[ -v a ]]"] },
  wait: { read: ["wait", "wait -n"], unclassified: ["wait -p id"] },
  unzip: {
    read: ["unzip -l a.zip", "unzip -Z1 a.zip", "unzip -p a.zip f"],
    unknown: ["unzip a.zip", "unzip -o a.zip"],
  },
  patch: { read: ["patch --dry-run -p1", "patch -C -p1"], unknown: ["patch -p1", "patch f.c"] },
  "svelte-check": { test: ["svelte-check", "mypy src", "shellcheck -x a.sh", "yamllint ."] },
  "golangci-lint": { test: ["golangci-lint run"], unknown: ["golangci-lint run --fix"] },
  astro: { test: ["astro check"], exec: ["astro build", "astro dev check"] },
  tox: { deny: ["tox -e py312", "nox"] },
  uvx: { deny: ["uvx ruff check"] },
  twine: { test: ["twine check dist/x"], deny: ["twine upload dist/x"] },
  claude: { deny: ["claude -p hi", "codex exec x"] },
  devrites: { deny: ["devrites run x", "devrites.mjs status"] },
  sudo: {
    read: ["sudo -u me ls", "doas ls"],
    write: ["sudo -D /tmp rm a", "sudo -- rm a"],
    unclassified: ["sudo -s", "sudo -Es ls", "sudo --bogus ls", "sudo $opt ls"],
  },
  stdbuf: { read: ["stdbuf -oL ls"], write: ["stdbuf -i0 -e L rm a"], unclassified: ["stdbuf --bogus rm a"] },
  ionice: {
    read: ["ionice -c 3 ls"],
    write: ["ionice -t -n 7 rm a"],
    exec: ["ionice -p 12"],
    unclassified: ["ionice -x rm a"],
  },
  nohup: { read: ["nohup", "builtin echo x"], write: ["nohup rm a"], unclassified: ["nohup -x rm a"] },
  time: {
    read: ["time ls", "time -p ls"],
    write: ["time -ao t.txt ls", "time rm a"],
    unclassified: ["time -x ls"],
  },
};

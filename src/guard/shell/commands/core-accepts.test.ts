// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * The common options each strictly-read handler accepts: an accepted option keeps its reading (a leaf is not refused
 * for `sort --numeric-sort`), and the fine points of option reading that decide which word is a program, a script
 * or a target. See ./test-cx.ts for the notation.
 */

import { describe, expect, it } from "vitest";
import { classifyShell } from "../classify.js";
import type { Effect } from "../effects.js";
import { showWord } from "../parse.js";
import { CORE } from "./core.js";
import { refusalHints, runHandler } from "./test-cx.js";

const accepts = (cmd: string, rest: string, options: string[], expected: string[]) =>
  it.each(options)(`${cmd} --%s ${rest} → ${JSON.stringify(expected)}`, (o) => {
    expect(runHandler(CORE, `${cmd} --${o} ${rest}`)).toEqual(expected);
  });

describe("long options each handler accepts", () => {
  accepts(
    "sort",
    "f",
    [
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
      "check",
      "debug",
      "merge",
      "stable",
      "unique",
      "zero-terminated",
      "key=2",
      "field-separator=,",
      "buffer-size=1M",
      "temporary-directory=/tmp",
      "parallel=2",
      "batch-size=4",
      "sort=numeric",
      "files0-from=list",
      "random-source=r",
      "check=quiet",
    ],
    [],
  );
  accepts(
    "xargs",
    "rm",
    [
      "null",
      "no-run-if-empty",
      "verbose",
      "interactive",
      "exit",
      "open-tty",
      "show-limits",
      "arg-file=l",
      "delimiter=,",
      "max-lines=1",
      "max-args=1",
      "max-procs=2",
      "max-chars=99",
      "process-slot-var=N",
      "eof=x",
    ],
    ["exec: sub rm $xargs @/r"],
  );
  accepts(
    "awk",
    "{print} f",
    [
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
      "field-separator=,",
      "assign=x=1",
    ],
    [],
  );
  accepts("rmdir", "a", ["parents", "verbose", "ignore-fail-on-non-empty"].slice(1), ["write a/@/r"]);
  accepts(
    "chown",
    "u a",
    [
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
    ["write a@/r"],
  );
  accepts(
    "install",
    "a b",
    [
      "compare",
      "preserve-timestamps",
      "strip",
      "no-target-directory",
      "verbose",
      "group=g",
      "mode=644",
      "owner=o",
      "strip-program=s",
      "context",
    ],
    ["write b@/r"],
  );
  accepts("install", "dir a", ["target-directory"], ["write dir/a@/r"]);
  accepts(
    "tar",
    "-cf a.tar x",
    [
      "verbose",
      "gzip",
      "bzip2",
      "xz",
      "zstd",
      "lzma",
      "auto-compress",
      "keep-old-files",
      "overwrite",
      "no-same-owner",
      "strip-components=1",
      "dereference",
      "preserve-permissions",
      "same-permissions",
      "exclude-vcs",
      "numeric-owner",
      "totals",
      "warning=none",
      "sparse",
      "verify",
      "one-file-system",
      "absolute-names",
      "test-label",
      "directory=d",
      "files-from=l",
      "exclude-from=l",
      "blocking-factor=20",
      "exclude=x",
      "transform=s/a/b/",
      "xform=s/a/b/",
      "owner=o",
      "group=g",
      "mode=644",
      "mtime=now",
      "label=l",
      "format=gnu",
      "newer=d",
      "after-date=d",
    ],
    ["write a.tar@/r"],
  );
  accepts("tar", "-f a.tar", ["extract --to-stdout", "list"], []);
});

const check = (rows: [string, string[]][]) =>
  it.each(rows)("%j → %j", (line, expected) => {
    expect(runHandler(CORE, line)).toEqual(expected);
  });

describe("which word is a program, a script, a mode or a target", () => {
  check([
    ["printf '' x", []],
    ["file a-C", []],
    ["file -mC.mgc x", []],
    ["tree README.md", []],
    ["find . -name + -exec rm {} ;", ["exec: sub rm ${} @/r"]],
    ["fd -Ebox/ src", []],
    ["fd ; -x rm", ["exec: sub rm ${} @/r"]],
    // xargs and awk stop reading options at the first operand: what follows belongs to the command or the files
    ["xargs rm -f a", ["exec: sub rm -f a $xargs @/r"]],
    ["awk {print} -Q f", []],
    [
      "awk --source=system f",
      [
        "shell-unclassified: the awk program uses `>`, `|`, `system` or `@`, which can write files or run commands",
      ],
    ],
    ["awk {print} system.log", []],
    ["sed s/a/b/ fix.txt", []],
    ["sed -ei.bak s/a/b/ f", []],
    ["sed -i.bak '' f", ["write f@/r", "write f.bak@/r"]],
    ["sed -n --in-place=.bak s/a/b/ f", ["write f@/r", "write f.bak@/r"]],
    ["sed --file=s.sed f", ["shell-unclassified: `sed -f` runs a script file the guard cannot read"]],
    ["yq .user-id f.yaml", []],
    ["yq -o=ini .a f.yaml", []],
    ["cp --no-target-directory a b c", ["write c@/r"]],
    ["chmod 644 a-w", ["write a-w@/r"]],
    ["chmod -rw a", ["write a@/r"]],
    ["unzip -x a.zip", ["write-unknown: unzip writes the archive's files"]],
    ["tar cf", ["shell-unclassified: `tar` with the option `-f`"]],
    ["curl --lib c https://x", ["write-unknown: `curl --lib` writes a file"]],
    ["curl --w %output{f} https://x", ["write-unknown: `curl --write-out %output{…}` writes a file"]],
    ["curl --data %output{f} https://x", ["exec: curl reaches the network; use the host's web fetch tool"]],
    ["export a+b=1", ["shell-unclassified: `export` of `a+b`"]],
    ["export a-b", ["shell-unclassified: `export` of `a-b`"]],
    ["hash x-d", []],
    ["hash -dr ls", ["shell-unclassified: `hash -p` maps a command name to another program"]],
    ["trap -l x EXIT", ["shell-unclassified: `trap` installs code to run later"]],
    ["shopt nullglob", []],
    ["env AB=1 rm a", ["env AB", "exec: sub rm a @/r"]],
    ["timeout -v 5 rm a", ["exec: sub rm a @/r"]],
    ["timeout --preserve-status --verbose --kill-after=1 5 rm a", ["exec: sub rm a @/r"]],
    ["nice ls-1 a", ["exec: sub ls-1 a @/r"]],
    ["nice -5x rm a", ["exec: sub -5x rm a @/r"]],
    ["nice x-n5 a", ["exec: sub x-n5 a @/r"]],
    ["nice -n5x rm a", ["exec: sub -n5x rm a @/r"]],
    ["ionice --classdata 7 --ignore rm a", ["exec: sub rm a @/r"]],
    ["exec rm -c a", ["exec: `exec` replaces the shell", "exec: sub rm -c a @/r"]],
    ['exec "$x"', ["shell-unclassified: `exec` with options"]],
    ['unset x "$y"', ["shell-unclassified: `unset` of a subscripted or computed name"]],
  ]);
});

const summary = (e: Effect) => (e.kind === "write" ? `write ${showWord(e.target)}` : e.kind);
const run = (c: string) => classifyShell(c, { cwd: "/r" }).map(summary);

describe("what nested commands receive for the words the guard cannot know", () => {
  it.each<[string, string[]]>([
    // each input line may start with `-`, so the command's own option reading fails closed
    ["xargs rm", ["write-unknown"]],
    ["xargs", []],
    ["find . -exec touch out/{} \\;", ["write out/${}"]],
  ])("%j → %j", (line, expected) => {
    expect(run(line)).toEqual(expected);
  });
});

describe("hints", () => {
  it.each<[string, string[]]>([['awk -e "$p" f', ["write it literally"]]])("%j → %j", (line, hints) => {
    expect(refusalHints(CORE, line)).toEqual(hints);
  });
});

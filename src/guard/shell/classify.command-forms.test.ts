// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * How the shell classifier reads each form of a command, with the exact reason (why + hint) a refusal gives,
 * since that text is what the model reads and acts on: which names reach an interpreter's handler, programs run
 * by path, which descriptor redirects are not files, `for` loops and words after a compound command, `cd`
 * options and `popd`, refused command names and nesting depth, the argv form, and assignment-only commands.
 */

import { describe, expect, it } from "vitest";
import { classifyArgvCommand, classifyShell } from "./classify.js";
import type { Effect } from "./effects.js";
import { showWord } from "./parse.js";

/** One line per effect, including the reason a model is shown. */
function show(e: Effect): string {
  switch (e.kind) {
    case "write":
      return `write ${showWord(e.target)}${e.dir ? "/" : ""}@${e.cwds.map((c) => c ?? "?").join("|")}`;
    case "deny":
      return `${e.rule.replace("guard.", "")}: ${e.why} | ${e.hint}`;
    case "exec":
      return `exec: ${e.why}`;
    case "env":
      return `env ${e.name}`;
    case "write-unknown":
      return `write-unknown: ${e.why}`;
    case "test":
      return "test";
  }
}

const INLINE =
  "use the Edit/Write tools for files; for a computation, put a script in a file inside your allowlist (wright) or report what you need (read-only roles)";
const local = new Set(["vitest", "tsc"]);
const run = (c: string) => classifyShell(c, { cwd: "/r", hasLocalBin: (n) => local.has(n) }).map(show);

describe("classifyShell: interpreter names", () => {
  it.each<[string, string[]]>([
    // Versioned names reach the interpreter's handler (which refuses inline code) …
    [
      "python3 -c 1",
      [`shell-unclassified: \`python3 -c\` runs inline code the guard cannot read | ${INLINE}`],
    ],
    ["node18 -e 1", [`shell-unclassified: \`node18 -e\` runs inline code the guard cannot read | ${INLINE}`]],
    [
      "perl5.36 -e 1",
      [`shell-unclassified: \`perl5.36 -e\` runs inline code the guard cannot read | ${INLINE}`],
    ],
    ["ruby3 -e 1", [`shell-unclassified: \`ruby3 -e\` runs inline code the guard cannot read | ${INLINE}`]],
    [
      "pip3.11 install x",
      [
        "install: `pip install` installs or downloads dependencies | leaves never change dependencies; report the missing package and let the root decide",
      ],
    ],
    // … but a name that merely contains an interpreter's name is some other program.
    ["pythonx -c 1", ["exec: `pythonx` is not on the read-only allowlist"]],
    ["mypython -c 1", ["exec: `mypython` is not on the read-only allowlist"]],
    ["python3x -c 1", ["exec: `python3x` is not on the read-only allowlist"]],
    ["pipx2 install x", ["exec: `pipx2` is not on the read-only allowlist"]],
    ["pip3x install x", ["exec: `pip3x` is not on the read-only allowlist"]],
    ["xpip install x", ["exec: `xpip` is not on the read-only allowlist"]],
    ["xnode18 -e 1", ["exec: `xnode18` is not on the read-only allowlist"]],
    ["noderc18 -e 1", ["exec: `noderc18` is not on the read-only allowlist"]],
    // A digit suffix only names a version of the interpreters, not of every command.
    ["cat2 a", ["exec: `cat2` is not on the read-only allowlist"]],
    ["rm2 a", ["exec: `rm2` is not on the read-only allowlist"]],
  ])("%j → %j", (command, expected) => {
    expect(run(command)).toEqual(expected);
  });
});

describe("classifyShell: programs run by path", () => {
  it.each<[string, string[]]>([
    ["node_modules/.bin/vitest run", ["test"]],
    // A project's local bin directory, reached by any relative path, is the same tool.
    ["./node_modules/.bin/vitest run", ["test"]],
    ["../app/node_modules/.bin/vitest run", ["test"]],
    // A directory that only starts like one is not.
    [
      "node_modules/.bin/sub/vitest run",
      ["exec: `node_modules/.bin/sub/vitest` runs a program by path", "test"],
    ],
    ["./rm a", ["exec: `./rm` runs a program by path", "write a@/r"]],
    ["/usr/local/bin/cat a", []],
    ["/opt/x/cat a", ["exec: `/opt/x/cat` runs a program by path"]],
  ])("%j → %j", (command, expected) => {
    expect(run(command)).toEqual(expected);
  });
});

describe("classifyShell: redirects", () => {
  it.each<[string, string[]]>([
    // A plain redirect to a file named like a descriptor still writes that file.
    ["echo x > 2", ["write 2@/r"]],
    ["echo x >> 1-", ["write 1-@/r"]],
    ["echo x > -", ["write -@/r"]],
    // `>&word` with a word that is no descriptor writes stdout and stderr to the file `word`.
    ["echo x >& out", ["write out@/r"]],
    ["echo x >&a1", ["write a1@/r"]],
    ["echo x >&1x", ["write 1x@/r"]],
    ['echo x >&"$f"', ["write $f@/r"]],
    // Descriptors (any number of digits, optionally moved with `-`) and closing are not files.
    ["echo x >&10", []],
    ["echo x >&12- 2>&-", []],
    ["cat <&10", []],
    ["cat <&3-", []],
    // Input duplicated from something that is not a descriptor cannot be classified.
    ["cat <&file", ["shell-unclassified: `<&file` is not a file descriptor | use < file"]],
    ['cat <&"$f"', ["shell-unclassified: `<&$f` is not a file descriptor | use < file"]],
  ])("%j → %j", (command, expected) => {
    expect(run(command)).toEqual(expected);
  });
});

describe("classifyShell: keywords and loops", () => {
  it.each<[string, string[]]>([
    ["for x in a b; do ls; done", ["env x"]],
    ["for _x1 in a; do ls; done", ["env _x1"]],
    [
      "for 1x in a; do ls; done",
      ["shell-unclassified: a `for` loop without a plain variable name | use for NAME in …"],
    ],
    [
      "for x-y in a; do ls; done",
      ["shell-unclassified: a `for` loop without a plain variable name | use for NAME in …"],
    ],
    [
      "for $x in a; do ls; done",
      ["shell-unclassified: a `for` loop without a plain variable name | use for NAME in …"],
    ],
    [
      "for; do ls; done",
      ["shell-unclassified: a `for` loop without a plain variable name | use for NAME in …"],
    ],
    [
      "if true; then ls; fi x",
      ["shell-unclassified: words after `fi` | end the compound command on its own"],
    ],
    ["{ ls; } x", ["shell-unclassified: words after `}` | end the compound command on its own"]],
    ["while true; do ls; done", []],
  ])("%j → %j", (command, expected) => {
    expect(run(command)).toEqual(expected);
  });

  it("a `for` loop sets its variable and nothing else: the loop words are not a command", () => {
    expect(classifyShell("for i in a; do ls; done", { cwd: "/r" })).toEqual([
      { kind: "env", name: "i", what: "for i in a" },
    ]);
    expect(classifyShell("for 1 in a", { cwd: "/r" })).toEqual([
      {
        kind: "deny",
        rule: "guard.shell-unclassified",
        what: "for 1 in a",
        why: "a `for` loop without a plain variable name",
        hint: "use for NAME in …",
      },
    ]);
  });
});

describe("classifyShell: cd options", () => {
  it.each<[string, string[]]>([
    ["cd -P sub && touch a", ["write a@/r|/r/sub"]],
    ["cd -L sub && touch a", ["write a@/r|/r/sub"]],
    ["cd -e sub && touch a", ["write a@/r|/r/sub"]],
    ["cd -@ sub && touch a", ["write a@/r|/r/sub"]],
    ["cd -- sub && touch a", ["write a@/r|/r/sub"]],
    ["cd -L -P -- sub && touch a", ["write a@/r|/r/sub"]],
    // Any other word is the directory itself.
    ["cd -x && touch a", ["write a@/r|/r/-x"]],
    ['cd "$d" && touch a', ["write a@/r|?"]],
  ])("%j → %j", (command, expected) => {
    expect(run(command)).toEqual(expected);
  });
});

describe("classifyShell: refused command names say why and what to do", () => {
  it.each<[string, string[]]>([
    [
      '"$x" a',
      ["shell-unclassified: the command name `$x` is a variable | write the command name literally"],
    ],
    [
      '"$x$y" a',
      ["shell-unclassified: the command name `$x$y` is a variable | write the command name literally"],
    ],
    ["*.sh", ["shell-unclassified: the command name is a glob | write the command name literally"]],
    ["'' a", ["shell-unclassified: an empty command name | write the command name literally"]],
    ['"" rm a', ["shell-unclassified: an empty command name | write the command name literally"]],
    ["frob a", ["exec: `frob` is not on the read-only allowlist"]],
    [
      "sudo sudo sudo sudo sudo sudo sudo sudo sudo sudo rm a",
      ["shell-unclassified: commands nested too deeply | flatten the command"],
    ],
  ])("%j → %j", (command, expected) => {
    expect(run(command)).toEqual(expected);
  });

  it("the argv form refuses an empty program name and nesting too deep", () => {
    const argv = (xs: string[]) => classifyArgvCommand(xs, { cwd: "/r" }).map(show);
    expect(argv(["", "a"])).toEqual([
      "shell-unclassified: an empty command name | write the command name literally",
    ]);
    expect(argv([...Array(10).fill("nice"), "rm", "a"])).toEqual([
      "shell-unclassified: commands nested too deeply | flatten the command",
    ]);
    expect(argv([...Array(8).fill("nice"), "rm", "a"])).toEqual(["write a@/r"]);
  });
});

describe("classifyShell: a script nested too deeply is refused whole", () => {
  /** `bash -c '…'` nested `levels` times around `inner`, quoted the way a shell needs it. */
  const nested = (levels: number, inner: string): string => {
    let s = inner;
    for (let k = 0; k < levels; k += 1) s = `bash -c '${s.replaceAll("'", "'\\''")}'`;
    return s;
  };
  const TOO_DEEP = "shell-unclassified: commands nested too deeply | flatten the command";
  it.each<[string, string[]]>([
    // Redirects, assignments and parse errors of the innermost script are not looked at one by one.
    [nested(9, "echo x > a"), [TOO_DEEP]],
    [nested(9, "A=1"), [TOO_DEEP]],
    [nested(9, "(("), [TOO_DEEP]],
    // One level less is still read.
    [nested(8, "echo x > a"), ["write a@/r"]],
    [nested(8, "A=1"), ["env A"]],
  ])("%j → %j", (command, expected) => {
    expect(run(command)).toEqual(expected);
  });

  it("names the script it refused", () => {
    const e = classifyShell(nested(9, "A=1"), { cwd: "/r" });
    expect(e).toEqual([
      {
        kind: "deny",
        rule: "guard.shell-unclassified",
        what: "A=1",
        why: "commands nested too deeply",
        hint: "flatten the command",
      },
    ]);
  });
});

describe("classifyShell: popd", () => {
  it.each<[string, string[]]>([
    // `popd` goes to the top of the directory stack, whatever its operand: unknown here.
    ["popd; touch a", ["write a@/r|?"]],
    ["popd +1; touch a", ["write a@/r|?"]],
    ["popd sub; touch a", ["write a@/r|?"]],
    // near miss: `pushd sub` goes to sub
    ["pushd sub; touch a", ["write a@/r|/r/sub"]],
  ])("%j → %j", (command, expected) => {
    expect(run(command)).toEqual(expected);
  });
});

describe("classifyArgvCommand: an argv has literal words, no stdin and no shell", () => {
  const argv = (xs: string[]) => classifyArgvCommand(xs, { cwd: "/r" });
  it("each word is one literal word: it cannot split into options", () => {
    expect(argv(["printf", "%s\n", "x"])).toEqual([]);
    expect(argv(["printf", "-v", "x", "y"]).map(show)).toEqual([
      "shell-unclassified: `printf -v` assigns through a name that can evaluate code | print to stdout",
    ]);
  });

  it("a shell without a script has no here-document to read: it reads stdin", () => {
    expect(argv(["sh"])).toEqual([
      {
        kind: "deny",
        rule: "guard.shell-unclassified",
        what: "sh",
        why: "`sh` without a script file (code on stdin) runs inline code the guard cannot read",
        hint: INLINE,
      },
    ]);
  });

  it("names the whole argv as the command", () => {
    expect(argv(["frob", "a", "b"])).toEqual([
      { kind: "exec", what: "frob a b", why: "`frob` is not on the read-only allowlist" },
    ]);
    const long = argv(["frob", "x".repeat(300)]);
    expect(long[0]?.what).toBe(`frob ${"x".repeat(195)}…`);
  });
});

describe("classifyShell: a command of only assignments", () => {
  it.each<[string, string[]]>([
    // it sets shell variables for every later command, so it must reach the policy
    ["PATH=/x; ls", ["env PATH"]],
    ["A=1 B=2", ["env A", "env B"]],
    ["IFS=x", ["env IFS"]],
  ])("%j → %j", (command, expected) => {
    expect(run(command)).toEqual(expected);
  });
});

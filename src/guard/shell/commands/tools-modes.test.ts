// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * Interpreters, shells, test runners, checkers, formatters and build tools, option by option: a check-only flag
 * (`node --check`) reads, anything that may run the script's code is an exec, a flag that takes a value hides it
 * from the operand search, a formatter writes exactly its file operands in write mode (the whole project without
 * operands), report files are writes beside the test run, and build tools are proof commands only for proof goals.
 * Handlers are called directly (see ./test-cx.ts); nested commands show as `sub <argv> @<directories>`.
 */

import { describe, expect, it } from "vitest";
import { classifyShell } from "../classify.js";
import { literal } from "../words.js";
import { type RunOptions, refusalHints, runHandler, summary } from "./test-cx.js";
import { TOOLS } from "./tools.js";

const check = (opts: RunOptions, rows: [string, string[]][]) =>
  it.each(rows)("%j → %j", (line, expected) => {
    expect(runHandler(TOOLS, line, opts)).toEqual(expected);
  });

describe("interpreters and shells: check-only flags, valued options, module runs and the devrites entry point", () => {
  check({}, [
    ["node server.js", ["exec: `node` runs a script"]],
    ["node --experimental-vm-modules s.js", ["exec: `node` runs a script"]],
    ["node -pe 1", ["shell-unclassified: `node -pe` runs inline code the guard cannot read"]],
    ["node --require=./r.js s.js", ["exec: `node` runs a script"]],
    ["node --require ./r.js s.js", ["exec: `node` runs a script"]],
    ["node --check s.js", []],
    ["node -c s.js", []],
    ["node --test-reporter spec --test", ["test"]],
    ["node --v8-options", []],
    ["perl -c s.pl", ["exec: `perl` runs a script"]],
    ["ruby -c s.rb", []],
    ["ruby -I lib s.rb", ["exec: `ruby` runs a script"]],
    ["python -B s.py", ["exec: `python` runs a script"]],
    ["python -Bc 1", ["shell-unclassified: `python -Bc` runs inline code the guard cannot read"]],
    ["python -V s.py", []],
    ["python -m virtualenv v", ["install: `python -m virtualenv` installs or downloads dependencies"]],
    ["python -m ensurepip", ["install: `python -m ensurepip` installs or downloads dependencies"]],
    ["python -m unittest -v", ["exec: sub unittest -v @/r"]],
    ["python -mpytest -x", ["exec: sub pytest -x @/r"]],
    ["python -m pytest -x", ["exec: sub pytest -x @/r"]],
    ["node devrites.js status", ["exec: sub devrites @/r"]],
    ["node bin/devrites", ["exec: sub devrites @/r"]],
    ["node ./DEVRITES.mjs", ["exec: sub devrites @/r"]],
    ["node devrites-x.js", ["exec: `node` runs a script"]],
    ["node tools/devritesx", ["exec: `node` runs a script"]],
    ["php -a", ["shell-unclassified: `php -a` runs inline code the guard cannot read"]],
    ["php -d x=1 s.php", ["exec: `php` runs a script"]],
    ["bash -ec ls", ["exec: script ls"]],
    ["bash --norc s.sh", ["exec: `bash` runs a script file"]],
    [
      "bash +O extglob",
      [
        "shell-unclassified: `bash` without a script file (code on stdin) runs inline code the guard cannot read",
      ],
    ],
    ["bash +O extglob s.sh", ["exec: `bash` runs a script file"]],
    ["bash --help", []],
    [
      "bash -o",
      [
        "shell-unclassified: `bash` without a script file (code on stdin) runs inline code the guard cannot read",
      ],
    ],
    [
      "bash -x",
      [
        "shell-unclassified: `bash` without a script file (code on stdin) runs inline code the guard cannot read",
      ],
    ],
  ]);
});

describe("test runners, checkers and formatters", () => {
  check({}, [
    ["perl -c s.pl", ["exec: `perl` runs a script"]],
    ["perl -v", []],
    ["vitest", ["test"]],
    ["vitest --run", ["test"]],
    ["vitest -t=auth", ["test"]],
    ["mocha --reporter-output r.txt", ["write-unknown: `--reporter-output` writes a report file"]],
    ["pytest --junitxml=r.xml", ["write-unknown: `--junitxml=r.xml` writes a report file"]],
    ["pytest --junitxml r.xml", ["write-unknown: `--junitxml` writes a report file"]],
    ["pytest -x", ["test"]],
    ["rspec --update", ["write-unknown: `--update` updates snapshot files"]],
    ["jest", ["test"]],
    ["jest --updateSnapshot", ["write-unknown: `--updateSnapshot` updates snapshot files"]],
    ["playwright uninstall", ["install: `playwright uninstall` installs or downloads dependencies"]],
    ["playwright --help", []],
    ["playwright test -u", ["write-unknown: `-u` updates snapshot files"]],
    ["cypress cache clear", ["install: `cypress cache` installs or downloads dependencies"]],
    ["cypress verify", ["test"]],
    ["tsc --version", []],
    ["tsc -h", []],
    ["tsc --help", []],
    ["tsc --showConfig", []],
    ["tsc --listFilesOnly", []],
    ["tsc --all", []],
    ["tsc -noEmit", ["test"]],
    ["tsc --NoEmit", ["test"]],
    ["tsc --noEmit true", ["test"]],
    ["tsc -p tsconfig.json --noEmit", ["test"]],
    ["tsc --noEmit -p x", ["test"]],
    ["vue-tsc --NoEmit", ["test"]],
    ["biome -V", []],
    ["biome -h", []],
    ["biome --help", []],
    ["biome init", ["write-unknown: `biome init` writes files"]],
    ["biome clean", ["write-unknown: `biome clean` writes files"]],
    ["biome lint --fix a.ts", ["write a.ts@/r"]],
    [
      "biome format --write",
      ["write-unknown: `biome` in write mode without files rewrites the whole project"],
    ],
    ["biome ci", ["test"]],
    ["ruff clean", ["write-unknown: `ruff clean` writes files"]],
    ["ruff server", ["exec: `ruff server`"]],
    ["ruff format a.py", ["write a.py@/r"]],
    ["ruff format --check a.py", ["test"]],
    ["ruff format --diff a.py", ["test"]],
    ["ruff format", ["write-unknown: `ruff` in write mode without files rewrites the whole project"]],
    ["ruff check --fix a.py", ["write a.py@/r"]],
    ["ruff check --unsafe-fixes a.py", ["write a.py@/r"]],
    ["ruff check --fix --no-fix a.py", ["test"]],
    ["ruff check a.py", ["test"]],
    ["ruff check -o r.txt a.py", ["write r.txt@/r", "test"]],
    ["ruff check --output-file=r.txt a.py", ["write r.txt@/r", "test"]],
    ["ruff check --config ruff.toml --fix a.py", ["write a.py@/r"]],
    ["ruff frob", ["exec: `ruff frob`"]],
    ["black a.py", ["write a.py@/r"]],
    ["black --check a.py", ["test"]],
    ["black --diff a.py", ["test"]],
    ["black", ["write-unknown: `black` in write mode without files rewrites the whole project"]],
    ["black -l 100 a.py", ["write a.py@/r"]],
    ["black --line-length=100 a.py", ["write a.py@/r"]],
    ['black "$x"', ["write-unknown: a variable `black` argument may be a write option"]],
    ["isort a.py", ["write a.py@/r"]],
    ["isort --check-only a.py", ["test"]],
    ["autopep8 -i a.py", ["write a.py@/r"]],
    ["autopep8 a.py", ["test"]],
    ["prettier -w a.ts", ["write a.ts@/r"]],
    ["prettier -c a.ts", ["test"]],
    ["prettier -l a.ts", ["test"]],
    ["prettier --config c --write a.ts", ["write a.ts@/r"]],
    ["prettier --write --config=c a.ts", ["write a.ts@/r"]],
    ["prettier a.ts", ["test"]],
    ["eslint -o", ["test"]],
    ["eslint --fix --fix-dry-run a.ts", ["test"]],
    ["eslint -c cfg --fix a.ts", ["write a.ts@/r"]],
    ["eslint a.ts", ["test"]],
    ["stylelint --fix a.css", ["write a.css@/r"]],
    ["markdownlint --fix a.md", ["write a.md@/r"]],
    ["markdownlint -o r.txt a.md", ["write r.txt@/r", "test"]],
    ["gofmt -w a.go", ["write a.go@/r"]],
    ["gofmt -l .", ["test"]],
    ["gofmt a.go", ["test"]],
    ["goimports -w a.go", ["write a.go@/r"]],
    ["rustfmt a.rs", ["write a.rs@/r"]],
    ["rustfmt --check a.rs", ["test"]],
    ["clang-format -i a.c", ["write a.c@/r"]],
    ["clang-format --dry-run -i a.c", ["test"]],
    ["clang-format a.c", ["test"]],
    ["shfmt -w a.sh", ["write a.sh@/r"]],
    ["shfmt -d a.sh", ["test"]],
    ["rubocop -a a.rb", ["write a.rb@/r"]],
    ["rubocop a.rb", ["test"]],
    ["rubocop -o r.txt a.rb", ["write r.txt@/r", "test"]],
    ["dprint fmt", ["write-unknown: `dprint` in write mode without files rewrites the whole project"]],
    ["dprint fmt a.ts", ["write a.ts@/r"]],
    ["dprint check", ["test"]],
    ["dprint init", ["write-unknown: `dprint init` writes files"]],
    ["dprint lsp", ["exec: `dprint lsp`"]],
    ["dprint output-file-paths", ["test"]],
  ]);
});

describe("deno, dotnet, build tools and coverage wrappers", () => {
  check({}, [
    ["deno eval 1", ["shell-unclassified: `deno eval` runs inline code the guard cannot read"]],
    ["deno repl", ["shell-unclassified: `deno repl` runs inline code the guard cannot read"]],
    ["deno remove x", ["install: `deno remove` installs or downloads dependencies"]],
    ["deno uninstall x", ["install: `deno uninstall` installs or downloads dependencies"]],
    ["deno upgrade", ["install: `deno upgrade` installs or downloads dependencies"]],
    ["deno outdated", ["install: `deno outdated` installs or downloads dependencies"]],
    ["deno cache main.ts", ["install: `deno cache` installs or downloads dependencies"]],
    ["deno vendor", ["install: `deno vendor` installs or downloads dependencies"]],
    ["deno init", ["install: `deno init` installs or downloads dependencies"]],
    ["deno check main.ts", ["test"]],
    ["deno bench", ["test"]],
    ["deno fmt a.ts", ["write a.ts@/r"]],
    ["deno fmt --check a.ts", ["test"]],
    ["deno -V", []],
    ["deno --help", []],
    ["deno doc", []],
    ["deno task build", ["exec: `deno task` runs code"]],
    ["dotnet remove package x", ["install: `dotnet remove` installs or downloads dependencies"]],
    ["dotnet tool install x", ["install: `dotnet tool` installs or downloads dependencies"]],
    ["dotnet workload install x", ["install: `dotnet workload` installs or downloads dependencies"]],
    ["dotnet new console", ["install: `dotnet new` installs or downloads dependencies"]],
    ["dotnet --version", []],
    ["dotnet --list-sdks", []],
    ["dotnet --list-runtimes", []],
    ["dotnet run", ["exec: `dotnet run` builds or runs code"]],
    ["make -j4 test", ["test"]],
    ["make test lint", ["test"]],
    ["make test build", ["exec: `make test build` builds or runs code"]],
    ["make -n", ["exec: `make` builds or runs code"]],
    ["just check", ["test"]],
    ["rake test", ["test"]],
    ["rails test", ["test"]],
    ["rails server", ["exec: `rails server` builds or runs code"]],
    ["mvn -q test", ["test"]],
    ["mvn dependency:resolve", ["install: `mvn dependency:resolve` installs or downloads dependencies"]],
    ["gradle check", ["test"]],
    ["gradle build test", ["exec: `gradle build test` builds or runs code"]],
    ["mix credo", ["test"]],
    ["mix dialyzer", ["test"]],
    ["mix deps.update x", ["install: `mix deps.update` installs or downloads dependencies"]],
    ["mix local.hex", ["install: `mix local.hex` installs or downloads dependencies"]],
    ["mix archive.install x", ["install: `mix archive.install` installs or downloads dependencies"]],
    ["swift run", ["exec: `swift run`"]],
    ["nyc check-coverage", ["test"]],
    ["nyc --reporter=lcov mocha", ["exec: sub mocha @/r"]],
    ["c8", ["test"]],
    ["astro dev", ["exec: astro"]],
  ]);
});

describe("code on stdin: one literal here-document is read like `-c`, anything else is refused", () => {
  const doc = (body: string, expands = false) => ({ body, expands });
  const STDIN =
    "shell-unclassified: `bash` without a script file (code on stdin) runs inline code the guard cannot read";
  it.each<[string, RunOptions, string[]]>([
    ["bash", { heredocs: [doc("ls")] }, ["exec: script ls"]],
    ["bash -s", { heredocs: [doc("ls")] }, ["exec: script ls"]],
    ["bash", { heredocs: [doc("ls $x", true)] }, [STDIN]],
    ["bash", { heredocs: [doc("ls")], pipedIn: true }, [STDIN]],
    ["bash", { heredocs: [doc("ls"), doc("pwd")] }, [STDIN]],
    ["bash", { pipedIn: true }, [STDIN]],
  ])("%j %j → %j", (line, opts, expected) => {
    expect(runHandler(TOOLS, line, opts)).toEqual(expected);
  });
});

describe("apply_patch: the files a literal patch names are its writes", () => {
  const patch = (body: string) => `*** Begin Patch\n*** Add File: a.txt\n+${body}\n*** End Patch`;
  it.each<[string, RunOptions, string[]]>([
    ["apply_patch", { heredocs: [{ body: patch("x"), expands: true }] }, ["write a.txt@/r"]],
    ["apply_patch", { heredocs: [{ body: patch("$x"), expands: false }] }, ["write a.txt@/r"]],
    [
      "apply_patch",
      { heredocs: [{ body: patch("$x"), expands: true }] },
      ["write-unknown: an unquoted here-document patch may expand variables into new file markers"],
    ],
    [
      "applypatch",
      { heredocs: [{ body: patch("x"), expands: false }], cwds: ["/r", "/s"] },
      ["write a.txt@/r|/s"],
    ],
  ])("%j %j → %j", (line, opts, expected) => {
    expect(runHandler(TOOLS, line, opts)).toEqual(expected);
  });
});

describe("interpreters and shells: what follows `--`, options without values and stdin forms", () => {
  check({}, [
    ["python -mpytest -x a.py", ["exec: sub pytest -x a.py @/r"]],
    ["node -- devrites.js status", ["exec: sub devrites @/r"]],
    ["node -- s.js", ["exec: `node` runs a script"]],
    ['node -- "$x"', ["exec: `node` runs a script"]],
    ["rscript --vanilla s.R", ["exec: `rscript` runs a script"]],
    ["pwsh -NoLogo s.ps1", ["exec: `pwsh` runs a script"]],
    ["bash scripts/check.sh", ["exec: `bash` runs a script file"]],
    [
      "bash -o pipefail",
      [
        "shell-unclassified: `bash` without a script file (code on stdin) runs inline code the guard cannot read",
      ],
    ],
    [
      "bash -s a b",
      [
        "shell-unclassified: `bash` without a script file (code on stdin) runs inline code the guard cannot read",
      ],
    ],
    [
      "bash - a",
      [
        "shell-unclassified: `bash` without a script file (code on stdin) runs inline code the guard cannot read",
      ],
    ],
    [
      "bash +e",
      [
        "shell-unclassified: `bash` without a script file (code on stdin) runs inline code the guard cannot read",
      ],
    ],
    ["deno fmt --quiet a.ts", ["write a.ts@/r"]],
  ]);
});

describe("through the classifier: the nested command a handler hands on is a literal command", () => {
  const classify = (line: string) => classifyShell(line, { cwd: "/r" }).map(summary);
  it.each<[string, string[]]>([
    ["python -m pip install x", ["install: `pip install` installs or downloads dependencies"]],
    ["python -m pip list", []],
    ["python3 -m mypy src", ["test"]],
    [
      "node devrites.js status",
      ["devrites-write: the devrites CLI writes the workspace; only the root runs it"],
    ],
    [
      "node -- devrites.js status",
      ["devrites-write: the devrites CLI writes the workspace; only the root runs it"],
    ],
    ["apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\nEOF", ["write a.txt@/r"]],
  ])("%j → %j", (line, expected) => {
    expect(classify(line)).toEqual(expected);
  });
});

describe("refusal hints", () => {
  it.each<[string, string[]]>([
    ['python -m "$m"', ["write it literally"]],
    ['node "$x"', ["write it literally"]],
    ["bash -O extglob s.sh", ["drop it"]],
  ])("%j → %j", (line, expected) => {
    expect(refusalHints(TOOLS, line)).toEqual(expected);
  });
});

describe("apply_patch through the classifier", () => {
  it("writes the literal paths the patch names, glob characters included", () => {
    const effects = classifyShell(
      "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: src/a*.txt\n+x\n*** Update File: b.md\n@@\n-a\n+b\n*** End Patch\nEOF",
      { cwd: "/r" },
    );
    expect(effects.map((e) => (e.kind === "write" ? literal(e.target) : e.kind))).toEqual([
      "src/a*.txt",
      "b.md",
    ]);
  });
});

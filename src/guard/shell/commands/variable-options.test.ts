// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * Variables where an option would change what a command does, across every handler: a variable that may expand
 * into an option that writes, installs, publishes or runs a program makes the command fail closed, while a
 * variable that cannot be an option (`src/$x`) is just an operand; the literal option forms sit beside them as
 * near misses. Handlers are called directly (see ./test-cx.ts); with `readOnly` the nested command is taken to
 * read only, so the handler's own fallback shows.
 */

import { describe, expect, it } from "vitest";
import { CORE } from "./core.js";
import { git } from "./git.js";
import { PACKAGES } from "./packages.js";
import { runHandler } from "./test-cx.js";
import { TOOLS } from "./tools.js";

const ALL = new Map([...CORE, ...PACKAGES, ...TOOLS, ["git", git]]);

describe("variables that may be options, and the literal forms beside them", () => {
  it.each<[string, boolean, string[]]>([
    [
      'file "$x" a',
      false,
      ["write-unknown: a variable `file` argument may be -C, which compiles a magic file"],
    ],
    ['file "a/$x"', false, []],
    ['hostname "$x"', false, ["exec: `hostname NAME` renames the host"]],
    ['tree "$x"', false, ["write-unknown: `$x` may expand into `tree -o` or `-R`"]],
    ['tree "src/$x"', false, []],
    ["tree --output=x.html", false, ["write-unknown: `tree --output=x.html`"]],
    ["tree --fromfile", false, ["write-unknown: `tree --fromfile`"]],
    ["tree -R", false, ["write-unknown: `tree -R` writes 00Tree.html files"]],
    ["tree -aR", false, ["write-unknown: `tree -R` writes 00Tree.html files"]],
    ["tree -o out.txt", false, ["write out.txt@/r"]],
    ["tree -ao out.txt", false, ["write out.txt@/r"]],
    ["tree -o", false, []],
    ["tree -a", false, []],
    ["tree -- x", false, []],
    ['rg "$x" y', false, ["shell-unclassified: `$x` may expand into an option of `rg` such as --pre"]],
    ['rg -- "$x" y', false, []],
    ['rg x "$f"', false, ["shell-unclassified: `$f` may expand into an option of `rg` such as --pre"]],
    ['rg x "src/$f"', false, []],
    ["rg -- --pre x", false, ["shell-unclassified: `rg --pre` / `--hostname-bin` runs a program"]],
    ["rg --pre x", false, ["shell-unclassified: `rg --pre` / `--hostname-bin` runs a program"]],
    ['awk -e "$p" f', false, ["shell-unclassified: a variable `awk` program"]],
    ['ln "$x" a b', false, ["write-unknown: `$x` may expand into an option or a file name of `ln`"]],
    ['ln -s a "$x"', false, ["write-unknown: `$x` may expand into an option or a file name of `ln`"]],
    ["rmdir --bogus a", false, ["shell-unclassified: `rmdir` with the option `--bogus`"]],
    ["chmod --bogus a", false, ["shell-unclassified: `chmod` with the option `--bogus`"]],
    ["install a", false, ["shell-unclassified: `install` needs a source and a destination"]],
    ["install -t d a", false, ["write d/a@/r"]],
    ['dd "if=$x" of=b', false, ["write b (sink)@/r"]],
    ['unzip "$x" a.zip', false, ["write-unknown: unzip writes the archive's files"]],
    ['gzip "$x" a', false, ["write-unknown: `gzip` replaces files in place"]],
    [
      'curl --write-out "$f" https://x',
      false,
      ["write-unknown: a variable curl argument may be an output option"],
    ],
    ['curl -w "$f" https://x', false, ["write-unknown: a variable curl argument may be an output option"]],
    ["curl -- https://x", false, ["exec: curl reaches the network; use the host's web fetch tool"]],
    ['trap "$x"', false, ["shell-unclassified: `trap` installs code to run later"]],
    ["pnpm -- test", false, ["test"]],
    [
      "npx --prefix p vitest",
      false,
      ["install: `npx vitest` (not an installed local binary) installs or downloads dependencies"],
    ],
    [
      "npx --workspace w vitest",
      false,
      ["install: `npx vitest` (not an installed local binary) installs or downloads dependencies"],
    ],
    [
      "npx @scope",
      false,
      ["install: `npx @scope` (not an installed local binary) installs or downloads dependencies"],
    ],
    ['npm pkg "$x"', false, ["install: `npm pkg …` installs or downloads dependencies"]],
    ['npm config "$x"', false, ["install: `npm config set` installs or downloads dependencies"]],
    ['npm cache "$x"', false, ["install: `npm cache` installs or downloads dependencies"]],
    ["pnpm echo", true, ["exec: `pnpm echo` runs a script or binary"]],
    ["yarn echo", true, ["exec: `yarn echo` runs a script or binary"]],
    ['uv pip "$v"', false, ["install: `uv pip ` installs or downloads dependencies"]],
    ["uv pip", false, ["install: `uv pip ` installs or downloads dependencies"]],
    ["pipx run", false, ["install: `pipx run` installs or downloads dependencies"]],
    ["poetry run", false, []],
    ['cargo "$x"', false, ["shell-unclassified: a variable cargo command"]],
    ["cargo --version", false, []],
    ["cargo metadata", false, []],
    ['go run "$x"', false, ["install: `go run pkg@version` installs or downloads dependencies"]],
    ['go run "x/$y"', false, ["install: `go run pkg@version` installs or downloads dependencies"]],
    ['gem "$x"', false, ["shell-unclassified: a variable gem verb"]],
    ['bundle "$x"', false, ["install: `bundle ` installs or downloads dependencies"]],
    ["bundle", false, ["install: bare `bundle` installs or downloads dependencies"]],
    ["apt -o x install y", false, ["install: `apt install` installs or downloads dependencies"]],
    ["apt -c cfg list", false, ["exec: `apt list`"]],
    ['apt "$v"', false, ["install: `apt …` installs or downloads dependencies"]],
    ["apt list", false, ["exec: `apt list`"]],
    ['pacman "$x"', false, ["install: `pacman -S/-R/-U` installs or downloads dependencies"]],
    ['dpkg "$x"', false, ["install: `dpkg` install or removal installs or downloads dependencies"]],
    ['rpm "$x"', false, ["install: `rpm` install or removal installs or downloads dependencies"]],
    ['gh api "$x" repos/x', false, ["publish: `gh api` with a variable argument publishes or releases"]],
    ['gh api repos/x -X "$m"', false, ["publish: `gh api` with a variable argument publishes or releases"]],
    ["gh api --method", false, ["publish: `gh api` with a write method publishes or releases"]],
    [
      'git remote "$x"',
      false,
      ["git-mutation: `git remote` changes the repository (refs, index, objects, configuration or a remote)"],
    ],
    [
      'git remote "o/$x"',
      false,
      ["git-mutation: `git remote` changes the repository (refs, index, objects, configuration or a remote)"],
    ],
    ['git config "a.$x"', false, []],
    [
      'git config "a.$x" v',
      false,
      [
        "git-mutation: `git config <key> <value>` changes the repository (refs, index, objects, configuration or a remote)",
      ],
    ],
    ['git grep "src/$x"', false, []],
    ['git archive "$x"', false, ["shell-unclassified: `$x` may expand into an option of git archive"]],
    ['tsc "$x"', false, ["exec: tsc emits build output; add --noEmit for a type check"]],
    ['tsc "src/$x"', false, ["exec: tsc emits build output; add --noEmit for a type check"]],
    ['vue-tsc "$x"', false, ["exec: vue-tsc emits declarations; add --noEmit"]],
    ["mvn dependency:get", false, ["install: `mvn dependency:get` installs or downloads dependencies"]],
    [
      "mvn -q dependency:resolve x",
      false,
      ["install: `mvn dependency:resolve x` installs or downloads dependencies"],
    ],
    ['c8 "$x" vitest', false, ["exec: sub $x vitest @/r"]],
    ["c8 -r text vitest", false, ["exec: sub text vitest @/r"]],
    ["apply_patch", false, ["write-unknown: apply_patch without a literal patch"]],
    ['apply_patch "*** Begin Patch"', false, ["write-unknown: a malformed patch (no file operation)"]],
    ['apply_patch "$p"', false, ["write-unknown: apply_patch without a literal patch"]],
    ["npm pkg", false, []],
    ["npm pkg get x", false, []],
    ["go run .", false, ["exec: `go run` builds or runs code"]],
    ["gh api -XPOST repos/x", false, ["publish: `gh api` with a write method publishes or releases"]],
    ["gh api -XGET repos/x", false, ["exec: `gh api` reaches the network"]],
    ["gh api --method=get repos/x", false, ["exec: `gh api` reaches the network"]],
  ])("%j (readOnly: %s) → %j", (line, readOnlySub, expected) => {
    expect(runHandler(ALL, line, { readOnlySub })).toEqual(expected);
  });
});

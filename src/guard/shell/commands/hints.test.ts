// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * What a refused command tells the leaf to do instead: the hint of every kind of refusal the handlers give, one
 * command per handler and hint. The rule and the reason are pinned by the handler tables beside this file.
 */

import { describe, expect, it } from "vitest";
import { CORE } from "./core.js";
import { git } from "./git.js";
import { PACKAGES } from "./packages.js";
import { refusalHints } from "./test-cx.js";
import { TOOLS } from "./tools.js";

const ALL = new Map([...CORE, ...PACKAGES, ...TOOLS, ["git", git]]);

describe("refusal hints", () => {
  it.each<[string, string[]]>([
    ["printf -v x y", ["print to stdout"]],
    ["test -v x", ["test the value directly"]],
    ['date "$x"', ["write it literally"]],
    ["uniq --bogus a b", ["use its common options"]],
    ["rg --pre=x y", ["drop the option"]],
    ["find src/$x -name a", ["write it literally"]],
    ["find . -exec rm {}", ["end it with \\;"]],
    ["find . -exec ;", ["give one"]],
    ["find . -ok rm {} ;", ["use -exec"]],
    ["fd -x", ["give one"]],
    ['fd "$x"', ["write it literally"]],
    ["xargs -Z", ["use -0, -n, -I"]],
    ["xargs $x", ["write it literally"]],
    ["awk -f prog.awk x", ["give the program inline"]],
    ["awk -Q x", ["use -F, -v or -e"]],
    ["awk $x", ["write it literally"]],
    ["awk", ["give the program"]],
    [
      'awk {print>"out"} f',
      ["compare with `<` (swap the operands) instead of `>`, and pipe in the shell, not inside awk"],
    ],
    ['sed "$s" f', ["write the argument literally"]],
    ["sed -xi s/a/b/ f", ["use its common options"]],
    ["sed -f s.sed f", ["give the script inline"]],
    ["sed -e s/a/b/e f", ["use p, s, d"]],
    ["sed", ["give the script"]],
    ['sed -e "$e" f', ["write it literally"]],
    ["cp a", ["give both"]],
    ["rm", ["name the file"]],
    ["chmod 644", ["name the file"]],
    ["install --bogus a b", ["use its common options"]],
    ["link a", ["give two"]],
    ["tar -I zstd -cf a.tar x", ["drop the option"]],
    ["tar -f a.tar", ["use -t, -x or -c"]],
    ["hash -p /bin/x ls", ["call the program by its path"]],
    ['trap "rm x" EXIT', ["run the code directly"]],
    ["alias ll=ls", ["call the command directly"]],
    ["shopt -s extglob", ["drop it"]],
    ["wait -p v", ["drop -p"]],
    ["export -n A", ["use a plain variable"]],
    ["export 1a=x", ["use a plain name"]],
    ['readonly "$x"', ["use a plain name"]],
    ["getopts ab 1x", ["use a plain name"]],
    ['unset "a[0]"', ["use a plain name"]],
    ["eval x", ["run the command directly"]],
    ["source f", ["run it as `bash file`"]],
    [". f", ["run it as `bash file`"]],
    ["let x=1", ["compute the value elsewhere"]],
    ["mapfile arr", ["read the file with cat"]],
    ["readarray arr", ["read the file with cat"]],
    ["case x", ["use if/then"]],
    ["watch ls", ["run the command once"]],
    ["sudo -s", ["drop it"]],
    ["sudo --bogus ls", ["use it without options"]],
    ['sudo "$x" ls', ["write it literally"]],
    ['env -S "rm a"', ["use env NAME=value cmd"]],
    ['env "$x" rm a', ["write it literally"]],
    ["timeout -Z 5 rm a", ["use timeout DURATION cmd"]],
    ["stdbuf --bogus rm a", ["use it without options"]],
    ["exec -z rm a", ["drop them"]],
    ['npm run "$s"', ["write it literally"]],
    [
      "npm pkg set x=1",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    ["npm edit x", ["drop it"]],
    [
      "npx -- vitest",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    ['npx "$x"', ["write it literally"]],
    ['npx -c "rm a"', ["run the command directly"]],
    ["npx", ["name the binary"]],
    ["pnpx vitest", ["leaves never change dependencies; report the missing package and let the root decide"]],
    ["bunx vitest", ["leaves never change dependencies; report the missing package and let the root decide"]],
    ['pnpm "$c"', ["write it literally"]],
    ["pnpm add x", ["leaves never change dependencies; report the missing package and let the root decide"]],
    ["pnpm publish", ["leaves never publish; report it to the root"]],
    ["yarn", ["leaves never change dependencies; report the missing package and let the root decide"]],
    ['bun "$c"', ["write it literally"]],
    ["bun install", ["leaves never change dependencies; report the missing package and let the root decide"]],
    ["bun publish", ["leaves never publish; report it to the root"]],
    ['pip "$v"', ["write it literally"]],
    [
      "pip install x",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    ['uv "$c"', ["write it literally"]],
    [
      "uv run pytest",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    ["uvx ruff", ["leaves never change dependencies; report the missing package and let the root decide"]],
    ["pipx run x", ["leaves never change dependencies; report the missing package and let the root decide"]],
    [
      "poetry install",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    ['cargo "$v"', ["write it literally"]],
    [
      "cargo install x",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    ['go "$v"', ["write it literally"]],
    ["go get x", ["leaves never change dependencies; report the missing package and let the root decide"]],
    ["gem push x", ["leaves never publish; report it to the root"]],
    [
      "gem install x",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    [
      "bundle install",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    [
      "apt install x",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    [
      "apt-get -y install x",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    ['dnf "$x"', ["leaves never change dependencies; report the missing package and let the root decide"]],
    [
      "brew install x",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    ["pacman -S x", ["leaves never change dependencies; report the missing package and let the root decide"]],
    [
      "dpkg -i x.deb",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    [
      "rpm -ivh x.rpm",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    ['gh "$x"', ["write it literally"]],
    ["gh api -X POST repos/x", ["leaves never publish; report it to the root"]],
    ["twine upload dist/*", ["leaves never publish; report it to the root"]],
    [
      "corepack enable",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    [
      "devrites status",
      ["return your agent-result/v1 as your final message; the root records and checks it"],
    ],
    ["claude -p x", ["leaves never delegate; do the work yourself or report that it needs another step"]],
    ['python "$x"', ["write it literally"]],
    [
      "python -c 1",
      [
        "use the Edit/Write tools for files; for a computation, put a script in a file inside your allowlist (wright) or report what you need (read-only roles)",
      ],
    ],
    [
      "python -m venv .venv",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    [
      "node -e 1",
      [
        "use the Edit/Write tools for files; for a computation, put a script in a file inside your allowlist (wright) or report what you need (read-only roles)",
      ],
    ],
    [
      "perl -e 1",
      [
        "use the Edit/Write tools for files; for a computation, put a script in a file inside your allowlist (wright) or report what you need (read-only roles)",
      ],
    ],
    [
      "ruby -e 1",
      [
        "use the Edit/Write tools for files; for a computation, put a script in a file inside your allowlist (wright) or report what you need (read-only roles)",
      ],
    ],
    [
      "php -r 1",
      [
        "use the Edit/Write tools for files; for a computation, put a script in a file inside your allowlist (wright) or report what you need (read-only roles)",
      ],
    ],
    [
      "lua -e 1",
      [
        "use the Edit/Write tools for files; for a computation, put a script in a file inside your allowlist (wright) or report what you need (read-only roles)",
      ],
    ],
    [
      "rscript -e 1",
      [
        "use the Edit/Write tools for files; for a computation, put a script in a file inside your allowlist (wright) or report what you need (read-only roles)",
      ],
    ],
    [
      "pwsh -c x",
      [
        "use the Edit/Write tools for files; for a computation, put a script in a file inside your allowlist (wright) or report what you need (read-only roles)",
      ],
    ],
    ['bash "$x"', ["write it literally"]],
    [
      'bash -c "$s"',
      [
        "use the Edit/Write tools for files; for a computation, put a script in a file inside your allowlist (wright) or report what you need (read-only roles)",
      ],
    ],
    ["bash -O extglob s.sh", ["drop it"]],
    [
      "deno",
      [
        "use the Edit/Write tools for files; for a computation, put a script in a file inside your allowlist (wright) or report what you need (read-only roles)",
      ],
    ],
    ['deno "$x"', ["write it literally"]],
    [
      "deno install x",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    [
      "dotnet restore",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    [
      "playwright install",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    [
      "cypress install",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    [
      "mix deps.get",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    [
      "swift package update",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
    ["tox", ["leaves never change dependencies; report the missing package and let the root decide"]],
    ["nox", ["leaves never change dependencies; report the missing package and let the root decide"]],
    ['git "$x" status', ["write it literally"]],
    ["git -c core.pager=sh log", ["drop -c (only color.*, advice.*, i18n.*, core.quotepath are accepted)"]],
    ["git --frob log", ["use plain git <subcommand>"]],
    ['git "$s"', ["write it literally"]],
    [
      "git commit -m x",
      [
        "leaves never commit, stage, switch branches or talk to remotes; report what should change and let the root do it",
      ],
    ],
    ['git diff "$x"', ["write it literally"]],
    ['git branch "$x"', ["write it literally"]],
    [
      'git branch "b/$x"',
      [
        "leaves never commit, stage, switch branches or talk to remotes; report what should change and let the root do it",
      ],
    ],
    ['git tag "$x"', ["write it literally"]],
    [
      'git tag "v/$x"',
      [
        "leaves never commit, stage, switch branches or talk to remotes; report what should change and let the root do it",
      ],
    ],
    [
      "git remote add o u",
      [
        "leaves never commit, stage, switch branches or talk to remotes; report what should change and let the root do it",
      ],
    ],
    [
      "git config user.name x",
      [
        "leaves never commit, stage, switch branches or talk to remotes; report what should change and let the root do it",
      ],
    ],
    ['git config "$x"', ["write it literally"]],
    [
      "git symbolic-ref HEAD refs/heads/x",
      [
        "leaves never commit, stage, switch branches or talk to remotes; report what should change and let the root do it",
      ],
    ],
    ["git grep -O x", ["drop -O"]],
    ['git grep "$x"', ["write it literally"]],
    ['git fsck "$x"', ["write it literally"]],
    [
      "git hash-object -w f",
      [
        "leaves never commit, stage, switch branches or talk to remotes; report what should change and let the root do it",
      ],
    ],
    ['git hash-object "$x" f', ["write it literally"]],
    ['git interpret-trailers "$x"', ["write it literally"]],
    [
      "git stash",
      [
        "leaves never commit, stage, switch branches or talk to remotes; report what should change and let the root do it",
      ],
    ],
    [
      "git worktree add ../wt",
      [
        "leaves never commit, stage, switch branches or talk to remotes; report what should change and let the root do it",
      ],
    ],
    [
      'git lfs track "*.bin"',
      [
        "leaves never commit, stage, switch branches or talk to remotes; report what should change and let the root do it",
      ],
    ],
    ["git submodule foreach ls", ["run it directly"]],
    [
      "git sparse-checkout",
      [
        "leaves never commit, stage, switch branches or talk to remotes; report what should change and let the root do it",
      ],
    ],
    ["git frob", ["use status, diff, log, show, blame, grep, ls-files or rev-parse"]],
    ['rg "$x" y', ["write it literally, or after --"]],
    ["rmdir --bogus a", ["use its common options"]],
    ["chmod --bogus a", ["use its common options"]],
    ["install a", ["give both"]],
    ['gem "$x"', ["write it literally"]],
    ['git archive "$x"', ["write it literally"]],
    [
      "mvn dependency:get",
      ["leaves never change dependencies; report the missing package and let the root decide"],
    ],
  ])("%j → %j", (line, hints) => {
    expect(refusalHints(ALL, line)).toEqual(hints);
  });
});

/** Classification of single commands into effects, summarised as short strings. */

import { describe, expect, it } from "vitest";
import { classifyArgvCommand, classifyShell } from "./classify.js";
import type { Effect } from "./effects.js";
import { showWord } from "./parse.js";

function summary(e: Effect): string {
  switch (e.kind) {
    case "write":
      return `write ${showWord(e.target)}${e.dir ? "/" : ""}@${e.cwds.map((c) => c ?? "?").join("|")}`;
    case "deny":
      return e.rule.replace("guard.", "");
    case "env":
      return `env ${e.name}`;
    default:
      return e.kind;
  }
}

const local = new Set(["vitest", "prettier", "eslint", "tsc", "jest", "biome"]);
const run = (c: string) => classifyShell(c, { cwd: "/r", hasLocalBin: (n) => local.has(n) }).map(summary);

describe("classifyShell", () => {
  it.each<[string, string[]]>([
    // reading
    ["cat a b | grep x | sort -u | head", []],
    ["ls -la && pwd; echo done", []],
    ["find . -name '*.ts' -newer x -print0 | xargs -0 wc -l", []],
    ["git log --oneline | head", []],
    // redirects
    ["echo x > a", ["write a@/r"]],
    ["echo x 2> a >> b &> c", ["write a@/r", "write b@/r", "write c@/r"]],
    ["echo x >&2 2>&1 <&0 >&-", []],
    ["cat < in > /dev/null", ["write /dev/null@/r"]],
    // cd tracking
    ["cd sub && touch a", ["write a@/r|/r/sub"]],
    ["cd sub; cd deeper; touch a", ["write a@/r|/r/sub|/r/deeper|/r/sub/deeper"]],
    ["cd /abs && touch a", ["write a@/r|/abs"]],
    ["cd && touch a", ["write a@/r|?"]],
    ["cd - && touch a", ["write a@/r|?"]],
    ["cd a/.. && touch a", ["write a@/r|?"]],
    ["pushd sub && popd && touch a", ["write a@/r|/r/sub|?"]],
    ["builtin cd sub && touch a", ["write a@/r|?"]],
    ["env -C sub touch a", ["write a@/r/sub"]],
    ["sudo -D sub touch a", ["write a@/r/sub"]],
    ['cd "$d"; cd sub; touch a', ["write a@/r|?|/r/sub"]],
    ["cp a/.. dir/", ["write-unknown"]],
    ["cp . dir/", ["write-unknown"]],
    ["cp a/ dir/", ["write dir/a@/r"]],
    ["cp '' dir/", ["write-unknown"]],
    ['cp a "$d"/', ["write-unknown"]],
    ["env -C", []],
    ['env -C "$d" touch a', ["write a@?"]],
    // wrappers
    ["time -o t.txt ls", ["write t.txt@/r"]],
    ["timeout -s KILL 5 rm a", ["write a@/r"]],
    ["nice -n 5 rm a", ["write a@/r"]],
    ["nohup rm a", ["write a@/r"]],
    ["stdbuf -oL rm a", ["write a@/r"]],
    ["env A=1 B=2 rm a", ["env A", "env B", "write a@/r"]],
    ["env -S 'rm a'", ["shell-unclassified"]],
    ["command -v rm", []],
    ["command rm a", ["write a@/r"]],
    ["exec rm a", ["exec", "write a@/r"]],
    ["exec 3>out", ["write out@/r"]],
    ["busybox rm a", ["write a@/r"]],
    ["sudo -s", ["shell-unclassified"]],
    ["A=1 B=$x cmd", ["env A", "env B", "exec"]],
    // nested commands
    ["find . -exec grep -l x {} +", []],
    ["find . -execdir rm {} \\;", ["write-unknown"]],
    ["find . -ok rm {} \\;", ["shell-unclassified"]],
    ["find . -fprintf out '%p'", ["write out@/r"]],
    ["xargs -I{} cp {} dst", ["write-unknown"]],
    ["xargs -0 -n1 grep x", []],
    ["xargs", []],
    ["bash -c 'touch a; ls'", ["write a@/r"]],
    ["sh -ec 'rm a'", ["write a@/r"]],
    ["bash script.sh", ["exec"]],
    ["bash -c 'bash -c \"rm a\"'", ["write a@/r"]],
    ["sh <<'E'\nrm a\nE", ["write a@/r"]],
    ["sh <<E\nrm $x\nE", ["shell-unclassified"]],
    ["cat s | sh", ["shell-unclassified"]],
    ["bash -i", ["shell-unclassified"]],
    // writers
    ["tee -a a b < x", ["write a@/r", "write b@/r"]],
    ["cp a b", ["write b@/r"]],
    ["cp a b dir", ["write dir/a@/r", "write dir/b@/r"]],
    ["cp -t dir a b", ["write dir/a@/r", "write dir/b@/r"]],
    ["cp a dir/", ["write dir/a@/r"]],
    ["cp -T a dir/", ["write dir/@/r"]],
    ["cp --backup a b", ["write-unknown"]],
    ["cp -r a b", ["write-unknown"]],
    ["cp $x b", ["write-unknown"]],
    ["mv a b", ["write b@/r", "write a@/r"]],
    ["ln a b", ["write b@/r"]],
    ["ln -s a", ["write a@/r"]],
    ["rm -rf a b", ["write a@/r", "write b@/r"]],
    ["rm", ["shell-unclassified"]],
    ["rm --frobnicate a", ["shell-unclassified"]],
    ["mkdir -p -m 755 a/b", ["write a/b/@/r"]],
    ["rmdir a", ["write a/@/r"]],
    ["rmdir -p a/b", ["write-unknown"]],
    ["install -d a b", ["write a/@/r", "write b/@/r"]],
    ["install -m 644 a b", ["write b@/r"]],
    ["chmod 644 a", ["write a@/r"]],
    ["chmod -R u+x a", ["write a@/r"]],
    ["chmod --reference=r a", ["write a@/r"]],
    ["chown -R u:g a", ["write a@/r"]],
    ["touch -d '2020-01-01' a", ["write a@/r"]],
    ["truncate -s 0 a", ["write a@/r"]],
    ["dd if=a of=b bs=1", ["write b@/r"]],
    ["dd if=a", []],
    ["dd of=$x", ["write-unknown"]],
    ["sort -k2 -o out in", ["write out@/r"]],
    ["sort --output=out in", ["write out@/r"]],
    ["sort --compress-program=gzip in", ["shell-unclassified"]],
    ["uniq -c in out", ["write out@/r"]],
    ["xxd -r in out", ["write out@/r"]],
    ["iconv -f utf8 -t ascii -o out in", ["write out@/r"]],
    ["sed -i -e s/a/b/ -e s/c/d/ f g", ["write f@/r", "write g@/r"]],
    ["sed -Ei.orig s/a/b/ f", ["write f@/r", "write f.orig@/r"]],
    ["sed -i '' s/a/b/ f", ["write f@/r"]],
    ["sed --in-place=.b s/a/b/ f", ["write f@/r", "write f.b@/r"]],
    ["sed -n '/x/w out' f", ["write-unknown"]],
    ["sed -f s.sed f", ["shell-unclassified"]],
    ["sed $x f", ["shell-unclassified"]],
    ["tar cf out.tar dir", ["write out.tar@/r"]],
    ["tar -cf - dir", []],
    ["tar -xOf a.tar f", []],
    ["tar -tvf a.tar", []],
    ["tar -xf a.tar -C dir", ["write-unknown"]],
    ["tar -I zstd -cf a dir", ["shell-unclassified"]],
    ["curl -o a -O url", ["write-unknown"]],
    ["curl --output a url", ["write a@/r", "exec"]],
    ["curl -o - url", ["exec"]],
    ["curl -w '%output{x}' url", ["write-unknown"]],
    ["curl -D h url", ["write-unknown"]],
    ["wget -qO- url", ["exec"]],
    ["wget -O f url", ["write-unknown"]],
    ["gzip -dc a.gz", []],
    ["gzip a", ["write-unknown"]],
    ["yq -i '.a=1' f.yaml", ["write f.yaml@/r"]],
    ["apply_patch '*** Begin Patch\n*** Add File: z\n+1\n*** End Patch'", ["write z@/r"]],
    ["apply_patch <<E\n*** Begin Patch\n*** Add File: $f\n*** End Patch\nE", ["write-unknown"]],
    // interpreters
    ["python3 -m pytest -q", ["test"]],
    ["python -m pip install x", ["install"]],
    ["python -m venv .venv", ["install"]],
    ["python -m http.server", ["exec"]],
    ["python script.py", ["exec"]],
    ["python3.12 -c 1", ["shell-unclassified"]],
    ["python -Wd -c 1", ["shell-unclassified"]],
    ["python", ["shell-unclassified"]],
    ["python -", ["shell-unclassified"]],
    ["node --test", ["test"]],
    ["node --check a.js", []],
    ["node -r ts-node/register a.ts", ["exec"]],
    ["node bin/devrites.js x", ["devrites-write"]],
    ["perl -ne 'print' f", ["shell-unclassified"]],
    ["ruby script.rb", ["exec"]],
    ["php -r 'echo 1;'", ["shell-unclassified"]],
    ["deno eval 1", ["shell-unclassified"]],
    ["deno test", ["test"]],
    ["bun -e 1", ["shell-unclassified"]],
    ["bun test", ["test"]],
    // packages and scripts
    ["npm run test:unit", ["test"]],
    ["npm run lint:fix", ["write-unknown"]],
    ["npm run format", ["write-unknown"]],
    ["pnpm format", ["write-unknown"]],
    ["npm run build", ["exec"]],
    ["npm run", []],
    ["npm -w pkg run build", ["exec"]],
    ["npm exec vitest run", ["test"]],
    ["npm pack", ["write-unknown"]],
    ["npm audit", []],
    ["npm audit fix", ["install"]],
    ["npm config set x y", ["install"]],
    ["pnpm lint", ["test"]],
    ["pnpm vitest run", ["test"]],
    ["pnpm exec eslint --fix a.ts", ["write a.ts@/r"]],
    ["yarn", ["install"]],
    ["yarn build", ["exec"]],
    ["npx prettier --check .", ["test"]],
    ["npx prettier --write a.ts b.ts", ["write a.ts@/r", "write b.ts@/r"]],
    ["npx prettier --parser typescript --write a.ts", ["write a.ts@/r"]],
    ["npx eslint -o report.json src", ["write report.json@/r", "test"]],
    ["npx tsc --noEmit -p .", ["test"]],
    ["npx tsc -p .", ["exec"]],
    ["npx tsc --init", ["write-unknown"]],
    ["npx vitest run -u", ["write-unknown"]],
    ["npx vitest run -t 'x u'", ["test"]],
    ["npx jest --ci", ["test"]],
    ["npx biome format src", ["test"]],
    ["npx biome format --write src", ["write src@/r"]],
    ["npx biome check --write", ["write-unknown"]],
    ["ruff format --check .", ["test"]],
    ["ruff format a.py", ["write a.py@/r"]],
    ["ruff check --fix a.py", ["write a.py@/r"]],
    ["black a.py", ["write a.py@/r"]],
    ["black --check .", ["test"]],
    ["gofmt -l .", ["test"]],
    ["gofmt -w a.go", ["write a.go@/r"]],
    ["cargo +nightly test", ["test"]],
    ["cargo test --all", ["test"]],
    ["cargo build", ["exec"]],
    ["go test ./...", ["test"]],
    ["go run x@latest", ["install"]],
    ["make -n", ["exec"]],
    ["make check", ["test"]],
    ["make build", ["exec"]],
    ["mvn -q test", ["test"]],
    ["c8 vitest run", ["test"]],
    ["uv run --no-sync python -m pytest", ["test"]],
    ["poetry run pytest", ["test"]],
    ["bundle exec rspec", ["test"]],
    ["pip show x", []],
    ["gh pr view", ["exec"]],
    ["gh release download v1", ["write-unknown"]],
    // refusals
    ["$x a", ["shell-unclassified"]],
    ["*.sh", ["shell-unclassified"]],
    ["ssh host ls", ["shell-unclassified"]],
    ["docker run img", ["shell-unclassified"]],
    ["watch ls", ["shell-unclassified"]],
    ["git st", ["shell-unclassified"]],
    ["git -c color.ui=always log", []],
    ["git -c alias.x='!rm a' x", ["shell-unclassified"]],
    ["git --exec-path=/tmp status", ["shell-unclassified"]],
    ["git log $x", ["shell-unclassified"]],
    ['git log "$x"', ["shell-unclassified"]],
    ['git show "v$x"', []],
    ["git grep -nO foo", ["shell-unclassified"]],
    ["git archive -o a.zip HEAD", ["write a.zip@/r"]],
    ["git format-patch -1", ["write-unknown"]],
    ["git format-patch --stdout -1", []],
    ["git symbolic-ref HEAD", []],
    ["git symbolic-ref HEAD refs/heads/x", ["git-mutation"]],
    ["git hash-object -w f", ["git-mutation"]],
    ["git reflog", []],
    ["git reflog expire --all", ["git-mutation"]],
    ["git submodule foreach ls", ["shell-unclassified"]],
    ["git submodule update", ["git-mutation"]],
    ["git notes add -m x", ["git-mutation"]],
    ["git bisect start", ["git-mutation"]],
    ["git", []],
    // builtins
    ["read -r a b", ["env a", "env b"]],
    ["read -p 'x' -a arr", ["env arr"]],
    ["export A=1 b", ["env A", "env b"]],
    ["declare -n ref=x", ["shell-unclassified"]],
    ["declare 'a[$(x)]=1'", ["shell-unclassified"]],
    ["unset 'a[0]'", ["shell-unclassified"]],
    ["getopts ab opt", ["env opt"]],
    ["for PATH in /x; do ls; done", ["env PATH"]],
    ["if true; then ls; fi x", ["shell-unclassified"]],
    ["hash -p /bin/rm cat", ["shell-unclassified"]],
    ["trap - EXIT", ["shell-unclassified"]],
    ["trap -l", []],
    ["alias", []],
    ["shopt -su x", ["shell-unclassified"]],
    ["wait -p v", ["shell-unclassified"]],
    ["date -d tomorrow +%F", []],
    ["date 0101", ["exec"]],
    ["hostname", []],
    ["hostname evil", ["exec"]],
    ["file -C -m x", ["write-unknown"]],
    ["rg --pre cat x", ["shell-unclassified"]],
    ["fd -e ts -x rm", ["write-unknown"]],
    ["tree -o out.txt", ["write out.txt@/r"]],
    ["claude", ["spawn"]],
    ["devrites", ["devrites-write"]],
    ["/usr/bin/rm a", ["write a@/r"]],
    ["./rm a", ["exec", "write a@/r"]],
    ["node_modules/.bin/vitest run", ["test"]],
    ["RM a", ["write a@/r"]],
  ])("%j → %j", (command, expected) => {
    expect(run(command)).toEqual(expected);
  });

  it("classifies the argv form without a shell", () => {
    const argv = (xs: string[]) => classifyArgvCommand(xs, { cwd: "/r" }).map(summary);
    expect(argv(["bash", "-lc", "rm a"])).toEqual(["write a@/r"]);
    expect(argv(["rm", "$x"])).toEqual(["write $x@/r"]);
    expect(argv(["git", "status"])).toEqual([]);
  });
});

describe("classifyShell: directories and option-like words", () => {
  it.each<[string, string[]]>([
    // `cd ''` stays put in bash, but the guard does not model it: unknown.
    ["cd '' && touch a", ["write a@/r|?"]],
    ["cd sub/ && touch a", ["write a@/r|/r/sub"]],
    // Each directory once, however many times a `cd` reaches it.
    ["cd sub; cd /r/sub; touch a", ["write a@/r|/r/sub"]],
    // An absolute directory is known even after an unknown one.
    ['env -C "$d" env -C /abs touch a', ["write a@/abs"]],
    ['env -C "$d" env -C b touch a', ["write a@?"]],
    ["cp a/. dir/", ["write-unknown"]],
    // A command named by a path from the root directory is still that command, and runs a program by path.
    ["/rm a", ["exec", "write a@/r"]],
    // A word that may expand into an option (a variable or a glob starting with a wildcard) makes a command with
    // dangerous options unclassified; a glob that starts with a literal character cannot be an option.
    ['sort "$x"', ["shell-unclassified"]],
    ["sort *", ["shell-unclassified"]],
    ["sort ?", ["shell-unclassified"]],
    ["sort [a]", ["shell-unclassified"]],
    ["sort x*", []],
    ["sort ./*", []],
    ["sort a[b]", []],
    ["sort -- *", []],
  ])("%j → %j", (command, expected) => {
    expect(run(command)).toEqual(expected);
  });
});

describe("classifyShell: versioned interpreters, descriptors and nesting limits", () => {
  /** `bash -c '…'` nested `levels` times around `inner`, quoted the way a shell needs it. */
  const nested = (levels: number, inner: string): string => {
    let s = inner;
    for (let k = 0; k < levels; k += 1) s = `bash -c '${s.replaceAll("'", "'\\''")}'`;
    return s;
  };
  it.each<[string, string[]]>([
    ["pip3.11 install x", ["install"]],
    ["node18 -e 1", ["shell-unclassified"]],
    ["ruby3.2 -e 1", ["shell-unclassified"]],
    ["php8 -r 1", ["shell-unclassified"]],
    ["python3.12 -c 1", ["shell-unclassified"]],
    ["cat <&file", ["shell-unclassified"]],
    ["cat <&3", []],
    ['cp "a/$x" dir/', ["write-unknown"]],
    ["sudo sudo sudo sudo sudo sudo sudo sudo rm a", ["write a@/r"]],
    ["sudo sudo sudo sudo sudo sudo sudo sudo sudo sudo rm a", ["shell-unclassified"]],
    [nested(8, "rm a"), ["write a@/r"]],
    [nested(10, "rm a"), ["shell-unclassified"]],
  ])("%j → %j", (command, expected) => {
    expect(run(command)).toEqual(expected);
  });
});

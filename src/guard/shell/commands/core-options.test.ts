// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * Option reading of the read-only utilities with dangerous options, find/fd/xargs, awk/sed/yq, the builtins and
 * the command wrappers, pinned row by row (see ./test-cx.ts for the notation). Each option that turns a reading
 * command into one that writes or runs a program has a positive row and near misses beside it.
 */

import { describe, expect, it } from "vitest";
import { CORE } from "./core.js";
import { refusalHints, runHandler } from "./test-cx.js";

const check = (rows: [string, string[]][]) =>
  it.each(rows)("%j → %j", (line, expected) => {
    expect(runHandler(CORE, line)).toEqual(expected);
  });

const CLOCK = "exec: `date` sets the clock";
const ARITH = "shell-unclassified: `[[ … -eq … ]]` evaluates its operands as arithmetic, which can run code";
const AWK_WRITES =
  "shell-unclassified: the awk program uses `>`, `|`, `system` or `@`, which can write files or run commands";

describe("date: only setting the clock changes anything", () => {
  check([
    ["date", []],
    ["date -u +%s", []],
    ["date -d tomorrow +%F", []],
    ["date -d 0101", []],
    ["date -dtomorrow 0101", [CLOCK]],
    ["date --date tomorrow", []],
    ["date --date=0101", []],
    ["date --da 0101", []],
    ["date -f dates", []],
    ["date --file dates", []],
    ["date -r file", []],
    ["date --reference file", []],
    ["date --rfc-3339 seconds", []],
    ["date -Iseconds", []],
    ["date -R", []],
    ["date --utc 0101", [CLOCK]],
    ["date -s 2020-01-01", [CLOCK]],
    ["date --set=2020-01-01", [CLOCK]],
    ["date --set 2020-01-01", [CLOCK]],
    // GNU date takes abbreviated long options and bundled short ones
    ["date --se=@0", [CLOCK]],
    ["date --s @0", [CLOCK]],
    ["date -us@0", [CLOCK]],
    ["date -u -s @0", [CLOCK]],
    ["date 010100002020", [CLOCK]],
    ["date -u 0101", [CLOCK]],
    ['date "+%F"', []],
  ]);
});

describe("test, [[, hostname, file, printf", () => {
  check([
    ["[ -v x ]", ["shell-unclassified: `test -v`/`-R` evaluates array subscripts"]],
    ["[ -f x ]", []],
    ['test "$x" = y', []],
    ["[[ a -eq b ]]", [ARITH]],
    ["[[ a -ne b ]]", [ARITH]],
    ["[[ a -lt b ]]", [ARITH]],
    ["[[ a -le b ]]", [ARITH]],
    ["[[ a -gt b ]]", [ARITH]],
    ["[[ a -ge b ]]", [ARITH]],
    ["[[ -v a ]]", [ARITH]],
    ["[[ -R a ]]", [ARITH]],
    ["[[ -f a ]]", []],
    ['[[ "$x" == y ]]', []],
    ["hostname", []],
    ["hostname -f", []],
    ["hostname box", ["exec: `hostname NAME` renames the host"]],
    ["file -C -m magic", ["write-unknown: `file -C` compiles a magic file"]],
    ["file -c x", []],
    ["file --mime x", []],
    ["file -- x", []],
    ["file src/*.ts", []],
    ["file *.ts", ["write-unknown: a variable `file` argument may be -C, which compiles a magic file"]],
    ["printf", []],
    ["printf -- -v", []],
    ["printf -x y", ["shell-unclassified: `printf -v` assigns through a name that can evaluate code"]],
    ['printf "%s" "$x"', []],
  ]);
});

describe("sort, uniq, xxd, iconv, base64: output files", () => {
  check([
    ["sort -o out f", ["write out@/r"]],
    ["sort --output=out f", ["write out@/r"]],
    ["sort --out out f", ["write out@/r"]],
    ["sort -k 2 -t , f", []],
    ["sort -rn -S 1G -T /tmp f", []],
    ["sort --check=quiet f", []],
    ["sort --compress-program=gzip f", ["shell-unclassified: `sort --compress-program` runs a program"]],
    ["sort --bogus f", ["shell-unclassified: `sort` with the option `--bogus`"]],
    ['sort "$x" f', ["shell-unclassified: `$x` may expand into an option of `sort`"]],
    ["uniq in out", ["write out@/r"]],
    ["uniq -c in out", ["write out@/r"]],
    ["uniq --all-repeated=none in out", ["write out@/r"]],
    ["uniq in", []],
    ["xxd in out", ["write out@/r"]],
    ["xxd -r in out", ["write out@/r"]],
    ["xxd -l 16 in", []],
    ["xxd -X in", ["shell-unclassified: `xxd` with the option `-X`"]],
    ["iconv -f utf8 -t ascii -o out f", ["write out@/r"]],
    ["iconv --output=out f", ["write out@/r"]],
    ["iconv -f utf8 f", []],
    ["base64 -o out f", ["write out@/r"]],
    ["base64 -d f", []],
    ["tree -L 2", []],
  ]);
});

describe("find, fd, xargs", () => {
  check([
    ["find . -fprint out", ["write out@/r"]],
    ["find . -fprint", []],
    ["find . -fprint -delete", ["write -delete@/r"]],
    ["find . -fprintf out -delete", ["write out@/r"]],
    ["find . -fprintf out %p -delete", ["write out@/r", "write-unknown: `find -delete` removes every match"]],
    ["find . -exec rm {} +", ["exec: sub rm ${} @/r"]],
    [
      "find . -exec rm {} ; -delete",
      ["exec: sub rm ${} @/r", "write-unknown: `find -delete` removes every match"],
    ],
    ["find . -exec echo {} ; -fprint out", ["exec: sub echo ${} @/r", "write out@/r"]],
    ["find . -name *.ts", ["shell-unclassified: `*.ts` may expand into a find action"]],
    ['find . -name "*.ts" -print', []],
    ['find "$d" -name a', ["shell-unclassified: `$d` may expand into a find action"]],
    ["find . -okdir rm {} ;", ["shell-unclassified: `find -ok` asks interactively"]],
    ["fd -X rm", ["exec: sub rm ${} @/r"]],
    ["fd -HX rm", ["exec: sub rm ${} @/r"]],
    ["fd --exec-batch rm", ["exec: sub rm ${} @/r"]],
    ["fd -e ts -x rm", ["exec: sub rm ${} @/r"]],
    ["fd -x rm ; src", ["exec: sub rm ${} @/r"]],
    ["fd --extension ts", []],
    ["fd --exclude x", []],
    ["fd -E x", []],
    ["xargs", ["exec: sub echo $xargs @/r"]],
    ["xargs -0 rm", ["exec: sub rm $xargs @/r"]],
    ["xargs -n 1 rm", ["exec: sub rm $xargs @/r"]],
    ["xargs -e rm", ["exec: sub rm $xargs @/r"]],
    ["xargs -l rm", ["exec: sub rm $xargs @/r"]],
    ["xargs -a list rm", ["exec: sub rm $xargs @/r"]],
    ["xargs -I{} mv {} {}.bak", ["exec: sub mv $xargs $xargs.bak @/r"]],
    ["xargs --replace=% cp % dst", ["exec: sub cp $xargs dst @/r"]],
    ["xargs -i cp {} dst", ["exec: sub cp $xargs dst @/r"]],
    ["xargs -I % rm a", ["exec: sub rm a @/r"]],
    // the last -I counts; a replace string the guard cannot read may be any word of the command
    ["xargs -I {} -I % rm %", ["exec: sub rm $xargs @/r"]],
    ['xargs -I "$r" rm a', ["shell-unclassified: a variable or empty xargs replace string"]],
    ["xargs -I '' rm a", ["shell-unclassified: a variable or empty xargs replace string"]],
  ]);
});

describe("awk and sed programs", () => {
  check([
    ["awk -F, {print} f", []],
    ["awk -v x=1 {print} f", []],
    ["awk --source={print} f", []],
    ["awk -- {print} f", []],
    [
      "awk --file=x f",
      ["shell-unclassified: `awk --file=x` loads code the guard cannot read (or edits in place)"],
    ],
    [
      "awk --include x f",
      ["shell-unclassified: `awk --include` loads code the guard cannot read (or edits in place)"],
    ],
    ["gawk -f x", ["shell-unclassified: `gawk -f` loads code the guard cannot read (or edits in place)"]],
    ["gawk --bogus x", ["shell-unclassified: `gawk` with the option `--bogus`"]],
    ["awk -e {print} -e x|y f", [AWK_WRITES]],
    ["awk -e {print} -e system f", [AWK_WRITES]],
    ["awk {print>2} f", [AWK_WRITES]],
    ["mawk {print} f", []],
    ["sed -n p f", []],
    ["sed s/a/b/ f", []],
    ["sed --expression=s/a/b/ f", []],
    ["sed -i s/a/b/ f g", ["write f@/r", "write g@/r"]],
    ["sed -e p -i f", ["write f@/r"]],
    ["sed --in-pl s/a/b/ f", ["write f@/r"]],
    ["sed -i.bak -e s/a/b/ f g", ["write f@/r", "write g@/r", "write f.bak@/r", "write g.bak@/r"]],
    ["sed -ibak s/a/b/ f", ["write f@/r", "write fbak@/r"]],
    ["sed -in s/a/b/ f", ["write f@/r", "write fn@/r"]],
    ["sed -s -i s/a/b/ f", ["write f@/r"]],
    ["sed -ri s/a/b/ f", ["write f@/r"]],
    ["sed -i '' -e p f", ["write f@/r"]],
    ["sed -e p f", []],
    ['sed -e "w out" -i f', ["write-unknown: the sed command `w` writes a file", "write f@/r"]],
    ["sed -i", ["shell-unclassified: `sed` without a script"]],
    ["gsed -i s/a/b/ f", ["write f@/r"]],
    ["yq -P .a f.yaml", []],
    ["yq --indent 2 .a f.yaml", []],
    ["yq -iP .a f.yaml", ["write f.yaml@/r"]],
    ["yq -i .a", []],
    ["yq --split-exp=x .a f.yaml", ["write-unknown: `yq --split-exp` writes a file per document"]],
  ]);
});

describe("builtins that assign or evaluate", () => {
  check([
    ["declare -n r=x", ["shell-unclassified: `declare -n` (nameref)"]],
    ["read -n 1 c", ["env c"]],
    ["read -d , x", ["env x"]],
    ["read -t 5 -u 3 x y", ["env x", "env y"]],
    ["read -rp prompt x", ["env x"]],
    ["read -N 2 -i def x", ["env x"]],
    [
      'export "a[0]=1"',
      ["shell-unclassified: `export` with a computed or subscripted name can evaluate code"],
    ],
    ["export A+=x", ["env A"]],
    ["export =x", ["shell-unclassified: `export` of ``"]],
    ["typeset -i n=1", ["env n"]],
    ["getopts ab opt extra", ["env opt"]],
    ["getopts", []],
    ["command -v rm", []],
    ["command -p", []],
    ["command -p rm a", ["exec: sub rm a @/r"]],
    ["hash -pr", ["shell-unclassified: `hash -p` maps a command name to another program"]],
    ["trap -l -p", []],
    ["trap -- x EXIT", ["shell-unclassified: `trap` installs code to run later"]],
    ["alias -p", []],
    ["shopt -q extglob", []],
    ["shopt -su x", ["shell-unclassified: `shopt -s/-u` changes how later commands are parsed"]],
    ["wait -n", []],
    ["wait", []],
    ["unset -v x", []],
    ["set -o pipefail", []],
    ["cd /", []],
    ["kill 1", []],
    ["enable -f x y", ["shell-unclassified: `enable` loads builtins"]],
    ["coproc x", ["shell-unclassified: `coproc` starts a background process"]],
  ]);
});

describe("command wrappers", () => {
  check([
    ["sudo -i", ["shell-unclassified: `sudo -i` runs its command through a shell or editor"]],
    ["sudo -e f", ["shell-unclassified: `sudo -e` runs its command through a shell or editor"]],
    ["sudo --shell", ["shell-unclassified: `sudo --shell` runs its command through a shell or editor"]],
    ["sudo --login", ["shell-unclassified: `sudo --login` runs its command through a shell or editor"]],
    ["sudo --edit f", ["shell-unclassified: `sudo --edit` runs its command through a shell or editor"]],
    ["sudo -Es", ["shell-unclassified: `sudo -s` runs its command through a shell or editor"]],
    ["sudo -u root -g wheel rm a", ["exec: sub rm a @/r"]],
    ["sudo -- rm a", ["exec: sub rm a @/r"]],
    ["sudo rm -s a", ["exec: sub rm -s a @/r"]],
    ["sudo -D .. rm a", ["exec: sub rm a @?"]],
    ["env -v rm a", ["exec: sub rm a @/r"]],
    ["env --debug --null --ignore-environment rm a", ["exec: sub rm a @/r"]],
    ["env --unset A rm a", ["exec: sub rm a @/r"]],
    ['env -C "$d" rm a', ["exec: sub rm a @?"]],
    ["env --chdir=/abs rm a", ["exec: sub rm a @/abs"]],
    ["env --chdir sub rm a", ["exec: sub rm a @/r/sub"]],
    ["env -C .. rm a", ["exec: sub rm a @?"]],
    ["env A=1 B=2 rm a", ["env A", "env B", "exec: sub rm a @/r"]],
    ["env 1A=x rm a", ["exec: sub 1A=x rm a @/r"]],
    ["env -P /bin rm a", ["shell-unclassified: `env -P` (e.g. -S splits a string into a command)"]],
    ["timeout --signal=KILL 5 rm a", ["exec: sub rm a @/r"]],
    ["timeout -k 1 5 rm a", ["exec: sub rm a @/r"]],
    ["timeout --foreground 5 rm a", ["exec: sub rm a @/r"]],
    ["timeout 5 rm -s a", ["exec: sub rm -s a @/r"]],
    ["timeout", []],
    ["nice -n", []],
    ["nice -n -5 rm a", ["exec: sub rm a @/r"]],
    ["nice -n-5 rm a", ["exec: sub rm a @/r"]],
    ["nice --adjustment=-5 rm a", ["exec: sub rm a @/r"]],
    ["nice -10 rm a", ["exec: sub rm a @/r"]],
    ["nice -x rm a", ["exec: sub -x rm a @/r"]],
    ["time", []],
    ["time -v rm a", ["exec: sub rm a @/r"]],
    ["time -o", ["shell-unclassified: `time` with the option `-o`"]],
    // GNU time bundles its options: `-ao ls` appends the timing to the file ls and runs the rest
    ["time -ao ls rm a", ["write ls@/r", "exec: sub rm a @/r"]],
    ["time -pf %e rm a", ["exec: sub rm a @/r"]],
    ["time --format=%e --append --output t rm a", ["write t@/r", "exec: sub rm a @/r"]],
    ["time rm -o x", ["exec: sub rm -o x @/r"]],
    ["time -x rm a", ["shell-unclassified: `time` with the option `-x`"]],
    ['time "$x" rm a', ["shell-unclassified: a variable `time` argument"]],
    ["stdbuf -i0 -e L rm a", ["exec: sub rm a @/r"]],
    ["stdbuf --output=L rm a", ["exec: sub rm a @/r"]],
    ["ionice -t -n 7 rm a", ["exec: sub rm a @/r"]],
    ["ionice --class 3 rm a", ["exec: sub rm a @/r"]],
    ["ionice -x rm a", ["shell-unclassified: `ionice` with the option `-x`"]],
    ["nohup -x rm a", ["shell-unclassified: `nohup` with the option `-x`"]],
    ["nohup", []],
    ["exec -cl rm a", ["exec: `exec` replaces the shell", "exec: sub rm a @/r"]],
    ["builtin", []],
  ]);
});

describe("hints of these refusals", () => {
  it.each<[string, string[]]>([
    ["sort --bogus f", ["use its common options"]],
    ['sort "$x" f', ["write the argument literally"]],
    ["sort --compress-program=gzip f", ["drop the option"]],
    ['xargs -I "$r" rm a', ["write it literally"]],
    ["time -x rm a", ["use -p, -f or -o FILE"]],
    ['time "$x" rm a', ["write it literally"]],
    ["[[ a -eq b ]]", ["use `[ … -eq … ]` (the test builtin) for numbers"]],
    ["[ -v x ]", ["test the value directly"]],
    ["find . -okdir rm {} ;", ["use -exec"]],
    ["fd -x", ["give one"]],
    ["awk --file=x f", ["give the program inline"]],
    ["env -P /bin rm a", ["use env NAME=value cmd"]],
    ["ionice -x rm a", ["use it without options"]],
    ["exec -z rm a", ["drop them"]],
    ["tar -cQf a.tar x", ["use its common options"]],
    ['tar -cf a.tar "$x"', ["write the argument literally"]],
  ])("%j → %j", (line, hints) => {
    expect(refusalHints(CORE, line)).toEqual(hints);
  });
});

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * The file writers' option reading, pinned row by row (see ./test-cx.ts for the notation): which word of a
 * cp/mv/ln/install/rm/tar/dd/curl/wget command line is written, and which forms fail closed. Each option that
 * changes the targets has a positive row and a near miss beside it.
 */

import { describe, expect, it } from "vitest";
import { CORE } from "./core.js";
import { refusalHints, runHandler } from "./test-cx.js";

const check = (rows: [string, string[]][]) =>
  it.each(rows)("%j → %j", (line, expected) => {
    expect(runHandler(CORE, line)).toEqual(expected);
  });

const NET = "exec: curl reaches the network; use the host's web fetch tool";
const WGET_NET = "exec: wget reaches the network; use the host's web fetch tool";
const LINK_OUT =
  "write-unknown: a symbolic link whose text is absolute, has `..` or is unknown may point outside the repository";

describe("cp, mv, install: destinations", () => {
  check([
    ["cp a b", ["write b@/r"]],
    ["cp a dir/", ["write dir/a@/r"]],
    ["cp src/a dir/", ["write dir/a@/r"]],
    ["cp a b dir/", ["write dir/a@/r", "write dir/b@/r"]],
    ["cp --target-directory=dir a", ["write dir/a@/r"]],
    ["cp --target-directory dir a b", ["write dir/a@/r", "write dir/b@/r"]],
    ["cp -T a b c", ["write c@/r"]],
    ["cp --no-target-directory a b", ["write b@/r"]],
    ["cp -f -p a b", ["write b@/r"]],
    ["cp --preserve=mode a b", ["write b@/r"]],
    ["cp -S .x a b", ["write-unknown: `cp` with a backup option also writes backup files"]],
    ["cp --backup=numbered a b", ["write-unknown: `cp` with a backup option also writes backup files"]],
    ["cp --backup a b", ["write-unknown: `cp` with a backup option also writes backup files"]],
    ["cp -R a b", ["write-unknown: a recursive `cp` writes every file of a tree"]],
    ["cp --recursive a b", ["write-unknown: a recursive `cp` writes every file of a tree"]],
    ["cp --archive a b", ["write-unknown: a recursive `cp` writes every file of a tree"]],
    ["cp --bogus a b", ["shell-unclassified: `cp` with the option `--bogus`"]],
    ['cp "$x" b', ["write-unknown: `$x` may expand into an option or a file name of `cp`"]],
    ['cp a "src/$x"', ["write-unknown: `cp` into a directory with an unknown file name"]],
    ['cp -T a "src/$x"', ["write src/$x@/r"]],
    ['cp a "src/$x" dir', ["write-unknown: `cp` into a directory with an unknown file name"]],
    ['cp a b "src/$d"', ["write-unknown: `cp` into a directory with an unknown file name"]],
    ["cp", ["shell-unclassified: `cp` needs a source and a destination"]],
    ["mv a b", ["write b@/r", "write a@/r"]],
    ["mv a b dir", ["write dir/a@/r", "write dir/b@/r", "write a@/r", "write b@/r"]],
    ["mv -t dir a", ["write dir/a@/r", "write a@/r"]],
    ["mv -r a b", ["write b@/r", "write a@/r"]],
    ["mv --parents a dir/", ["write-unknown: `mv --parents` recreates source paths"]],
    ["mv -b a b", ["write-unknown: `mv` with a backup option also writes backup files"]],
    ["mv a", ["shell-unclassified: `mv` needs a source and a destination"]],
    ["install a b", ["write b@/r"]],
    ["install -D a b/c", ["write b/c@/r"]],
    ["install -m 755 -o root a b", ["write b@/r"]],
    ["install --directory a b", ["write a/@/r", "write b/@/r"]],
    ["install -t dir a b", ["write dir/a@/r", "write dir/b@/r"]],
    ["install -T a dir/", ["write dir/@/r"]],
    ["install a b dir", ["write dir/a@/r", "write dir/b@/r"]],
    ["install -S .x a b", ["write-unknown: `install -b` also writes backups"]],
    ["install --suffix=.x a b", ["write-unknown: `install -b` also writes backups"]],
    ["install --backup=t a b", ["write-unknown: `install -b` also writes backups"]],
    ["install -t dir ..", ["write-unknown: `install` into a directory with an unknown file name"]],
    ['install "$x" b', ["write-unknown: `$x` may expand into an option or a file name of `install`"]],
  ]);
});

describe("ln: link names and link texts", () => {
  check([
    ["ln a b", ["write b@/r"]],
    ["ln a b dir", ["write dir/a@/r", "write dir/b@/r"]],
    ["ln -t dir a", ["write dir/a@/r"]],
    ["ln ../a b", ["write b@/r"]],
    ["ln /etc/passwd b", ["write b@/r"]],
    ["ln -s a b dir", ["write dir/a@/r", "write dir/b@/r"]],
    ["ln -s a/b c", ["write c@/r"]],
    ["ln -sf a ..b", ["write ..b@/r"]],
    ["ln -s a/../b c", [LINK_OUT]],
    ["ln -s a ../b dir", [LINK_OUT]],
    ["ln -s /etc/passwd", [LINK_OUT]],
    ["ln -fs /etc/passwd x", [LINK_OUT]],
    ["ln -sfn /etc x", [LINK_OUT]],
    ["ln --symbolic /etc/passwd x", [LINK_OUT]],
    // an abbreviated long option and a target directory hide the link text from a plain word scan
    ["ln --symb /etc/passwd x", [LINK_OUT]],
    ["ln -s -t dir ../../etc/passwd", [LINK_OUT]],
    ["ln -st dir /etc/passwd", [LINK_OUT]],
    ["ln -s --target-directory=dir /etc/passwd", [LINK_OUT]],
    ["ln -s -t dir a", ["write dir/a@/r"]],
    ["ln -s -S .bak a y", ["write-unknown: `ln` with a backup option also writes backup files"]],
  ]);
});

describe("operand writers: rm, touch, truncate, shred, unlink, tee, sponge, mkdir, rmdir", () => {
  check([
    ["rm -rf a b", ["write a@/r", "write b@/r"]],
    ["rm -- -x", ["write -x@/r"]],
    ["rm --interactive=never a", ["write a@/r"]],
    ["rm --bogus a", ["shell-unclassified: `rm` with the option `--bogus`"]],
    ['rm "$x"', ["write-unknown: `$x` may expand into an option or a file name of `rm`"]],
    ['rm "src/$x"', ["write src/$x@/r"]],
    ["touch a", ["write a@/r"]],
    ["touch -r ref a", ["write a@/r"]],
    ["touch", ["shell-unclassified: `touch` without an operand"]],
    ["truncate -s 0 a", ["write a@/r"]],
    ["truncate --size=0 a b", ["write a@/r", "write b@/r"]],
    ["shred -u -n 3 a", ["write a@/r"]],
    ["shred --remove=wipe a", ["write a@/r"]],
    ["unlink a", ["write a@/r"]],
    ["unlink", ["shell-unclassified: `unlink` without an operand"]],
    ["unlink -f a", ["shell-unclassified: `unlink` with the option `-f`"]],
    ["tee a b", ["write a (sink)@/r", "write b (sink)@/r"]],
    ["tee -a log", ["write log (sink)@/r"]],
    ["tee --output-error=warn log", ["write log (sink)@/r"]],
    ["tee -x log", ["shell-unclassified: `tee` with the option `-x`"]],
    ["sponge a", ["write a@/r"]],
    ["sponge -a a", ["write a@/r"]],
    ["sponge", ["shell-unclassified: `sponge` without an operand"]],
    ["mkdir -p a/b c", ["write a/b/@/r", "write c/@/r"]],
    ["mkdir -m 755 d", ["write d/@/r"]],
    ["mkdir", ["shell-unclassified: `mkdir` without an operand"]],
    ["rmdir --parents a/b", ["write-unknown: `rmdir -p` also removes parent directories"]],
    ["rmdir -v a b", ["write a/@/r", "write b/@/r"]],
    ['rmdir "$x"', ["write-unknown: `$x` may expand into an option or a file name of `rmdir`"]],
  ]);
});

describe("chmod, chown, chgrp: the mode or owner is not a file", () => {
  check([
    ["chmod -R 755 a", ["write a@/r"]],
    ["chmod +x a b", ["write a@/r", "write b@/r"]],
    ["chmod -w a b", ["write a@/r", "write b@/r"]],
    ["chmod -r a", ["write a@/r"]],
    ["chmod -c 644 a", ["write a@/r"]],
    ["chmod -v a", ["shell-unclassified: `chmod` without a file"]],
    ["chmod -f -x a", ["write a@/r"]],
    ["chmod u+x,g-w a", ["write a@/r"]],
    ["chown --from=u:g v a", ["write a@/r"]],
    ["chown --reference=r a b", ["write a@/r", "write b@/r"]],
    ["chown -x a", ["shell-unclassified: `chown` with the option `-x`"]],
    ["chgrp -x a", ["shell-unclassified: `chgrp` with the option `-x`"]],
    ["chgrp g", ["shell-unclassified: `chgrp` without a file"]],
    ['chmod "$m" a', ["write-unknown: `$m` may expand into an option or a file name of `chmod`"]],
  ]);
});

describe("dd and link", () => {
  check([
    ["dd of=b if=a bs=1", ["write b (sink)@/r"]],
    ["dd if=a of=b of=c", ["write b (sink)@/r", "write c (sink)@/r"]],
    ['dd "of=$x"', ["write-unknown: `dd` with a variable operand"]],
    ['dd if=a "bs=$n"', []],
    ["dd", []],
    ["link a b c", ["shell-unclassified: `link` needs two files"]],
    ["link", ["shell-unclassified: `link` needs two files"]],
  ]);
});

describe("tar: modes and the archive written", () => {
  check([
    ["tar czf out.tgz dir", ["write out.tgz@/r"]],
    ["tar cvf a.tar x", ["write a.tar@/r"]],
    ["tar cf - x", []],
    ["tar xf a.tar", ["write-unknown: extracting an archive writes files the guard cannot list"]],
    ["tar xOf a.tar", []],
    ["tar tvf a.tar", []],
    ["tar cCf d a.tar x", ["write a.tar@/r"]],
    ["tar cfC a.tar d x", ["write a.tar@/r"]],
    ["tar -czf out.tgz dir", ["write out.tgz@/r"]],
    ["tar --create --file=a.tar x", ["write a.tar@/r"]],
    ["tar --create --file a.tar x", ["write a.tar@/r"]],
    ["tar -rf a.tar x", ["write a.tar@/r"]],
    ["tar -uf a.tar x", ["write a.tar@/r"]],
    ["tar --update -f a.tar x", ["write a.tar@/r"]],
    ["tar -Af a.tar b.tar", ["write a.tar@/r"]],
    ["tar --catenate -f a.tar b.tar", ["write a.tar@/r"]],
    ["tar --concatenate -f a.tar b.tar", ["write a.tar@/r"]],
    ["tar --delete -f a.tar x", ["write a.tar@/r"]],
    ["tar --diff -f a.tar", []],
    ["tar --compare -f a.tar", []],
    ["tar -df a.tar", []],
    ["tar --list -f a.tar", []],
    ["tar --extract -f a.tar", ["write-unknown: extracting an archive writes files the guard cannot list"]],
    ["tar --get -f a.tar", ["write-unknown: extracting an archive writes files the guard cannot list"]],
    ["tar -x --to-stdout -f a.tar", []],
    ["tar --listed-incremental=s -cf a.tar x", ["write-unknown: `tar -g` writes a snapshot file"]],
    [
      "tar -F x -cf a.tar x",
      ["shell-unclassified: tar runs a program (compress program, to-command, volume script)"],
    ],
    [
      "tar --use-compress-program=zstd -cf a.tar x",
      ["shell-unclassified: tar runs a program (compress program, to-command, volume script)"],
    ],
    [
      "tar --info-script=s -cf a.tar x",
      ["shell-unclassified: tar runs a program (compress program, to-command, volume script)"],
    ],
    [
      "tar --new-volume-script=s -cf a.tar x",
      ["shell-unclassified: tar runs a program (compress program, to-command, volume script)"],
    ],
    [
      "tar cIf zstd a.tar x",
      ["shell-unclassified: tar runs a program (compress program, to-command, volume script)"],
    ],
    ["tar a.tar", ["shell-unclassified: tar without a recognised mode"]],
    // options the reader does not know may run programs; a variable may expand into one
    [
      "tar --checkpoint=1 --checkpoint-action=exec=sh -cf a.tar x",
      ["shell-unclassified: `tar` with the option `--checkpoint=1`"],
    ],
    ["tar --rsh-command=sh -cf h:a.tar x", ["shell-unclassified: `tar` with the option `--rsh-command=sh`"]],
    [
      "tar -M -L 1 -F s -cf a.tar x",
      ["shell-unclassified: tar runs a program (compress program, to-command, volume script)"],
    ],
    ["tar -cQf a.tar x", ["shell-unclassified: `tar` with the option `-Q`"]],
    ['tar -cf a.tar "$x"', ["shell-unclassified: `$x` may expand into an option of `tar`"]],
    ['tar -cf a.tar "src/$x"', ["write a.tar@/r"]],
    ["tar", ["shell-unclassified: tar without a recognised mode"]],
  ]);
});

describe("unzip, compressors, patch", () => {
  check([
    ["unzip -t a.zip", []],
    ["unzip -v a.zip", []],
    ["unzip -z a.zip", []],
    ["unzip -Z a.zip", []],
    ["unzip -Zl a.zip", []],
    ["unzip -o a.zip", ["write-unknown: unzip writes the archive's files"]],
    ["unzip -d out a.zip", ["write-unknown: unzip writes the archive's files"]],
    ["gzip -dl a", []],
    ["gzip -kt a", []],
    ["gzip -d9 a", ["write-unknown: `gzip` replaces files in place"]],
    ["gzip -9 a", ["write-unknown: `gzip` replaces files in place"]],
    ["gzip -k a", ["write-unknown: `gzip` replaces files in place"]],
    ["gzip --list a", []],
    ["gzip --test a", []],
    ["gzip --to-stdout a", []],
    ["gzip --keep a", ["write-unknown: `gzip` replaces files in place"]],
    ["xz -d a", ["write-unknown: `xz` replaces files in place"]],
    ["bzip2 -dc a", []],
    ["zstd -d -c a", []],
    ["patch --check -p1", []],
    ["patch -p1 --dry-run", []],
    ["patch -R -p1", ["write-unknown: `patch` writes the files named inside the patch"]],
  ]);
});

describe("curl: output options", () => {
  check([
    ["curl --output out https://x", ["write out@/r", NET]],
    ["curl --output=- https://x", [NET]],
    ["curl -o a -o b https://x https://y", ["write a@/r", "write b@/r", NET]],
    ["curl -Lo- https://x", [NET]],
    ["curl -o", [NET]],
    ["curl -vO https://x", ["write-unknown: `curl -O` writes a file"]],
    ["curl -sSL https://x", [NET]],
    ["curl -H accept:json https://x", [NET]],
    ["curl -sw %output{f} https://x", ["write-unknown: `curl -w %output{…}` writes a file"]],
    ["curl -sw %{url} https://x", [NET]],
    ["curl -w", [NET]],
    ["curl --remote-name-all https://x", ["write-unknown: `curl --remote-name-all` writes a file"]],
    ["curl --remote-header-name https://x", ["write-unknown: `curl --remote-header-name` writes a file"]],
    ["curl --output-dir d https://x", ["write-unknown: `curl --output-dir` writes a file"]],
    ["curl --dump-header h https://x", ["write-unknown: `curl --dump-header` writes a file"]],
    ["curl --cookie-jar j https://x", ["write-unknown: `curl --cookie-jar` writes a file"]],
    ["curl --trace t https://x", ["write-unknown: `curl --trace` writes a file"]],
    ["curl --trace-ascii t https://x", ["write-unknown: `curl --trace-ascii` writes a file"]],
    ["curl --libcurl c https://x", ["write-unknown: `curl --libcurl` writes a file"]],
    ["curl --stderr e https://x", ["write-unknown: `curl --stderr` writes a file"]],
    ["curl --config c https://x", ["write-unknown: `curl --config` writes a file"]],
    ["curl --etag-save e https://x", ["write-unknown: `curl --etag-save` writes a file"]],
    ["curl --hsts h https://x", ["write-unknown: `curl --hsts` writes a file"]],
    ["curl --alt-svc a https://x", ["write-unknown: `curl --alt-svc` writes a file"]],
    ["curl --ssl-sessions s https://x", ["write-unknown: `curl --ssl-sessions` writes a file"]],
    ["curl --tr t https://x", [NET]],
    ["curl --data x=1 https://x", [NET]],
    ['curl "src/$f"', [NET]],
  ]);
});

describe("wget: only stdout output reads", () => {
  check([
    ["wget -nv -O - https://x", [WGET_NET]],
    ["wget --quiet --spider https://x", [WGET_NET]],
    ["wget -S -O- https://x", [WGET_NET]],
    ["wget --server-response -qO- https://x", [WGET_NET]],
    ["wget --no-verbose -O - https://x", [WGET_NET]],
    ["wget --output-document - https://x", [WGET_NET]],
    [
      "wget --output-document out https://x",
      ["write-unknown: wget -O writes a file; use curl -o <allowlisted path>"],
    ],
    ["wget -O", ["write-unknown: wget -O writes a file; use curl -o <allowlisted path>"]],
    ["wget --no-verbose https://x", ["write-unknown: wget saves to a file named after the URL"]],
    ["wget -O - -N https://x", ["write-unknown: `wget -N` may write files"]],
    ["wget -c -O - https://x", ["write-unknown: `wget -c` may write files"]],
  ]);
});

describe("hints of the writers' refusals", () => {
  it.each<[string, string[]]>([
    ["cp --bogus a b", ["use its common options"]],
    ["mv a", ["give both"]],
    ["touch", ["name the file"]],
    ["chgrp g", ["name the file"]],
    ["tar a.tar", ["use -t, -x or -c"]],
    ["tar -F x -cf a.tar x", ["drop the option"]],
  ])("%j → %j", (line, hints) => {
    expect(refusalHints(CORE, line)).toEqual(hints);
  });
});

/**
 * Properties of the package, tool and git handlers that must hold for every input of a shape, not only the rows the
 * tables list: an abbreviation git or pacman would accept for a writing option writes, a name after a sort or
 * format option is still created, a forced or pnpx package run downloads whatever is installed locally, and the
 * devrites entry point is the devrites CLI however it is reached.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { git } from "./git.js";
import { PACKAGES } from "./packages.js";
import { type RunOptions, runHandler } from "./test-cx.js";
import { TOOLS } from "./tools.js";

const GIT = new Map([["git", git]]);
const kinds = (table: typeof PACKAGES, line: string, opts?: RunOptions) =>
  runHandler(table, line, opts).map((s) => s.split(":")[0]);

/** Every prefix of `long` that still has a letter after the leading `--`. */
const abbreviation = (longs: readonly string[]) =>
  fc.constantFrom(...longs).chain((l) => fc.integer({ min: 3, max: l.length }).map((n) => l.slice(0, n)));

const name = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);

describe("fail-closed properties of the command handlers", () => {
  it("an abbreviation of a git branch option that deletes, moves, copies or sets upstream mutates", () => {
    const longs = [
      "--delete",
      "--move",
      "--copy",
      "--force",
      "--set-upstream-to",
      "--unset-upstream",
      "--edit-description",
      "--track",
      "--no-track",
      "--create-reflog",
    ];
    fc.assert(
      fc.property(abbreviation(longs), name, (opt, branch) => {
        expect(kinds(GIT, `git branch ${opt} ${branch}`)).toEqual(["git-mutation"]);
      }),
    );
  });

  it("an abbreviation of a git config option that writes mutates", () => {
    const longs = [
      "--add",
      "--unset",
      "--unset-all",
      "--replace-all",
      "--rename-section",
      "--remove-section",
      "--edit",
    ];
    fc.assert(
      fc.property(abbreviation(longs), name, (opt, key) => {
        expect(kinds(GIT, `git config ${opt} a.${key}`)).toEqual(["git-mutation"]);
      }),
    );
  });

  it("git branch and tag still create a name given after --sort, --format, --abbrev or --column", () => {
    const opt = fc.constantFrom(
      "--sort=-refname",
      "--sort refname",
      "--format=%(refname)",
      "--format x",
      "--column",
    );
    fc.assert(
      fc.property(fc.constantFrom("branch", "tag"), opt, name, (sub, o, n) => {
        expect(kinds(GIT, `git ${sub} ${o} ${n}`)).toEqual(["git-mutation"]);
      }),
    );
  });

  it("an abbreviation of a pacman operation that changes the system installs", () => {
    fc.assert(
      fc.property(abbreviation(["--sync", "--remove", "--upgrade", "--database"]), name, (opt, pkg) => {
        expect(kinds(PACKAGES, `pacman ${opt} ${pkg}`)).toEqual(["install"]);
      }),
    );
  });

  it("a forced npx run and any pnpx run download, even when the binary is installed locally", () => {
    const local: RunOptions = { hasLocalBin: () => true };
    const force = fc.constantFrom("-y", "--yes", "--ignore-existing", "--package=x", "-p x", "--package x");
    fc.assert(
      fc.property(force, name, (f, pkg) => {
        expect(kinds(PACKAGES, `npx ${f} ${pkg}`, local)).toEqual(["install"]);
        expect(kinds(PACKAGES, `pnpx ${pkg}`, local)).toEqual(["install"]);
        expect(kinds(PACKAGES, `npx ${pkg}@1`, local)).toEqual(["install"]);
      }),
    );
  });

  it("the devrites entry point run by node is the devrites CLI, with or without `--` and a directory", () => {
    const file = fc.constantFrom("devrites", "devrites.js", "devrites.mjs", "DEVRITES.JS");
    fc.assert(
      fc.property(
        fc.constantFrom("", "-- "),
        fc.constantFrom("", "bin/", "./node_modules/.bin/"),
        file,
        (dd, dir, f) => {
          expect(runHandler(TOOLS, `node ${dd}${dir}${f} status`)).toEqual(["exec: sub devrites @/r"]);
        },
      ),
    );
  });
});

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax in test inputs, not templates
/**
 * The file name `find -exec`, `fd -x` and `xargs -I` put in place of `{}` is unknown to the guard. A word that holds
 * the placeholder keeps the shell's reading of the rest of it: the shell expands `*{}` (a glob) or `a$x{}` (a
 * splitting expansion) before find or xargs runs, so such a word may still become an option of the nested
 * command, and a command whose options matter refuses it as it refuses `*x`.
 */

import { describe, expect, it } from "vitest";
import { classifyShell } from "../classify.js";
import type { Effect } from "../effects.js";

const summary = (e: Effect) => (e.kind === "deny" ? `${e.rule}: ${e.why}` : e.kind);
const run = (c: string) => classifyShell(c, { cwd: "/r" }).map(summary);

describe("a placeholder word that may still become an option", () => {
  it.each<[string, string[]]>([
    [
      "find . -exec sed -n p *{} \\;",
      ["guard.shell-unclassified: `*${}` may expand into an option of `sed`"],
    ],
    [
      "find . -exec sed -n p a$x{} \\;",
      ["guard.shell-unclassified: `a$x${}` may expand into an option of `sed`"],
    ],
    ["fd -x sed -n p *{}", ["guard.shell-unclassified: `*${}` may expand into an option of `sed`"]],
    [
      "ls | xargs -I{} sed -n p *{}",
      ["guard.shell-unclassified: `*$xargs` may expand into an option of `sed`"],
    ],
    // the same command without a glob or an expansion in front reads only
    ["find . -exec sed -n p ./{} \\;", []],
    ['find . -exec sed -n p "a$x{}" \\;', []],
    ["ls | xargs -I{} sed -n p ./{}", []],
    // the unchanged command refuses the glob as well
    ["sed -n p *x", ["guard.shell-unclassified: `*x` may expand into an option of `sed`"]],
  ])("%j → %j", (line, expected) => {
    expect(run(line)).toEqual(expected);
  });
});

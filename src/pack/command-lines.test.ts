/**
 * Every command line a shipped rite, reference, role or fragment tells the model to run is parsed by the CLI's
 * own parser (the command exists, every flag is one it takes, the positionals fit), so a skill can no longer
 * name a flag the CLI refuses. Each concrete `--input` a rite prescribes is also run through `packet new` in
 * a repository that has the file, so a path the CLI refuses (as `.devrites/spec.md` once was) fails here.
 */
import { parse } from "shell-quote";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCommandLine } from "../cli/main.js";
import { commandNames } from "../cli/registry.js";
import { runCapture } from "../cli/test-io.js";
import { tempRepo } from "../install/fixtures/repo.js";
import { type CommandLine, codeSegments, fillPlaceholders, findCommandLines } from "./commands.js";
import { SHIPPED_PACK } from "./fixtures.js";
import { loadPack } from "./load.js";
import type { PackModel } from "./types.js";

const words = (line: string) => parse(line).filter((w): w is string => typeof w === "string");

let model: PackModel;
beforeAll(async () => {
  model = (await loadPack(SHIPPED_PACK)).model;
});

function written(m: PackModel): { path: string; text: string }[] {
  return [
    ...m.skills.flatMap((s) => [
      { path: s.source.path, text: s.source.rawBody },
      ...s.references.map((r) => ({ path: r.path, text: r.rawContent })),
    ]),
    ...m.agents.map((a) => ({ path: a.source.path, text: a.source.rawBody })),
    ...m.fragments.map((f) => ({ path: f.path, text: f.content })),
  ];
}

/** Just a command's name (`ask`, `result check`): a reference in prose, not a line to run. */
function isNameOnly(argv: readonly string[]): boolean {
  return commandNames().includes(argv.join(" "));
}

function allLines(m: PackModel): (CommandLine & { path: string })[] {
  return written(m).flatMap((w) => findCommandLines(w.text, words).map((l) => ({ ...l, path: w.path })));
}

describe("fillPlaceholders", () => {
  it.each([
    [
      'packet new --role <role> --objective "<one paragraph>" [--input PATH]... [--allow PATH]...',
      'packet new --role role --objective "one-paragraph" --input PATH --allow PATH',
    ],
    [
      'ask --kind <product|scope|policy> "<question>" --option "<A>"',
      'ask --kind product "question" --option "A"',
    ],
    ["result record <run-id> <<'JSON'", "result record run-id"],
    ["packet new --allow <file>…", "packet new --allow file"],
    ["status | head", "status"],
  ])("%s → %s", (input, out) => {
    expect(fillPlaceholders(input)).toBe(out);
  });
});

describe("the shipped pack's command lines", () => {
  it("finds the command lines (not a vacuous pass)", () => {
    const lines = allLines(model);
    expect(lines.length).toBeGreaterThanOrEqual(20);
    const commands = new Set(lines.map((l) => l.argv.slice(0, 2).join(" ")));
    for (const c of ["packet new", "result check", "result record", "ask --kind", "status", "route"])
      expect(
        [...commands].some((x) => x.startsWith(c)),
        c,
      ).toBe(true);
  });

  it("every one parses with the CLI's own parser: known command, known flags, positionals that fit", async () => {
    const refused: string[] = [];
    for (const l of allLines(model)) {
      // `devrites resolve` alone in prose names the command; anything more is a line to run, and must be whole.
      if (isNameOnly(l.argv)) continue;
      const parsed = await parseCommandLine(l.argv);
      if (!parsed.ok)
        refused.push(
          `${l.path}:${l.line}: \`${l.text}\` → ${parsed.diagnostics.map((d) => d.message).join("; ")}`,
        );
    }
    expect(refused).toEqual([]);
  });

  it("a command line naming a flag the CLI does not take is refused (the check can fail)", async () => {
    const [line] = findCommandLines("Run `.devrites/bin/devrites packet new --role r --inputs x`.", words);
    const parsed = await parseCommandLine(line!.argv);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.diagnostics[0]?.code).toBe("cli.usage");
    const [extra] = findCommandLines("`.devrites/bin/devrites status now`", words);
    expect((await parseCommandLine(extra!.argv)).ok).toBe(false);
    // a partial line (flags but not the question) is a line to run, and incomplete
    const [partial] = findCommandLines("`.devrites/bin/devrites ask --kind scope`", words);
    expect(isNameOnly(partial!.argv)).toBe(false);
    expect((await parseCommandLine(partial!.argv)).ok).toBe(false);
  });

  it("every concrete --input a rite prescribes is accepted by packet new in a repository that has it", async () => {
    const inputs = new Set<string>();
    for (const w of written(model))
      for (const seg of codeSegments(w.text))
        for (const m of seg.text.matchAll(/--input[ \t]+([A-Za-z0-9_./-]+)/g))
          if (/[./]/.test(m[1]!) && m[1] !== "PATH") inputs.add(m[1]!);
    expect([...inputs]).toContain(".devrites/spec.md");
    const r = tempRepo({ "README.md": "# x\n" });
    try {
      for (const p of inputs) r.write(p, "x\n");
      for (const p of inputs) {
        const out = await runCapture(
          [
            "packet",
            "new",
            "--role",
            "devrites-spec-reviewer",
            "--rite",
            "rite-spec",
            "--objective",
            "o",
            "--input",
            p,
            "--json",
          ],
          r.root,
        );
        expect(out.code, `--input ${p}: ${out.stdout}`).toBe(0);
      }
    } finally {
      r.cleanup();
    }
  });
});

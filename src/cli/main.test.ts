import { describe, expect, it } from "vitest";
import { runCapture } from "./test-io.js";

describe("cli shell", () => {
  it("prints help and exits 0 for --help", async () => {
    const r = await runCapture(["--help"], process.cwd());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: devrites <command>");
  });

  it("exits 2 with no arguments", async () => {
    const r = await runCapture([], process.cwd());
    expect(r.code).toBe(2);
  });

  it("rejects an unknown command with exit 2 and a stable code in --json", async () => {
    const r = await runCapture(["frobnicate", "--json"], process.cwd());
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ ok: false, exitCode: 2 });
    expect(report.diagnostics[0].code).toBe("cli.unknown-command");
  });

  it("prints the version", async () => {
    const r = await runCapture(["--version"], process.cwd());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.each([
    ["packet", ["packet new"]],
    ["result", ["result check", "result record"]],
    ["pack", ["pack lint"]],
    ["run", ["run abandon"]],
  ])("the group %s lists its subcommands on --help (exit 0), and bare (exit 2)", async (group, subs) => {
    const help = await runCapture([group, "--help"], process.cwd());
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`Usage: devrites ${group} <subcommand>`);
    for (const sub of subs) expect(help.stdout).toMatch(new RegExp(`^  ${sub} +\\S`, "m"));
    const bare = await runCapture([group], process.cwd());
    expect(bare.code).toBe(2);
    expect(bare.stdout).toContain("Subcommands:");
    const json = await runCapture([group, "--json"], process.cwd());
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).diagnostics[0]).toMatchObject({ code: "cli.usage" });
    // a word that is no group is still an unknown command
    expect((await runCapture([`${group}x`, "--help"], process.cwd())).code).toBe(2);
  });

  it.each([["status"], ["packet", "new"], ["result", "check", "x.json"], ["route", "x"]])(
    "--version works after any command: %s",
    async (...argv) => {
      const r = await runCapture([...argv, "--version"], process.cwd());
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^\d+\.\d+\.\d+$/);
    },
  );

  it.each([
    [
      ["packet", "new", "--inputs", "x"],
      "unknown option --inputs for `devrites packet new`; it takes --role",
    ],
    [["packet", "new", "--role"], "option --role needs a value"],
    [["demo", "--keep=yes"], "option --keep takes no value"],
    [["status", "extra"], "unexpected argument: extra"],
  ])("says what is wrong in its own words, never the argument parser's: %j", async (argv, message) => {
    const r = await runCapture([...argv, "--json"], process.cwd());
    expect(r.code).toBe(2);
    const d = JSON.parse(r.stdout).diagnostics[0];
    expect(d.code).toBe("cli.usage");
    expect(d.message).toContain(message);
    expect(d.message).not.toMatch(/To specify a positional argument|ERR_PARSE_ARGS|place it at the end/);
    expect(d.hint).toMatch(/^usage: devrites /);
  });

  it("route refuses a blank request (exit 2) and routes a real one", async () => {
    for (const blank of ["", "   "]) {
      const r = await runCapture(["route", blank, "--json"], process.cwd());
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).diagnostics[0]).toMatchObject({ code: "input.invalid" });
    }
    expect(
      (await runCapture(["route", "fix the typo in the readme", "--active", "none"], process.cwd())).code,
    ).toBe(0);
  });
});

import fc from "fast-check";
import { parse, stringify } from "smol-toml";
import { describe, expect, it } from "vitest";
import { codexConfigBlock, mergeCodexConfig, removeTomlBlock, TOML_BEGIN, TOML_END } from "./toml-block.js";

const ok = (r: ReturnType<typeof mergeCodexConfig>) => {
  if (!r.ok) throw new Error(r.diagnostic.message);
  return r;
};

describe("the [agents] block in .codex/config.toml", () => {
  it("creates the file's content when there is none", () => {
    const r = ok(mergeCodexConfig(undefined));
    expect(r.text).toBe(`${codexConfigBlock()}\n`);
    expect(parse(r.text)).toEqual({ agents: { max_depth: 1 } });
  });

  it("appends after the user's settings and keeps them byte for byte", () => {
    const user = 'model = "gpt-5"\n\n[projects."/x"]\ntrust_level = "trusted"\n';
    const r = ok(mergeCodexConfig(user));
    expect(r.text.startsWith(user)).toBe(true);
    expect(parse(r.text)).toMatchObject({ model: "gpt-5", agents: { max_depth: 1 } });
    expect(ok(removeTomlBlock(r.text)).text).toBe(user);
  });

  it("is idempotent and replaces its block in place", () => {
    const once = ok(mergeCodexConfig("a = 1\n")).text;
    expect(ok(mergeCodexConfig(once)).text).toBe(once);
    const moved = `${codexConfigBlock()}\n\nb = 2\n`.replace(
      "[agents]\nmax_depth = 1",
      "[agents]\nmax_depth = 3",
    );
    // a block in the middle stays in the middle (the user's later keys keep their place)
    const again = ok(mergeCodexConfig(`x = 0\n${moved}`)).text;
    expect(again).toBe(`x = 0\n${codexConfigBlock()}\n\nb = 2\n`);
  });

  it.each([
    ["an [agents] table", "[agents]\nmax_threads = 4\n"],
    ["dotted agents keys", "agents.max_depth = 2\n"],
    ["an [agents.<role>] table", '[agents.reviewer]\ndescription = "x"\n'],
  ])("sets nothing when the user has %s", (_, user) => {
    const r = ok(mergeCodexConfig(user));
    expect(r.userAgents).toBe(true);
    expect(r.text).toBe(user);
  });

  it("takes its own block out again when the user adds an [agents] table later", () => {
    const mine = ok(mergeCodexConfig("a = 1\n")).text;
    const r = ok(mergeCodexConfig(`${mine}\n[agents]\nmax_depth = 2\n`));
    expect(r.userAgents).toBe(true);
    expect(r.text).not.toContain(TOML_BEGIN);
    expect(parse(r.text)).toEqual({ a: 1, agents: { max_depth: 2 } });
  });

  it("refuses a file that is not TOML, and never writes one", () => {
    const r = mergeCodexConfig("model = \n[[[\n");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.diagnostic.code).toBe("install.toml-malformed");
      expect(r.diagnostic.path).toBe(".codex/config.toml");
    }
  });

  it("refuses broken markers", () => {
    for (const text of [
      `${TOML_BEGIN}\n[agents]\n`,
      `${TOML_END}\n`,
      `${TOML_END}\n${TOML_BEGIN}\n`,
      `${codexConfigBlock()}\n${codexConfigBlock()}\n`,
    ]) {
      const r = mergeCodexConfig(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.diagnostic.code).toBe("install.marker-malformed");
    }
  });

  it("counts any `agents` key as the user's, even one that is not a table", () => {
    const r = mergeCodexConfig('agents = "none"\n');
    expect(r.ok && r.userAgents).toBe(true);
  });

  it("puts its block after an array of tables without joining it", () => {
    const user = '[[profiles]]\nname = "a"\n';
    const r = ok(mergeCodexConfig(user));
    expect(parse(r.text)).toEqual({ profiles: [{ name: "a" }], agents: { max_depth: 1 } });
  });

  it("property: any TOML document without `agents` gets a block that parses to max_depth = 1, and loses it exactly", () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/).filter((k) => k !== "agents");
    const scalar = fc.oneof(fc.integer(), fc.boolean(), fc.string({ maxLength: 8 }));
    const doc = fc.dictionary(key, fc.oneof(scalar, fc.dictionary(key, scalar, { maxKeys: 3 })), {
      maxKeys: 5,
    });
    fc.assert(
      fc.property(doc, (value) => {
        const text = stringify(value);
        const trimmed = text.replace(/\s+$/, "");
        const user = trimmed === "" ? "" : `${trimmed}\n`;
        const r = ok(mergeCodexConfig(user));
        const parsed = parse(r.text) as Record<string, unknown>;
        expect(parsed.agents).toEqual({ max_depth: 1 });
        const { agents: _, ...rest } = parsed;
        expect(rest).toEqual(parse(user));
        expect(ok(removeTomlBlock(r.text)).text).toBe(user);
      }),
    );
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BLOCK_BEGIN,
  BLOCK_END,
  DEVRITES_HOOK_MARKER,
  isDevritesHandler,
  markedBlock,
  mergeSettingsJson,
  removeMarkedBlock,
  upsertMarkedBlock,
} from "./merge.js";

const ours = (cmd = `node -e '/*${DEVRITES_HOOK_MARKER}*/' pre-tool-use`) =>
  JSON.stringify({
    hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: cmd, timeout: 10 }] }] },
  });

const userSettings = {
  permissions: { allow: ["Bash(npm test)"] },
  env: { FOO: "1" },
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./my-lint.sh" }] }],
    Stop: [{ hooks: [{ type: "command", command: "say done" }] }],
  },
};

function merged(existing: string | undefined, mine = ours()): Record<string, unknown> {
  const r = mergeSettingsJson(existing, mine);
  if (!r.ok) throw new Error(r.diagnostic.message);
  return JSON.parse(r.text);
}

describe("mergeSettingsJson", () => {
  it("creates the file from nothing", () => {
    expect(merged(undefined)).toEqual(JSON.parse(ours()));
    expect(merged("")).toEqual(JSON.parse(ours()));
  });

  it("keeps every user key and user hook, and appends ours to the event", () => {
    const out = merged(JSON.stringify(userSettings)) as typeof userSettings;
    expect(out.permissions).toEqual(userSettings.permissions);
    expect(out.env).toEqual(userSettings.env);
    expect(out.hooks.Stop).toEqual(userSettings.hooks.Stop);
    expect(out.hooks.PreToolUse).toHaveLength(2);
    expect(out.hooks.PreToolUse[0]).toEqual(userSettings.hooks.PreToolUse[0]);
    expect(out.hooks.PreToolUse[1]?.hooks[0]?.command).toContain(DEVRITES_HOOK_MARKER);
    expect(Object.keys(out)).toEqual(["permissions", "env", "hooks"]);
  });

  it("replaces only devrites' handlers, also one sharing a group with a user handler", () => {
    const existing = {
      hooks: {
        PreToolUse: [
          {
            matcher: "*",
            hooks: [
              { type: "command", command: `old ${DEVRITES_HOOK_MARKER} pre-tool-use` },
              { type: "command", command: "./user.sh" },
            ],
          },
          { matcher: "*", hooks: [{ type: "command", command: `older ${DEVRITES_HOOK_MARKER}` }] },
        ],
        SubagentStop: [{ matcher: "*", hooks: [{ type: "command", command: `x ${DEVRITES_HOOK_MARKER}` }] }],
      },
    };
    const out = merged(JSON.stringify(existing), ours("new devrites-hook")) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    expect(out.hooks.PreToolUse?.map((g) => g.hooks.map((h) => h.command))).toEqual([
      ["./user.sh"],
      ["new devrites-hook"],
    ]);
    expect(out.hooks.SubagentStop).toBeUndefined();
  });

  it("near miss: a user command that merely mentions devrites is not ours", () => {
    expect(isDevritesHandler({ type: "command", command: "devrites status" })).toBe(false);
    expect(isDevritesHandler({ type: "command", command: `x ${DEVRITES_HOOK_MARKER}` })).toBe(true);
    expect(isDevritesHandler({ type: "http", url: DEVRITES_HOOK_MARKER })).toBe(false);
    const existing = {
      hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "devrites status" }] }] },
    };
    const out = merged(JSON.stringify(existing)) as { hooks: { PreToolUse: unknown[] } };
    expect(out.hooks.PreToolUse).toHaveLength(2);
  });

  it("returns the existing text untouched when nothing changes (no reformatting churn)", () => {
    const first = mergeSettingsJson(JSON.stringify(userSettings), ours());
    if (!first.ok) throw new Error("merge failed");
    const compact = JSON.stringify(JSON.parse(first.text));
    const again = mergeSettingsJson(compact, ours());
    expect(again).toEqual({ ok: true, text: compact });
  });

  it("uninstall: an empty hooks object removes ours and keeps the rest", () => {
    const installed = mergeSettingsJson(JSON.stringify(userSettings), ours());
    if (!installed.ok) throw new Error("merge failed");
    expect(merged(installed.text, JSON.stringify({ hooks: {} }))).toEqual(userSettings);
    expect(merged(ours(), JSON.stringify({ hooks: {} }))).toEqual({ hooks: {} });
  });

  it.each([
    ["{ not json", "is not valid JSON"],
    ["[1, 2]", "is not a JSON object"],
    ['{"hooks": []}', "`hooks` key is not an object"],
    ["null", "is not a JSON object"],
  ])("refuses a malformed existing file %j", (text, message) => {
    const r = mergeSettingsJson(text, ours());
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.diagnostic.code).toBe("generate.json-malformed");
      expect(r.diagnostic.message).toContain(message);
    }
  });

  const json = fc.jsonValue({ maxDepth: 3 });
  const handler = fc.oneof(
    fc.record({ type: fc.constant("command"), command: fc.string() }),
    fc.record({
      type: fc.constant("command"),
      command: fc.string().map((s) => `${s}${DEVRITES_HOOK_MARKER}`),
    }),
    json,
  );
  const group = fc.oneof(
    fc.record({ matcher: fc.string(), hooks: fc.array(handler, { maxLength: 3 }) }),
    json,
  );
  const settings = fc.record(
    {
      hooks: fc.dictionary(
        fc.constantFrom("PreToolUse", "Stop", "SubagentStop", "x"),
        fc.array(group, { maxLength: 3 }),
      ),
      other: json,
      permissions: json,
    },
    { requiredKeys: [] },
  );

  it("property: idempotent, and every non-devrites key and handler survives", () => {
    fc.assert(
      fc.property(settings, (generated) => {
        // What a settings file can hold: a JSON round trip (no -0, no undefined).
        const s = JSON.parse(JSON.stringify(generated)) as typeof generated;
        const once = mergeSettingsJson(JSON.stringify(s), ours());
        expect(once.ok).toBe(true);
        if (!once.ok) return;
        const twice = mergeSettingsJson(once.text, ours());
        expect(twice).toEqual(once);
        const out = JSON.parse(once.text) as Record<string, unknown>;
        for (const k of Object.keys(s))
          if (k !== "hooks") expect(out[k]).toEqual((s as Record<string, unknown>)[k]);
        const userHandlers = (x: unknown) =>
          JSON.stringify(x, (_k, v) => v)
            .match(/"command":"((?:[^"\\]|\\.)*)"/g)
            ?.filter((c) => !c.includes(DEVRITES_HOOK_MARKER))
            .sort() ?? [];
        expect(userHandlers(out.hooks)).toEqual(userHandlers(s.hooks ?? {}));
      }),
      { numRuns: 500 },
    );
  });
});

describe("upsertMarkedBlock", () => {
  const block = markedBlock("## devrites\n\nUse `$rite`.");

  it("wraps the body in markers that carry the generated note", () => {
    expect(block.split("\n")[0]).toMatch(
      /^<!-- BEGIN DEVRITES \(generated — do not edit; regenerate with devrites generate\) -->$/,
    );
    expect(block.endsWith(BLOCK_END)).toBe(true);
  });

  it("creates, appends after user text, and replaces in place", () => {
    expect(upsertMarkedBlock(undefined, block)).toEqual({ ok: true, text: `${block}\n` });
    const user = "# Project\n\nOur rules.\n";
    const appended = upsertMarkedBlock(user, block);
    expect(appended).toEqual({ ok: true, text: `# Project\n\nOur rules.\n\n${block}\n` });
    const around = `# Top\n\n${markedBlock("old")}\n\n## After\ntext\n`;
    const replaced = upsertMarkedBlock(around, block);
    expect(replaced).toEqual({ ok: true, text: `# Top\n\n${block}\n\n## After\ntext\n` });
  });

  it.each([
    [`${BLOCK_BEGIN} -->\nx\n`, "1 begin and 0 end"],
    [`x\n${BLOCK_END}\n`, "0 begin and 1 end"],
    [`${BLOCK_END}\n${BLOCK_BEGIN} -->\n`, "end before begin"],
    [`${markedBlock("a")}\n${markedBlock("b")}\n`, "2 begin and 2 end"],
  ])("refuses malformed markers %#", (text, message) => {
    const r = upsertMarkedBlock(text, block);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.diagnostic.code).toBe("generate.marker-malformed");
      expect(r.diagnostic.message).toContain(message);
    }
  });

  it("removeMarkedBlock takes the block out and keeps the user's text", () => {
    const user = "# Project\n\nOur rules.\n";
    const r = upsertMarkedBlock(user, block);
    if (!r.ok) throw new Error("upsert failed");
    expect(removeMarkedBlock(r.text)).toEqual({ ok: true, text: user });
    expect(removeMarkedBlock(`${block}\n`)).toEqual({ ok: true, text: "" });
    expect(removeMarkedBlock(user)).toEqual({ ok: true, text: user });
  });

  const line = fc.string({ maxLength: 30 }).filter((s) => !s.includes("\n") && !s.includes("DEVRITES"));
  const userText = fc.array(line, { maxLength: 8 }).map((ls) => ls.join("\n"));

  it("property: idempotent, and the user's text before and after the block is kept byte for byte", () => {
    fc.assert(
      fc.property(userText, userText, fc.boolean(), (before, after, hasBlock) => {
        const start = hasBlock ? `${before}\n${markedBlock("old")}\n${after}` : before;
        const once = upsertMarkedBlock(start, block);
        expect(once.ok).toBe(true);
        if (!once.ok) return;
        expect(upsertMarkedBlock(once.text, block)).toEqual(once);
        expect(once.text).toContain(block);
        if (hasBlock) expect(once.text).toBe(`${before}\n${block}\n${after}`);
        else expect(once.text.startsWith(before.replace(/\s+$/, ""))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

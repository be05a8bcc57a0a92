import { describe, expect, it } from "vitest";
import { isDevritesHook, parseHooksList, trustToml } from "./codex-hooks.js";

const answer = (hooks: unknown[]) => JSON.stringify({ id: 2, result: { data: [{ cwd: "/r", hooks }] } });
const hook = {
  key: "/r/.codex/hooks.json:pre_tool_use:0:0",
  eventName: "preToolUse",
  command: "node -e '/*devrites-hook*/…' pre-tool-use",
  sourcePath: "/r/.codex/hooks.json",
  currentHash: "sha256:ab",
  trustStatus: "untrusted",
};

describe("Codex's hooks/list answer", () => {
  it("reads each hook's key, hash and trust; other lines are not the answer", () => {
    expect(parseHooksList(answer([hook]))).toEqual({ ok: true, hooks: [hook] });
    expect(parseHooksList('{"id":1,"result":{}}')).toBeUndefined();
    expect(parseHooksList('{"method":"remoteControl/status/changed"}')).toBeUndefined();
    expect(parseHooksList("not json")).toBeUndefined();
  });

  it("an error answer, or one without data, is a failure saying so", () => {
    expect(parseHooksList('{"id":2,"error":{"message":"nope"}}')).toEqual({
      ok: false,
      why: "hooks/list failed: nope",
    });
    expect(parseHooksList('{"id":2,"result":{}}')).toEqual({
      ok: false,
      why: "hooks/list answered without data",
    });
  });

  it("skips entries without a key or hash", () => {
    expect(
      parseHooksList(
        answer([
          { ...hook, key: 3 },
          { ...hook, currentHash: undefined },
        ]),
      ),
    ).toEqual({
      ok: true,
      hooks: [],
    });
  });

  it("a devrites hook carries the launcher's marker; another hook does not", () => {
    expect(isDevritesHook(hook)).toBe(true);
    expect(isDevritesHook({ ...hook, command: "echo devrites" })).toBe(false);
  });

  it("writes the config lines that persist trust", () => {
    expect(trustToml([hook])).toBe(
      '[hooks.state."/r/.codex/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "sha256:ab"',
    );
  });
});

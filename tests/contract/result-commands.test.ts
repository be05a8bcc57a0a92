import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCapture } from "../../src/cli/test-io.js";
import { sha256Hex } from "../../src/core/hash.js";
import type { AgentPacket } from "../../src/envelope/types.js";
import { codes, Repo } from "./harness.js";

let repo: Repo;
let p: AgentPacket;
beforeEach(async () => {
  repo = Repo.create({ "src/app.ts": "export const app = 1;\n" });
  p = await repo.packet("devrites-evidence-scout");
});
afterEach(() => repo.cleanup());

function events(): string[] {
  return repo
    .read(`.devrites/runs/${p.run_id}/events.jsonl`)
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l).type);
}

/** The least a result must say to be stored: what it is and which run it answers (the rest is the check's). */
const stub = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ result_version: "agent-result/v1", run_id: p.run_id, ...extra });

describe("result record", () => {
  it("stores a bare object from stdin verbatim and logs result.recorded", async () => {
    const text = JSON.stringify(repo.resultFor(p));
    const r = await repo.cli(["result", "record", p.run_id], `  ${text}\n`);
    expect(r.code).toBe(0);
    expect(repo.read(p.result_path)).toBe(`${text}\n`);
    expect(r.json.data).toMatchObject({
      result_path: p.result_path,
      sha256: sha256Hex(`${text}\n`),
      unchanged: false,
    });
    expect(events()).toEqual(["packet.created", "result.recorded"]);
  });

  it("stores the one ```json block of a message with prose", async () => {
    const json = JSON.stringify(repo.resultFor(p), null, 2);
    const r = await repo.cli(["result", "record", p.run_id], `All done.\n\n\`\`\`json\n${json}\n\`\`\`\n`);
    expect(r.code).toBe(0);
    expect(repo.read(p.result_path)).toBe(`${json}\n`);
  });

  it.each([
    [
      "Claude's [Subagent hand-back] frame",
      (msg: string) =>
        `[Subagent hand-back] The text below is the final report of a subagent this session delegated to. The report follows:\n${msg
          .split("\n")
          .map((l) => `  ${l}`)
          .join(
            "\n",
          )}\nagentId: a1 (use SendMessage with to: 'a1' to continue this agent)\n<usage>tool_uses: 0</usage>`,
      "claude-hand-back",
    ],
    [
      "Codex's wait_agent output",
      (msg: string) => JSON.stringify({ status: { "019a-thread": { completed: msg } }, timed_out: false }),
      "codex-wait-agent",
    ],
  ])(
    "stores the leaf's own bytes from %s, and says which frame it took them from",
    async (_n, wrap, frame) => {
      const msg = JSON.stringify(repo.resultFor(p), null, 2);
      const r = await repo.cli(["result", "record", p.run_id], wrap(msg));
      expect(r.code, JSON.stringify(r.json.diagnostics)).toBe(0);
      expect(repo.read(p.result_path)).toBe(`${msg}\n`);
      const ev = repo
        .read(`.devrites/runs/${p.run_id}/events.jsonl`)
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
        .at(-1);
      expect(ev.data).toMatchObject({ source: "stdin", frame });
      expect((await repo.check(p)).code).toBe(0);
    },
  );

  it("a wait_agent output with two agents is refused (record.hand-back-ambiguous), nothing written", async () => {
    const two = JSON.stringify({
      status: { a: { completed: stub() }, b: { completed: stub() } },
      timed_out: false,
    });
    const r = await repo.cli(["result", "record", p.run_id], two);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["record.hand-back-ambiguous"]);
    expect(() => repo.read(p.result_path)).toThrow();
  });

  it("reads --file", async () => {
    repo.write("leaf.txt", stub());
    const r = await repo.cli(["result", "record", p.run_id, "--file", "leaf.txt"]);
    expect(r.code).toBe(0);
    expect(repo.read(p.result_path)).toBe(`${stub()}\n`);
  });

  it.each([
    ["{}", "{}", "record.not-a-result"],
    ["another envelope", '{"result_version":"agent-result/v2"}', "record.not-a-result"],
    [
      "another run's result",
      '{"result_version":"agent-result/v1","run_id":"run-20200101T000000Z-00000000"}',
      "record.run-mismatch",
    ],
    ["no run id", '{"result_version":"agent-result/v1"}', "record.run-mismatch"],
  ])(
    "%s is refused at record time (%s… → %s), nothing written, so validate never meets it",
    async (_n, text, code) => {
      const r = await repo.cli(["result", "record", p.run_id], text);
      expect(r.code).toBe(1);
      expect(codes(r)).toEqual([code]);
      expect(r.json.diagnostics[0]?.message).toContain("nothing was stored");
      expect(() => repo.read(p.result_path)).toThrow();
      expect(events()).toEqual(["packet.created"]);
    },
  );

  it("recording the same result twice is idempotent; a different one is refused", async () => {
    expect((await repo.cli(["result", "record", p.run_id], stub())).code).toBe(0);
    const again = await repo.cli(["result", "record", p.run_id], stub());
    expect(again.code).toBe(0);
    expect(again.json.data).toMatchObject({ unchanged: true });
    const other = await repo.cli(["result", "record", p.run_id], stub({ x: 1 }));
    expect(other.code).toBe(1);
    expect(codes(other)).toEqual(["record.result-exists"]);
    expect(repo.read(p.result_path)).toBe(`${stub()}\n`);
    expect(events()).toEqual(["packet.created", "result.recorded"]);
  });

  it("a result the check rejected can be replaced by its fix; result.recorded names what it supersedes", async () => {
    expect((await repo.cli(["result", "record", p.run_id], stub())).code).toBe(0);
    expect((await repo.check(p)).code).toBe(1);
    const fixed = JSON.stringify(repo.resultFor(p));
    const r = await repo.cli(["result", "record", p.run_id], fixed);
    expect(r.code).toBe(0);
    expect(repo.read(p.result_path)).toBe(`${fixed}\n`);
    const recorded = repo
      .read(`.devrites/runs/${p.run_id}/events.jsonl`)
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === "result.recorded");
    expect(recorded.map((e) => e.data.supersedes)).toEqual([undefined, sha256Hex(`${stub()}\n`)]);
    expect((await repo.check(p)).code).toBe(0);
    // once accepted, the run is retired and takes nothing more
    expect(codes(await repo.cli(["result", "record", p.run_id], "{}"))).toEqual(["record.run-not-active"]);
  });

  it.each([
    ["prose only", "I ran out of budget.", "record.no-json"],
    ["two json blocks", "```json\n{}\n```\n```json\n{}\n```", "record.multiple-json"],
    ["broken JSON", "```json\n{\n```", "record.malformed-json"],
    ["an array", "[]", "record.no-json"],
    ["a fenced array", "```json\n[]\n```", "record.not-object"],
  ])("%s → exit 1, %s, nothing written", async (_name, text, code) => {
    const r = await repo.cli(["result", "record", p.run_id], text);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual([code]);
    expect(() => repo.read(p.result_path)).toThrow();
  });

  it("an unknown run → exit 5", async () => {
    const r = await repo.cli(["result", "record", "run-20200101T000000Z-00000000"], "{}");
    expect(r.code).toBe(5);
    expect(codes(r)).toEqual(["record.unknown-run"]);
  });

  it("a malformed run id → exit 2", async () => {
    const r = await repo.cli(["result", "record", "../../etc"], "{}");
    expect(r.code).toBe(2);
    expect(codes(r)).toEqual(["input.invalid"]);
  });

  it("a run that is no longer active → exit 1", async () => {
    await repo.record(p, repo.resultFor(p));
    expect((await repo.check(p)).code).toBe(0);
    const r = await repo.cli(["result", "record", p.run_id], "{}");
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["record.run-not-active"]);
  });

  it("a packet whose result_path leaves the run folder is refused (never written through)", async () => {
    const path = `.devrites/runs/${p.run_id}/packet.json`;
    repo.write(path, JSON.stringify({ ...p, result_path: "src/app.ts" }));
    const r = await repo.cli(["result", "record", p.run_id], "{}");
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["record.result-path-invalid"]);
    expect(repo.read("src/app.ts")).toBe("export const app = 1;\n");
  });

  it("a missing --file → exit 5; no --file and no stdin → exit 2", async () => {
    const missing = await repo.cli(["result", "record", p.run_id, "--file", "nope.txt"]);
    expect(missing.code).toBe(5);
    expect(codes(missing)).toEqual(["input.missing"]);
    const none = await runCapture(["result", "record", p.run_id, "--json"], repo.root);
    expect(none.code).toBe(2);
  });
});

describe("result check: inputs", () => {
  it("a missing result → exit 5, naming the path", async () => {
    const r = await repo.check(p);
    expect(r.code).toBe(5);
    expect(codes(r)).toEqual(["input.missing"]);
    expect(r.json.diagnostics[0]!.path).toBe(p.result_path);
  });

  it("a missing packet → exit 5", async () => {
    repo.write("elsewhere/result.json", "{}");
    const r = await repo.cli(["result", "check", "elsewhere/result.json"]);
    expect(r.code).toBe(5);
    expect(r.json.diagnostics[0]!.path).toBe("elsewhere/packet.json");
  });

  it("an explicit --packet is used for a result outside its run folder", async () => {
    repo.write("elsewhere/result.json", JSON.stringify(repo.resultFor(p)));
    const r = await repo.cli([
      "result",
      "check",
      "elsewhere/result.json",
      "--packet",
      p.result_path.replace("result.json", "packet.json"),
    ]);
    expect(codes(r)).toEqual(["result.stale"]); // the copy itself is an untracked change in the tree
  });

  it("an invalid packet → exit 1, packet.invalid with the schema defects", async () => {
    repo.write(`.devrites/runs/${p.run_id}/packet.json`, JSON.stringify({ ...p, role: "nobody" }));
    repo.writeResult(p, "{}");
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["envelope.schema", "packet.invalid"]);
  });

  it("a directory given as the result → exit 2", async () => {
    mkdirSync(join(repo.root, "adir"));
    writeFileSync(
      join(repo.root, "adir", "packet.json"),
      repo.read(`.devrites/runs/${p.run_id}/packet.json`),
    );
    const r = await repo.cli(["result", "check", "adir", "--packet", "adir/packet.json"]);
    expect(r.code).toBe(2);
    expect(codes(r)).toEqual(["input.invalid"]);
  });

  it("no argument → exit 2", async () => {
    expect((await repo.cli(["result", "check"])).code).toBe(2);
  });

  it("prints a one-line verdict for humans", async () => {
    await repo.record(p, repo.resultFor(p));
    const r = await runCapture(["result", "check", p.result_path], repo.root);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`accepted: ${p.run_id} (devrites-evidence-scout), guard unavailable`);
  });

  it("a rejection is logged with its codes and keeps the run active", async () => {
    const res = repo.resultFor(p);
    res.status = "partial";
    await repo.record(p, res);
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    const last = JSON.parse(repo.read(`.devrites/runs/${p.run_id}/events.jsonl`).trim().split("\n").at(-1)!);
    expect(last).toMatchObject({
      type: "result.checked",
      data: { verdict: "rejected", codes: ["result.partial"] },
    });
    expect(JSON.parse(repo.read(".devrites/state.json")).active_runs).toHaveLength(1);
  });
});

describe("strict envelopes: what is stored and judged is exactly the bytes received", () => {
  const bytes = (s: string) => Buffer.from(s, "utf8");
  const withByte = (s: string, at: string, b: number) => {
    const i = s.indexOf(at);
    return Buffer.concat([bytes(s.slice(0, i)), Buffer.from([b]), bytes(s.slice(i + at.length))]);
  };

  it("result record refuses a repeated key, invalid UTF-8 and a byte-order mark, each with its code", async () => {
    const text = JSON.stringify(repo.resultFor(p));
    const dup = text.replace('"status":"complete"', '"status":"failed","status":"complete"');
    const cases: [string, string | Uint8Array, string][] = [
      ["duplicate", dup, "envelope.duplicate-key"],
      ["duplicate in a fence", `done\n\`\`\`json\n${dup}\n\`\`\`\n`, "envelope.duplicate-key"],
      ["invalid UTF-8", withByte(text, "complete", 0xff), "envelope.invalid-encoding"],
      [
        "byte-order mark",
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes(text)]),
        "envelope.byte-order-mark",
      ],
      ["lone surrogate", text.replace("complete", "complete\ud800"), "envelope.invalid-encoding"],
    ];
    for (const [name, input, code] of cases) {
      const r = await repo.cli(["result", "record", p.run_id], input);
      expect({ name, code: r.code, codes: codes(r) }).toEqual({ name, code: 1, codes: [code] });
      expect(r.json.diagnostics[0]!.path).toBe("stdin");
    }
    expect(events()).toEqual(["packet.created"]);
    // --file names the file
    writeFileSync(join(repo.root, "leaf.txt"), withByte(text, "complete", 0xc3));
    const f = await repo.cli(["result", "record", p.run_id, "--file", "leaf.txt"]);
    expect(codes(f)).toEqual(["envelope.invalid-encoding"]);
    expect(f.json.diagnostics[0]!.path).toBe("leaf.txt");
  });

  it("near misses are stored byte for byte: non-ASCII text, U+FEFF and U+FFFD inside strings, CRLF in a fence", async () => {
    const r0 = repo.resultFor(p);
    (r0.payload.content as { findings: { claim: string }[] }).findings[0]!.claim =
      "vérifié ☃ \uFEFF \uFFFD 😀";
    const json = JSON.stringify(r0, null, 2).replace(/\n/g, "\r\n");
    const input = bytes(`Done.\r\n\`\`\`json\r\n${json}\r\n\`\`\`\r\n`);
    const r = await repo.cli(["result", "record", p.run_id], input);
    expect(r.code).toBe(0);
    const stored = readFileSync(join(repo.root, p.result_path));
    expect(stored.equals(bytes(`${json}\n`))).toBe(true);
    expect(input.includes(stored.subarray(0, -1))).toBe(true);
    const c = await repo.check(p);
    expect(c.json.diagnostics).toEqual([]);
    expect(c.code).toBe(0);
  });

  it("result check refuses a stored result with a repeated key, invalid UTF-8 or a byte-order mark", async () => {
    const text = JSON.stringify(repo.resultFor(p));
    for (const [content, code] of [
      [
        bytes(text.replace('"status":"complete"', '"status":"failed","status":"complete"')),
        "envelope.duplicate-key",
      ],
      [withByte(text, "complete", 0x80), "envelope.invalid-encoding"],
      [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes(text)]), "envelope.byte-order-mark"],
    ] as const) {
      writeFileSync(join(repo.root, p.result_path), content);
      const r = await repo.check(p);
      expect(r.code).toBe(1);
      expect(codes(r)).toEqual([code]);
      expect(r.json.diagnostics[0]!.path).toBe(p.result_path);
    }
    writeFileSync(join(repo.root, p.result_path), `${text}\n`);
    expect((await repo.check(p)).code).toBe(0);
  });

  it("result check reads packet.json, baseline.json and the ledger with the same strict reader", async () => {
    await repo.record(p, repo.resultFor(p));
    const packetRel = `.devrites/runs/${p.run_id}/packet.json`;
    const baselineRel = `.devrites/runs/${p.run_id}/baseline.json`;
    const eventsRel = `.devrites/runs/${p.run_id}/events.jsonl`;
    const original = {
      packet: repo.read(packetRel),
      baseline: repo.read(baselineRel),
      events: repo.read(eventsRel),
    };
    const restore = () => {
      repo.write(packetRel, original.packet);
      repo.write(baselineRel, original.baseline);
      repo.write(eventsRel, original.events);
    };
    // the packet: a repeated key
    repo.write(packetRel, original.packet.replace('"role":', '"role": "devrites-slice-wright", "role":'));
    let r = await repo.check(p);
    expect(codes(r)).toEqual(["envelope.duplicate-key", "packet.invalid"]);
    expect(r.json.diagnostics.find((d) => d.code === "envelope.duplicate-key")!.path).toBe(packetRel);
    restore();
    // the baseline: a byte-order mark
    writeFileSync(join(repo.root, baselineRel), `\uFEFF${original.baseline}`);
    r = await repo.check(p);
    expect(codes(r)).toEqual(["envelope.byte-order-mark"]);
    expect(r.json.diagnostics[0]!.path).toBe(baselineRel);
    restore();
    // the baseline: a repeated key
    repo.write(baselineRel, original.baseline.replace('"dirty":', '"dirty": [], "dirty":'));
    r = await repo.check(p);
    expect(codes(r)).toEqual(["envelope.duplicate-key"]);
    restore();
    // a ledger line with a repeated key (e.g. a forged guard event)
    const forged = `{"ts":"${p.created_at}","run_id":"${p.run_id}","run_id":"${p.run_id}","type":"hook.subagent-stop","data":{}}\n`;
    repo.write(eventsRel, original.events + forged);
    r = await repo.check(p);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["envelope.duplicate-key"]);
    expect(r.json.diagnostics[0]).toMatchObject({ path: eventsRel, line: 3 });
    restore();
    // near miss: a torn last line stays tolerated, as before
    repo.write(eventsRel, `${original.events}{"ts":`);
    r = await repo.check(p);
    expect(r.code).toBe(0);
  });
});

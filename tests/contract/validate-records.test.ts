/**
 * `devrites validate` re-derives every accepted verdict instead of trusting the ledger's last line. Each
 * test forges the run's records the way someone who can write the work tree would, and asserts the code;
 * the near misses (an honest acceptance, a rejection fixed and accepted on a second check) still pass.
 */

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCapture } from "../../src/cli/test-io.js";
import { sha256Hex } from "../../src/core/hash.js";
import type { AgentPacket } from "../../src/envelope/types.js";
import { packetDigest } from "../../src/packet/anchor.js";
import { Repo } from "./harness.js";

let repo: Repo;
beforeEach(() => {
  repo = Repo.create({ "src/app.ts": "export const app = 1;\n", "src/util.ts": "export const util = 1;\n" });
});
afterEach(() => repo.cleanup());

const rel = (p: AgentPacket, f: string) => `.devrites/runs/${p.run_id}/${f}`;

async function validate(): Promise<{
  code: number;
  codes: string[];
  diagnostics: { code: string; path?: string; message: string }[];
}> {
  const r = await runCapture(["validate", "--json"], repo.root);
  const json = JSON.parse(r.stdout) as {
    diagnostics: { code: string; severity: string; path?: string; message: string }[];
  };
  const errors = json.diagnostics.filter((d) => d.severity === "error");
  return { code: r.code, codes: [...new Set(errors.map((d) => d.code))].sort(), diagnostics: errors };
}

function appendLine(p: AgentPacket, type: string, data: Record<string, unknown>): void {
  const ev = rel(p, "events.jsonl");
  repo.write(
    ev,
    `${repo.read(ev)}${JSON.stringify({ ts: new Date().toISOString(), run_id: p.run_id, type, data })}\n`,
  );
}

async function acceptedWright(): Promise<AgentPacket> {
  const p = await repo.packet("devrites-slice-wright", { allow: ["src/app.ts"] });
  const a = repo.write("src/app.ts", "export const app = 2;\n");
  await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: a }]));
  const c = await repo.check(p);
  if (c.code !== 0) throw new Error(JSON.stringify(c.json.diagnostics));
  return p;
}

describe("validate re-derives accepted verdicts", () => {
  it("near miss: an honest acceptance passes", async () => {
    await acceptedWright();
    const v = await validate();
    expect(v.diagnostics).toEqual([]);
    expect(v.code).toBe(0);
  });

  it("near miss: a rejection fixed by the leaf and accepted on a second check passes", async () => {
    const p = await repo.packet("devrites-slice-wright", { allow: ["src/app.ts"] });
    const want = sha256Hex("export const app = 2;\n");
    repo.write("src/app.ts", "export const app = 'not yet';\n");
    await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: want }]));
    expect((await repo.check(p)).code).toBe(1);
    repo.write("src/app.ts", "export const app = 2;\n");
    expect((await repo.check(p)).code).toBe(0);
    const v = await validate();
    expect(v.diagnostics).toEqual([]);
  });

  it("a result.checked accepted line appended to a rejected run → workspace.accepted-unanchored", async () => {
    const p = await repo.packet("devrites-slice-wright", { allow: ["src/app.ts"] });
    repo.write("src/util.ts", "export const util = 'out of scope';\n");
    const a = repo.write("src/app.ts", "export const app = 2;\n");
    await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: a }]));
    expect((await repo.check(p)).code).toBe(1);
    appendLine(p, "result.checked", { verdict: "accepted", codes: [], guard_strength: "unavailable" });
    const v = await validate();
    expect(v.code).toBe(1);
    expect(v.codes).toEqual(["workspace.accepted-unanchored"]);
  });

  it("an accepted result edited and re-recorded in the ledger → contradiction and changed bytes", async () => {
    const p = await acceptedWright();
    const result = JSON.parse(repo.read(p.result_path));
    result.side_effects.repo_writes.push({ path: "src/util.ts", op: "modify", sha256_after: sha256Hex("x") });
    const text = `${JSON.stringify(result)}\n`;
    repo.write(p.result_path, text);
    appendLine(p, "result.recorded", {
      result_path: p.result_path,
      sha256: sha256Hex(text),
      bytes: text.length,
    });
    appendLine(p, "result.checked", { verdict: "accepted", codes: [], guard_strength: "unavailable" });
    const v = await validate();
    expect(v.code).toBe(1);
    expect(v.codes).toEqual([
      "workspace.accepted-result-changed",
      "workspace.accepted-verdict-invalid",
      "workspace.ledger-contradiction",
    ]);
  });

  it("an accepted result edited with the whole ledger rewritten to match → workspace.accepted-result-changed", async () => {
    const p = await acceptedWright();
    const result = JSON.parse(repo.read(p.result_path));
    result.payload.content.summary = "rewritten";
    const text = `${JSON.stringify(result)}\n`;
    repo.write(p.result_path, text);
    const ev = rel(p, "events.jsonl");
    repo.write(ev, repo.read(ev).replace(/"sha256":"[0-9a-f]{64}"/, `"sha256":"${sha256Hex(text)}"`));
    const v = await validate();
    expect(v.codes).toEqual(["workspace.accepted-result-changed"]);
  });

  it("expires_at deleted from an accepted run's packet → result.packet-tampered naming it", async () => {
    const p = await repo.packet("devrites-evidence-scout", { extra: ["--expires-in", "5"] });
    await repo.record(p, repo.resultFor(p));
    expect((await repo.check(p)).code).toBe(0);
    const packet = JSON.parse(repo.read(rel(p, "packet.json")));
    delete packet.expires_at;
    repo.write(rel(p, "packet.json"), JSON.stringify(packet, null, 2));
    const v = await validate();
    expect(v.codes).toContain("result.packet-tampered");
    expect(v.diagnostics.find((d) => d.code === "result.packet-tampered")!.message).toContain(
      "expires_at (deleted)",
    );
  });

  it("an accepted run's packet edited (allowlist widened, ledger digest recomputed) → result.packet-tampered", async () => {
    const p = await acceptedWright();
    const packet = JSON.parse(repo.read(rel(p, "packet.json")));
    packet.scope.allowed_repo_writes.push("src/util.ts");
    repo.write(rel(p, "packet.json"), JSON.stringify(packet, null, 2));
    const ev = rel(p, "events.jsonl");
    repo.write(
      ev,
      repo.read(ev).replace(/"packet_sha256":"[0-9a-f]{64}"/, `"packet_sha256":"${packetDigest(packet)}"`),
    );
    const v = await validate();
    // (the stored baseline no longer covers the widened allowlist either)
    expect(v.codes).toEqual(["result.packet-tampered", "workspace.accepted-baseline-mismatch"]);
    const tampered = v.diagnostics.find((d) => d.code === "result.packet-tampered")!;
    expect(tampered.message).toContain("scope.allowed_repo_writes");
    expect(tampered.path).toBe(rel(p, "packet.json"));
  });

  it("a ledger that contradicts itself → workspace.ledger-contradiction naming the line", async () => {
    const p = await acceptedWright();
    appendLine(p, "result.checked", {
      verdict: "accepted",
      codes: ["result.out-of-scope"],
      guard_strength: "unavailable",
    });
    const v = await validate();
    expect(v.codes).toEqual(["workspace.ledger-contradiction"]);
    expect(v.diagnostics[0]).toMatchObject({ path: rel(p, "events.jsonl") });
  });
});

/**
 * Bound records: a run's packet, baseline and ledger are fixed at `packet new` (an anchor in the git folder,
 * or `.devrites/anchors` when that is read-only, and the ledger's `packet.created` event) and compared on every `result check`. Each test rewrites the
 * records the way an attacker who can write the work tree would — keeping them consistent with each other —
 * and asserts the specific code; the near misses must still be accepted.
 */

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { identityOf } from "../../src/baseline/_settle.js";
import { baselineId, isStatMark, type ManifestEntry, manifestDigest } from "../../src/baseline/index.js";
import { sha256Hex } from "../../src/core/hash.js";
import type { AgentPacket } from "../../src/envelope/types.js";
import { packetDigest } from "../../src/packet/anchor.js";
import { codes, Repo } from "./harness.js";

let repo: Repo;
beforeEach(() => {
  repo = Repo.create({ "src/app.ts": "export const app = 1;\n", "src/util.ts": "export const util = 1;\n" });
});
afterEach(() => repo.cleanup());

const rel = (p: AgentPacket, f: string) => `.devrites/runs/${p.run_id}/${f}`;
const gitDir = () =>
  execFileSync("git", ["rev-parse", "--absolute-git-dir"], { cwd: repo.root, encoding: "utf8" }).trim();
const anchorFile = (p: AgentPacket) => join(gitDir(), "devrites", "anchors", `${p.run_id}.json`);

interface BaselineJson {
  schema: string;
  run_id: string;
  head: string;
  dirty: ManifestEntry[];
  touched: ManifestEntry[];
}

/** Rewrite packet.json, baseline.json and the ledger's packet.created together, consistently. */
function rewriteRun(
  p: AgentPacket,
  edit: (packet: AgentPacket, baseline: BaselineJson) => void,
  opts: { ledger?: boolean } = {},
): AgentPacket {
  const packet = JSON.parse(repo.read(rel(p, "packet.json"))) as AgentPacket;
  const baseline = JSON.parse(repo.read(rel(p, "baseline.json"))) as BaselineJson;
  edit(packet, baseline);
  const dirty = manifestDigest(baseline.dirty);
  const touched = manifestDigest(baseline.touched);
  packet.baseline = {
    ...packet.baseline,
    dirty_sha256: dirty,
    touched_sha256: touched,
    id: baselineId(baseline.head, dirty, touched),
  };
  const baselineText = `${JSON.stringify(baseline, null, 2)}\n`;
  repo.write(rel(p, "baseline.json"), baselineText);
  repo.write(rel(p, "packet.json"), `${JSON.stringify(packet, null, 2)}\n`);
  if (opts.ledger !== false) {
    const lines = repo
      .read(rel(p, "events.jsonl"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    lines[0].data.packet_sha256 = packetDigest(packet);
    lines[0].data.baseline_sha256 = sha256Hex(baselineText);
    lines[0].data.allowed_repo_writes = packet.scope.allowed_repo_writes;
    repo.write(rel(p, "events.jsonl"), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  }
  return packet;
}

describe("packet new fixes the run", () => {
  // root ignores file modes, so a folder is made unwritable by putting a file where it would go
  const block = (path: string) => writeFileSync(path, "not a folder\n");
  const runsOf = () => {
    const runs = join(repo.root, ".devrites", "runs");
    return existsSync(runs) ? readdirSync(runs) : [];
  };

  it("a git folder it cannot write (Codex's sandbox keeps .git read-only): the anchor goes to .devrites/anchors and binds the run as well", async () => {
    block(join(gitDir(), "devrites"));
    const p = await repo.packet("devrites-slice-wright", { allow: ["src/app.ts"] });
    const ws = join(repo.root, ".devrites", "anchors", `${p.run_id}.json`);
    expect(JSON.parse(readFileSync(ws, "utf8")).packet_sha256).toBe(packetDigest(p));
    const a = repo.write("src/app.ts", "export const app = 2;\n");
    repo.writeResult(
      p,
      JSON.stringify(repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: a }])),
    );
    const ok = await repo.check(p);
    expect(ok.code, JSON.stringify(ok.json.diagnostics)).toBe(0);
    // the verdict is anchored beside it, and validate holds the ledger to it
    expect(readFileSync(ws.replace(/\.json$/, ".verdicts.jsonl"), "utf8")).toContain('"accepted"');
    expect((await repo.cli(["validate"])).code).toBe(0);
    // and it still binds: a widened allowlist is named against the workspace anchor
    rewriteRun(p, (packet) => {
      packet.scope.allowed_repo_writes = ["src/app.ts", "src/util.ts"];
    });
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    const tampered = r.json.diagnostics.find((d) => d.code === "result.packet-tampered");
    expect(tampered?.message).toContain(`.devrites/anchors/${p.run_id}.json`);
  });

  it("neither anchor folder writable: exit 1 naming both, and no run left behind", async () => {
    block(join(gitDir(), "devrites"));
    mkdirSync(join(repo.root, ".devrites"), { recursive: true });
    block(join(repo.root, ".devrites", "anchors"));
    const stateBefore = existsSync(join(repo.root, ".devrites", "state.json"))
      ? readFileSync(join(repo.root, ".devrites", "state.json"), "utf8")
      : undefined;
    const r = await repo.cli([
      "packet",
      "new",
      "--role",
      "devrites-evidence-scout",
      "--rite",
      "rite-spec",
      "--objective",
      "x",
    ]);
    expect(r.code).toBe(1);
    expect(r.json.diagnostics).toEqual([
      expect.objectContaining({
        code: "packet.anchor-unwritable",
        path: join(gitDir(), "devrites", "anchors"),
        hint: expect.stringContaining(".devrites/anchors"),
      }),
    ]);
    expect(r.json.diagnostics[0]!.message).toContain(join(repo.root, ".devrites", "anchors"));
    expect(runsOf()).toEqual([]);
    const stateAfter = existsSync(join(repo.root, ".devrites", "state.json"))
      ? readFileSync(join(repo.root, ".devrites", "state.json"), "utf8")
      : undefined;
    expect(stateAfter).toBe(stateBefore);
    // the near miss: either folder writable again makes the run
    rmSync(join(repo.root, ".devrites", "anchors"));
    expect((await repo.packet("devrites-evidence-scout")).run_id).toMatch(/^run-/);
  });

  it("a verdict that cannot be anchored records nothing: result.anchor-unwritable, no ledger line, and a clean retry", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    repo.writeResult(p, JSON.stringify(repo.resultFor(p)));
    const verdicts = join(gitDir(), "devrites", "anchors", `${p.run_id}.verdicts.jsonl`);
    mkdirSync(verdicts); // a folder where the file goes: the append fails as on a read-only git folder
    const ledgerBefore = repo.read(rel(p, "events.jsonl"));
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(["result.anchor-unwritable"]);
    expect(r.json.diagnostics[0]!.path).toBe(`<git-dir>/devrites/anchors/${p.run_id}.verdicts.jsonl`);
    expect(repo.read(rel(p, "events.jsonl"))).toBe(ledgerBefore);
    // the near miss: once the folder is writable the same check is accepted and anchored
    rmSync(verdicts, { recursive: true });
    const ok = await repo.check(p);
    expect(ok.code, JSON.stringify(ok.json.diagnostics)).toBe(0);
    expect(readFileSync(verdicts, "utf8")).toContain('"accepted"');
  });

  it("an anchor in the git folder wins over one in the workspace for the same run", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    // a forged workspace anchor for a run anchored in the git folder is never read
    mkdirSync(join(repo.root, ".devrites", "anchors"), { recursive: true });
    writeFileSync(join(repo.root, ".devrites", "anchors", `${p.run_id}.json`), "{}\n");
    repo.writeResult(p, JSON.stringify(repo.resultFor(p)));
    const r = await repo.check(p);
    expect(r.code, JSON.stringify(r.json.diagnostics)).toBe(0);
    // the near miss: with the git anchor gone, the workspace one is read, and it is no anchor
    rmSync(anchorFile(p));
    expect(codes(await repo.check(p))).toContain("result.anchor-invalid");
  });

  it("writes an anchor in the git folder and the digests in packet.created", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    const anchor = JSON.parse(readFileSync(anchorFile(p), "utf8"));
    expect(anchor.packet_sha256).toBe(packetDigest(p));
    expect(anchor.baseline_sha256).toBe(sha256Hex(readFileSync(join(repo.root, rel(p, "baseline.json")))));
    const created = JSON.parse(repo.read(rel(p, "events.jsonl")).split("\n")[0]!);
    expect(created.data).toMatchObject({
      packet_sha256: anchor.packet_sha256,
      baseline_sha256: anchor.baseline_sha256,
      stat_mark: anchor.stat_mark,
    });
    // the mark: taken before the snapshot, on this repository's root (docs/tree-check.md, "Settled paths")
    expect(isStatMark(anchor.stat_mark)).toBe(true);
    expect(anchor.stat_mark.settled_before_ms).toBeLessThan(Date.parse(p.created_at));
    expect(anchor.stat_mark.root).toBe(identityOf(repo.root));
  });
});

describe("result check compares the run with what packet new fixed", () => {
  it("an allowlist widened in packet.json, baseline digests and ledger recomputed → result.packet-tampered naming the field", async () => {
    const p = await repo.packet("devrites-slice-wright", { allow: ["src/app.ts"] });
    const util = repo.write("src/util.ts", "export const util = 'widened';\n");
    const forged = rewriteRun(p, (packet, baseline) => {
      packet.scope.allowed_repo_writes = ["src/app.ts", "src/util.ts"];
      baseline.touched.push({
        path: "src/util.ts",
        type: "file",
        exec: false,
        sha256: sha256Hex("export const util = 1;\n"),
      });
      baseline.touched.sort((a, b) => (a.path < b.path ? -1 : 1));
    });
    repo.writeResult(
      p,
      JSON.stringify(repo.resultFor(forged, [{ path: "src/util.ts", op: "modify", sha256_after: util }])),
    );
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    // the forged ledger agrees with the forged packet, not with the anchor
    expect(codes(r)).toEqual(["result.ledger-mismatch", "result.packet-tampered"]);
    const fields = r.json.diagnostics
      .filter((d) => d.code === "result.packet-tampered")
      .map((d) => d.message);
    expect(fields.some((m) => m.includes("field scope.allowed_repo_writes"))).toBe(true);
    expect(fields.some((m) => m.includes("field baseline.id"))).toBe(true);
    expect(r.json.diagnostics.find((d) => d.code === "result.packet-tampered")!.path).toBe(
      rel(p, "packet.json"),
    );
  });

  it("an out-of-scope change folded into baseline.json, packet digests recomputed → rejected", async () => {
    const p = await repo.packet("devrites-slice-wright", { allow: ["src/app.ts"] });
    const a = repo.write("src/app.ts", "export const app = 2;\n");
    const u = repo.write("src/util.ts", "export const util = 'sneaked';\n");
    const forged = rewriteRun(p, (_packet, baseline) => {
      baseline.dirty.push({ path: "src/util.ts", type: "file", exec: false, sha256: u });
    });
    repo.writeResult(
      p,
      JSON.stringify(repo.resultFor(forged, [{ path: "src/app.ts", op: "modify", sha256_after: a }])),
    );
    const r = await repo.check(p);
    expect(r.code).toBe(1);
    // the forged ledger agrees with the forged packet, not with the anchor; and the forger missed the index
    // side of the file (.git/index/src/util.ts), so the change is still out of scope
    expect(codes(r)).toEqual([
      "result.ledger-mismatch",
      "result.out-of-scope",
      "result.packet-tampered",
      "result.undeclared-write",
    ]);
  });

  it("expires_at deleted from an expired packet → result.packet-tampered naming expires_at", async () => {
    const p = await repo.packet("devrites-evidence-scout", { extra: ["--expires-in", "5"] });
    await repo.record(p, repo.resultFor(p));
    rewriteRun(p, (packet) => {
      delete packet.expires_at;
    });
    const r = await repo.checkAt(p, new Date(Date.parse(p.expires_at!) + 60_000));
    expect(r.exitCode).toBe(1);
    expect(r.diagnostics.map((d) => d.code)).toEqual(["result.packet-tampered"]);
    expect(r.diagnostics[0]!.message).toContain("field expires_at (deleted)");
  });

  it("the anchor deleted → result.anchor-missing; an anchor edited → result.anchor-invalid", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    await repo.record(p, repo.resultFor(p));
    const text = readFileSync(anchorFile(p), "utf8");
    repo.write(`../anchor-backup.json`, text);
    rmSync(anchorFile(p));
    expect(codes(await repo.check(p))).toEqual(["result.anchor-missing"]);
    const edited = JSON.parse(text);
    edited.packet.budgets.max_files = 1000;
    execFileSync("sh", ["-c", `cat > '${anchorFile(p)}'`], { input: JSON.stringify(edited) });
    expect(codes(await repo.check(p))).toEqual(["result.anchor-invalid"]);
  });

  it("the anchor's mark moved, malformed or dropped from the ledger → result.anchor-invalid or result.ledger-mismatch", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    await repo.record(p, repo.resultFor(p));
    const text = readFileSync(anchorFile(p), "utf8");
    const put = (anchor: unknown) =>
      execFileSync("sh", ["-c", `cat > '${anchorFile(p)}'`], { input: JSON.stringify(anchor) });
    const anchor = JSON.parse(text);
    // moved later (more would count as settled): the ledger still holds the one packet new wrote
    put({ ...anchor, stat_mark: { ...anchor.stat_mark, settled_before_ms: Date.now() } });
    expect(codes(await repo.check(p))).toEqual(["result.ledger-mismatch"]);
    for (const bad of [
      { settled_before_ms: "soon", root: anchor.stat_mark.root },
      { ...anchor.stat_mark, x: 1 },
    ]) {
      put({ ...anchor, stat_mark: bad });
      expect(codes(await repo.check(p))).toEqual(["result.anchor-invalid"]);
    }
    // dropped from both the anchor and the ledger: the run is checked as one made before marks (accepted)
    const { stat_mark: _gone, ...unmarked } = anchor;
    put(unmarked);
    const ev = rel(p, "events.jsonl");
    const [created, ...rest] = repo.read(ev).trim().split("\n");
    const c = JSON.parse(created!);
    delete c.data.stat_mark;
    repo.write(ev, `${[JSON.stringify(c), ...rest].join("\n")}\n`);
    const r = await repo.check(p);
    expect(r.json.diagnostics).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("packet.created edited, deleted or repeated in the ledger → result.ledger-mismatch", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    await repo.record(p, repo.resultFor(p));
    const ev = rel(p, "events.jsonl");
    const original = repo.read(ev);
    const [created, ...rest] = original.trim().split("\n");
    const c = JSON.parse(created!);
    c.data.packet_sha256 = "0".repeat(64);
    for (const text of [
      [JSON.stringify(c), ...rest].join("\n"),
      rest.join("\n"),
      [created, created, ...rest].join("\n"),
    ]) {
      repo.write(ev, `${text}\n`);
      const r = await repo.check(p);
      expect(codes(r)).toEqual(["result.ledger-mismatch"]);
      expect(r.json.diagnostics[0]!.path).toBe(ev);
    }
  });

  it("near miss: packet.json re-formatted with its keys reordered (same values) is still accepted", async () => {
    const p = await repo.packet("devrites-slice-wright", { allow: ["src/app.ts"] });
    const a = repo.write("src/app.ts", "export const app = 2;\n");
    const packet = JSON.parse(repo.read(rel(p, "packet.json"))) as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(packet).reverse());
    repo.write(rel(p, "packet.json"), JSON.stringify(reordered));
    await repo.record(p, repo.resultFor(p, [{ path: "src/app.ts", op: "modify", sha256_after: a }]));
    const r = await repo.check(p);
    expect(r.json.diagnostics).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("each verdict is anchored beside the anchor, with the result bytes it judged", async () => {
    const p = await repo.packet("devrites-evidence-scout");
    await repo.record(p, repo.resultFor(p));
    expect((await repo.check(p)).code).toBe(0);
    const verdicts = join(gitDir(), "devrites", "anchors", `${p.run_id}.verdicts.jsonl`);
    expect(existsSync(verdicts)).toBe(true);
    const v = JSON.parse(readFileSync(verdicts, "utf8").trim());
    expect(v).toMatchObject({
      verdict: "accepted",
      result_sha256: sha256Hex(readFileSync(join(repo.root, p.result_path))),
    });
  });
});

/**
 * Contract-matrix fixtures: a throwaway git repository per case, driven through the real CLI in-process
 * (`packet new`, `result record`, `result check`), so each case exercises the whole edge: freezing, the
 * stored baseline, the tree snapshot and the verdict.
 */

import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runCapture } from "../../src/cli/test-io.js";
import { sha256Hex } from "../../src/core/hash.js";
import { sampleResult } from "../../src/envelope/fixtures.js";
import { ROLES, type RoleName } from "../../src/envelope/roles.js";
import type { AgentPacket, AgentResult } from "../../src/envelope/types.js";
import { runResultCheck } from "../../src/result/check.js";

export interface CliReport {
  code: number;
  json: {
    command: string;
    ok: boolean;
    exitCode: number;
    diagnostics: { code: string; severity: string; message: string; path?: string; hint?: string }[];
    data?: Record<string, unknown>;
  };
}

export class Repo {
  readonly root: string;
  private readonly top: string;

  private constructor(top: string) {
    this.top = top;
    this.root = join(top, "repo");
  }

  /** A fresh git repository with `files` committed as the first commit. */
  static create(files: Record<string, string> = {}): Repo {
    const top = realpathSync(mkdtempSync(join(tmpdir(), "devrites-contract-")));
    const repo = new Repo(top);
    mkdirSync(repo.root);
    repo.git("init", "-q", "-b", "main");
    repo.git("config", "user.email", "test@example.invalid");
    repo.git("config", "user.name", "test");
    repo.git("config", "commit.gpgsign", "false");
    for (const [p, c] of Object.entries({ "README.md": "# fixture\n", ...files })) repo.write(p, c);
    repo.commit("initial");
    return repo;
  }

  git(...args: string[]): string {
    return execFileSync("git", args, { cwd: this.root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  }

  commit(message: string): void {
    this.git("add", "-A");
    this.git("commit", "-q", "--allow-empty", "-m", message);
  }

  write(path: string, content: string): string {
    const abs = join(this.root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    return sha256Hex(content);
  }

  read(path: string): string {
    return readFileSync(join(this.root, path), "utf8");
  }

  remove(path: string): void {
    unlinkSync(join(this.root, path));
  }

  symlink(path: string, target: string): void {
    const abs = join(this.root, path);
    mkdirSync(dirname(abs), { recursive: true });
    symlinkSync(target, abs);
  }

  /** A directory next to the repository (outside it), for escape fixtures. */
  outside(name: string): string {
    const abs = join(this.top, name);
    mkdirSync(abs, { recursive: true });
    return abs;
  }

  async cli(args: string[], stdin?: string | Uint8Array): Promise<CliReport> {
    const r = await runCapture([...args, "--json"], this.root, {}, stdin === undefined ? {} : { stdin });
    return { code: r.code, json: JSON.parse(r.stdout) };
  }

  /** `devrites packet new`; throws unless it succeeds. */
  async packet(
    role: RoleName,
    opts: { allow?: string[]; inputs?: string[]; extra?: string[] } = {},
  ): Promise<AgentPacket> {
    const args = [
      "packet",
      "new",
      "--role",
      role,
      "--rite",
      "rite-build",
      "--objective",
      "Do one bounded job.",
    ];
    for (const a of opts.allow ?? []) args.push("--allow", a);
    for (const i of opts.inputs ?? []) args.push("--input", i);
    args.push(...(opts.extra ?? []));
    const r = await this.cli(args);
    if (r.code !== 0) throw new Error(`packet new failed: ${JSON.stringify(r.json.diagnostics)}`);
    return (r.json.data as { packet: AgentPacket }).packet;
  }

  /**
   * A valid result for `packet` (the envelope sample for its role, re-bound to the run), with the given
   * repository writes. Budgets echo the packet's.
   */
  resultFor(packet: AgentPacket, repoWrites: AgentResult["side_effects"]["repo_writes"] = []): AgentResult {
    const r = sampleResult(ROLES[packet.role].payload);
    r.run_id = packet.run_id;
    r.role = packet.role;
    r.baseline_id = packet.baseline.id;
    r.budget = { files_used: 3, loaded_lines_used: 120, ...packet.budgets };
    r.side_effects = { repo_writes: repoWrites, scratch_writes: [] };
    r.decisions_stood = [];
    return r;
  }

  /** Record the result the way a leaf's final message is stored: `devrites result record` from stdin. */
  async record(packet: AgentPacket, result: AgentResult | string): Promise<CliReport> {
    const text =
      typeof result === "string" ? result : `\`\`\`json\n${JSON.stringify(result, null, 2)}\n\`\`\`\n`;
    return this.cli(["result", "record", packet.run_id], text);
  }

  /** Write the result file directly (for texts `result record` would refuse). */
  writeResult(packet: AgentPacket, text: string): void {
    this.write(packet.result_path, text);
  }

  async check(packet: AgentPacket): Promise<CliReport> {
    return this.cli(["result", "check", packet.result_path]);
  }

  /** The edge with an injected clock (the CLI always uses the real one). */
  async checkAt(packet: AgentPacket, now: Date) {
    return runResultCheck({ cwd: this.root, result: packet.result_path, now });
  }

  cleanup(): void {
    rmSync(this.top, { recursive: true, force: true });
  }
}

export function codes(r: CliReport): string[] {
  return [...new Set(r.json.diagnostics.map((d) => d.code))].sort();
}

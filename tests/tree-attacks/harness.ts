/**
 * Red-team harness for the tree check: a throwaway git repository per case, driven through the built CLI as a
 * separate process (`node bin/devrites.js …`, the way a host's root runs it), so what is judged is exactly what
 * a user would get. Needs `npm run build` first (the suite skips itself, loudly, when `dist/` is missing).
 */

import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Hex } from "../../src/core/hash.js";
import { sampleResult } from "../../src/envelope/fixtures.js";
import { ROLES } from "../../src/envelope/roles.js";
import type { AgentPacket, AgentResult } from "../../src/envelope/types.js";

const HERE = dirname(fileURLToPath(import.meta.url));
export const PROJECT = resolve(HERE, "../..");
export const BIN = join(PROJECT, "bin", "devrites.js");
export const BUILT = existsSync(join(PROJECT, "dist", "cli", "main.js"));

export interface Diag {
  code: string;
  severity: string;
  message: string;
  path?: string;
}

export interface CliOut {
  code: number;
  ok: boolean;
  diagnostics: Diag[];
  data?: Record<string, unknown>;
  raw: string;
}

export type Write = AgentResult["side_effects"]["repo_writes"][number];

export class AttackRepo {
  readonly root: string;
  readonly top: string;

  private constructor(top: string) {
    this.top = top;
    this.root = join(top, "repo");
  }

  static create(files: Record<string, string>): AttackRepo {
    const top = realpathSync(mkdtempSync(join(tmpdir(), "devrites-attack-")));
    const r = new AttackRepo(top);
    mkdirSync(r.root);
    r.git("init", "-q", "-b", "main");
    r.git("config", "user.email", "attack@example.invalid");
    r.git("config", "user.name", "attack");
    r.git("config", "commit.gpgsign", "false");
    r.git("config", "protocol.file.allow", "always");
    for (const [p, c] of Object.entries(files)) r.write(p, c);
    r.git("add", "-A");
    r.git("commit", "-q", "-m", "initial");
    return r;
  }

  git(...args: string[]): string {
    return execFileSync("git", args, { cwd: this.root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  }

  sh(script: string): string {
    return execFileSync("sh", ["-c", script], { cwd: this.root, encoding: "utf8" });
  }

  abs(p: string): string {
    return join(this.root, p);
  }

  gitDir(): string {
    return this.git("rev-parse", "--absolute-git-dir").trim();
  }

  write(path: string, content: string | Uint8Array): string {
    const a = this.abs(path);
    mkdirSync(dirname(a), { recursive: true });
    writeFileSync(a, content);
    return sha256Hex(typeof content === "string" ? content : Buffer.from(content));
  }

  read(path: string): string {
    return readFileSync(this.abs(path), "utf8");
  }

  /** Run the built CLI with `--json`; never throws on a non-zero exit. */
  cli(args: string[], stdin?: string): CliOut {
    const r = spawnSync(process.execPath, [BIN, ...args, "--json"], {
      cwd: this.root,
      encoding: "utf8",
      input: stdin ?? "",
      env: { ...process.env, NO_COLOR: "1" },
      timeout: 60_000,
    });
    const raw = `${r.stdout}${r.stderr ? `\n[stderr] ${r.stderr}` : ""}`;
    let json: { ok?: boolean; diagnostics?: Diag[]; data?: Record<string, unknown> } = {};
    try {
      json = JSON.parse(r.stdout);
    } catch {
      json = { ok: false, diagnostics: [{ code: "harness.no-json", severity: "error", message: raw }] };
    }
    return {
      code: r.status ?? -1,
      ok: json.ok === true,
      diagnostics: json.diagnostics ?? [],
      ...(json.data ? { data: json.data } : {}),
      raw,
    };
  }

  packet(role: string, allow: string[] = [], extra: string[] = []): { packet?: AgentPacket; out: CliOut } {
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
    for (const a of allow) args.push("--allow", a);
    args.push(...extra);
    const out = this.cli(args);
    const packet = (out.data as { packet?: AgentPacket } | undefined)?.packet;
    return packet && out.code === 0 ? { packet, out } : { out };
  }

  resultFor(p: AgentPacket, writes: Write[]): AgentResult {
    const r = sampleResult(ROLES[p.role].payload);
    r.run_id = p.run_id;
    r.role = p.role;
    r.baseline_id = p.baseline.id;
    r.budget = { files_used: 3, loaded_lines_used: 120, ...p.budgets };
    r.side_effects = { repo_writes: writes, scratch_writes: [] };
    r.decisions_stood = [];
    return r;
  }

  record(p: AgentPacket, result: AgentResult | string): CliOut {
    const text =
      typeof result === "string" ? result : `\`\`\`json\n${JSON.stringify(result, null, 2)}\n\`\`\`\n`;
    return this.cli(["result", "record", p.run_id], text);
  }

  check(p: AgentPacket): CliOut {
    return this.cli(["result", "check", p.result_path]);
  }

  validate(): CliOut {
    return this.cli(["validate"]);
  }

  runFile(p: AgentPacket, name: string): string {
    return `.devrites/runs/${p.run_id}/${name}`;
  }

  anchorPath(p: AgentPacket): string {
    return join(this.gitDir(), "devrites", "anchors", `${p.run_id}.json`);
  }

  cleanup(): void {
    rmSync(this.top, { recursive: true, force: true });
  }
}

export function codesOf(o: CliOut, severity = "error"): string[] {
  return [...new Set(o.diagnostics.filter((d) => d.severity === severity).map((d) => d.code))].sort();
}

export function summary(o: CliOut): string {
  const d = o.diagnostics.map((x) => `${x.severity} ${x.code}${x.path ? ` @${x.path}` : ""}`).join("; ");
  return `exit ${o.code}${d ? ` [${d}]` : " [no diagnostics]"}`;
}

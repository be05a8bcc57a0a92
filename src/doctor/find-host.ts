/**
 * Finding the user's host binaries: the path given (`--claude PATH`, `--codex PATH`) or the first executable
 * of that name on PATH, then asking it for `--version`.
 */

import { accessSync, constants, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { type Diagnostic, error } from "../core/diagnostics.js";
import { hostBaseEnv, runHostProcess } from "./process.js";
import { normalizeVersion } from "./store.js";
import type { DoctorHost } from "./types.js";

export interface FoundHost {
  host: DoctorHost;
  bin: string;
  /** Normalized (`2.1.328`). */
  version: string;
}

function executable(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `name` on PATH (absolute entries only), or undefined. */
export function onPath(name: string, pathVar: string | undefined): string | undefined {
  for (const d of (pathVar ?? "").split(":")) {
    if (!isAbsolute(d)) continue;
    const p = join(d, name);
    if (executable(p)) return p;
  }
  return undefined;
}

export type FindOutcome = { ok: true; found: FoundHost } | { ok: false; diagnostic: Diagnostic };

export async function findHost(
  host: DoctorHost,
  given: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<FindOutcome> {
  const flagName = `--${host}`;
  let bin: string | undefined;
  if (given !== undefined) {
    bin = resolve(cwd, given);
    if (!executable(bin)) {
      return {
        ok: false,
        diagnostic: error("doctor.host-not-found", `${flagName} ${given}: not an executable file`, {
          path: bin,
          hint: `give the path of the ${host} executable, e.g. ${flagName} "$(command -v ${host})"`,
        }),
      };
    }
  } else {
    bin = onPath(host, env.PATH);
    if (bin === undefined) {
      return {
        ok: false,
        diagnostic: error("doctor.host-not-found", `no \`${host}\` on PATH`, {
          hint: `install it, or give its path with ${flagName} PATH`,
        }),
      };
    }
  }
  // a HOME of its own even for --version: nothing of the user's is written, whatever the host does at start
  const home = mkdtempSync(join(tmpdir(), "devrites-doctor-version-"));
  let r: Awaited<ReturnType<typeof runHostProcess>>;
  try {
    r = await runHostProcess(bin, ["--version"], {
      cwd: home,
      env: hostBaseEnv(env, { HOME: home, CODEX_HOME: join(home, ".codex"), DISABLE_AUTOUPDATER: "1" }),
      timeoutMs: 20_000,
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  const version = normalizeVersion(r.stdout);
  if (r.exitCode !== 0 || !/^\d+\.\d+\.\d+/.test(version)) {
    const said = (r.stderr.trim() || r.stdout.trim() || r.spawnError || "").split("\n")[0];
    return {
      ok: false,
      diagnostic: error(
        "doctor.host-unusable",
        `${bin} --version ${r.timedOut ? "timed out" : `exited ${r.exitCode}`}${said ? `: ${said}` : ""}`,
        { path: bin, hint: `check that ${bin} is the ${host} CLI and runs on its own` },
      ),
    };
  }
  return { ok: true, found: { host, bin, version } };
}

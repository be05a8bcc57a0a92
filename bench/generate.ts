/**
 * `devrites generate` on the shipped pack, both hosts, both layouts: load the pack, plan every file (pure),
 * write them into an empty target, regenerate over an up-to-date target, and `--check` it. Target: the whole
 * generate ≤ 500 ms. Then the projected token cost the real Claude Code reports for the generated plugin
 * (`claude --plugin-dir … plugin details devrites`), with the host version: always-on ≤ 250 tokens, each rite and
 * role ≤ 2,500 on invoke. Hook bundles are stand-ins (their size does not change the timing that matters).
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { applyPlan, checkPlan, packageMeta, planOutputs } from "../src/hosts/index.js";
import { loadPack } from "../src/pack/index.js";
import { ensureHosts } from "../tests/hosts/harness/install.js";
import { claudePluginDetails } from "../tests/hosts/harness/run-claude.js";
import type { Row } from "./_types.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TARGET_MS = 500;

const STAND_IN = "#!/usr/bin/env node\nprocess.exit(0);\n";

async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

export async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  const row = (metric: string, value: number, unit: string, extra: Partial<Row> = {}) =>
    rows.push({ section: "generate", metric, value, unit, ...extra });
  const top = mkdtempSync(join(tmpdir(), "devrites-bench-generate-"));
  try {
    const meta = packageMeta(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")));
    const generate = async () => {
      const { model } = await loadPack(join(ROOT, "pack", ".claude"));
      const bundles = new Map(model.hooks.map((h) => [h.entry, STAND_IN]));
      return planOutputs(model, {
        hosts: ["claude", "codex"],
        layouts: ["project", "plugin"],
        meta,
        bundles,
      });
    };
    await generate(); // warm the module and file caches
    const planned = await time(generate);
    const { plan } = planned.value;
    const files = plan.files.length;
    row("load + plan (shipped pack, both hosts and layouts)", planned.ms, "ms", { note: `${files} files` });

    const target = join(top, "target");
    const fresh = await time(async () => {
      const { plan: p } = await generate();
      return applyPlan(target, p);
    });
    row("generate into an empty target", fresh.ms, "ms", {
      target: `≤ ${TARGET_MS}`,
      ok: fresh.ms <= TARGET_MS,
      note: `${fresh.value.written.length} files written (fsync each)`,
    });
    const again = await time(async () => {
      const { plan: p } = await generate();
      return applyPlan(target, p);
    });
    row("regenerate, nothing changed", again.ms, "ms", {
      target: `≤ ${TARGET_MS}`,
      ok: again.ms <= TARGET_MS,
      note: `${again.value.unchanged} unchanged`,
    });
    const check = await time(async () => {
      const { plan: p } = await generate();
      return checkPlan(target, p);
    });
    row("generate --check, up to date", check.ms, "ms", {
      target: `≤ ${TARGET_MS}`,
      ok: check.ms <= TARGET_MS && check.value.drift.length === 0,
      note: `${check.value.drift.length} drifted`,
    });

    const hosts = await ensureHosts();
    if (!hosts.claude) {
      row("always-on tokens (claude plugin details)", Number.NaN, "tok", {
        note: `skipped: ${hosts.skipReason ?? "Claude Code unavailable"}`,
      });
      return rows;
    }
    const details = await claudePluginDetails(join(target, "plugins", "claude", meta.name), meta.name);
    const version = hosts.claude.version;
    row("always-on tokens, whole plugin", details.alwaysOn, "tok", {
      target: "≤ 250",
      ok: details.alwaysOn <= 250,
      note: `${details.alwaysOnRaw} · ${version}`,
    });
    for (const c of details.components) {
      row(`on invoke: ${c.name}`, c.onInvoke, "tok", {
        target: "≤ 2500",
        ok: c.onInvoke <= 2500,
        note: `${c.raw.onInvoke} (always-on ${c.raw.alwaysOn}) · ${version}`,
      });
    }
    return rows;
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
}

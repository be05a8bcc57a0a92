/**
 * Tampering primitives an attacker with write access to the work tree and `.git` would use: rewrites that
 * keep size and mtime, a forged index stat cache, consistent record rewrites. Each is what a leaf's shell
 * could do; none needs privileges.
 */

import { createHash } from "node:crypto";
import { lstatSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baselineId, type ManifestEntry, manifestDigest } from "../../src/baseline/index.js";
import { sha256Hex } from "../../src/core/hash.js";
import type { AgentPacket } from "../../src/envelope/types.js";
import { canonicalJson, packetDigest } from "../../src/packet/anchor.js";
import type { AttackRepo } from "./harness.js";

/** Rewrite `path` with same-length `content` and put its mtime (ns) back, like `touch -r`. */
export function rewriteKeepingMtime(r: AttackRepo, path: string, content: string): void {
  const before = readFileSync(r.abs(path));
  if (before.length !== Buffer.byteLength(content))
    throw new Error(`rewriteKeepingMtime: ${path} must keep its size (${before.length})`);
  r.sh(
    `cp -p '${path}' ../mtime-ref && printf '%s' '${content.replace(/'/g, "'\\''")}' > '${path}' && touch -r ../mtime-ref '${path}'`,
  );
}

/**
 * Forge the index's stat cache for `path` so git believes the work-tree file (already rewritten) is the blob
 * the index names: the entry's ctime, mtime, dev, ino and size are set to the file's current stat, the blob id
 * is kept, and the trailing SHA-1 is recomputed. `git status` then reports the file clean. Index v2/v3, SHA-1.
 */
export function forgeIndexStat(r: AttackRepo, path: string, opts: { keepTimes?: boolean } = {}): void {
  const abs = r.abs(path);
  // Put the file's mtime well before the index's, so git does not treat the entry as racily clean (that also
  // sets its ctime to now). `keepTimes`: the file's times are already old (a file moved in by a folder swap)
  // and must stay so.
  const past = Date.now() / 1000 - 30;
  if (!opts.keepTimes) utimesSync(abs, past, past);
  const st = lstatSync(abs, { bigint: true });
  const file = join(r.gitDir(), "index");
  const idx = readFileSync(file);
  if (idx.toString("latin1", 0, 4) !== "DIRC") throw new Error("not an index");
  const version = idx.readUInt32BE(4);
  if (version !== 2 && version !== 3) throw new Error(`index version ${version} not supported by the forger`);
  const count = idx.readUInt32BE(8);
  let off = 12;
  let found = false;
  for (let i = 0; i < count; i++) {
    const flags = idx.readUInt16BE(off + 60);
    const extended = version === 3 && (flags & 0x4000) !== 0;
    const nameOff = off + 62 + (extended ? 2 : 0);
    const nameLen = flags & 0xfff;
    const name = idx.toString("utf8", nameOff, nameOff + nameLen);
    if (name === path) {
      const s = (n: bigint) => Number(n / 1_000_000_000n);
      const ns = (n: bigint) => Number(n % 1_000_000_000n);
      idx.writeUInt32BE(s(st.ctimeNs) >>> 0, off);
      idx.writeUInt32BE(ns(st.ctimeNs), off + 4);
      idx.writeUInt32BE(s(st.mtimeNs) >>> 0, off + 8);
      idx.writeUInt32BE(ns(st.mtimeNs), off + 12);
      idx.writeUInt32BE(Number(st.dev & 0xffffffffn), off + 16);
      idx.writeUInt32BE(Number(st.ino & 0xffffffffn), off + 20);
      idx.writeUInt32BE(Number(st.size & 0xffffffffn), off + 36);
      found = true;
    }
    const entryLen = nameOff - off + nameLen;
    off += (entryLen + 8) & ~7;
  }
  if (!found) throw new Error(`forgeIndexStat: ${path} not in the index`);
  const body = idx.subarray(0, idx.length - 20);
  const sum = createHash("sha1").update(body).digest();
  writeFileSync(file, Buffer.concat([body, sum]));
}

interface BaselineJson {
  schema: string;
  run_id: string;
  head: string;
  dirty: ManifestEntry[];
  touched: ManifestEntry[];
}

/**
 * Rewrite a run's packet, baseline and ledger `packet.created` together so they agree with each other, and —
 * when `anchor` is set — the anchor in the git folder too (the attacker can write `.git`). Returns the forged
 * packet.
 */
export function forgeRun(
  r: AttackRepo,
  p: AgentPacket,
  edit: (packet: AgentPacket, baseline: BaselineJson) => void,
  opts: { anchor: boolean },
): AgentPacket {
  const packet = JSON.parse(r.read(r.runFile(p, "packet.json"))) as AgentPacket;
  const baseline = JSON.parse(r.read(r.runFile(p, "baseline.json"))) as BaselineJson;
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
  r.write(r.runFile(p, "baseline.json"), baselineText);
  r.write(r.runFile(p, "packet.json"), `${JSON.stringify(packet, null, 2)}\n`);
  const ev = r.runFile(p, "events.jsonl");
  const lines = r
    .read(ev)
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  lines[0].data.packet_sha256 = packetDigest(packet);
  lines[0].data.baseline_sha256 = sha256Hex(baselineText);
  lines[0].data.baseline_id = packet.baseline.id;
  lines[0].data.allowed_repo_writes = packet.scope.allowed_repo_writes;
  r.write(ev, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  if (opts.anchor) {
    const file = r.anchorPath(p);
    const anchor = JSON.parse(readFileSync(file, "utf8"));
    anchor.packet = JSON.parse(canonicalJson(packet));
    anchor.packet_sha256 = packetDigest(packet);
    anchor.baseline_sha256 = sha256Hex(baselineText);
    writeFileSync(file, JSON.stringify(anchor));
  }
  return packet;
}

/** Sort a manifest by path bytes, as the baseline stores it. */
export function sortManifest(m: ManifestEntry[]): void {
  m.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
}

/**
 * `.devrites/install.json`: what `devrites init` put into a repository, so that `update` and `uninstall` touch
 * only what is devrites' and give the user back exactly what they had. It lists every managed file with the
 * SHA-256 of the bytes devrites last wrote there and, for every file that existed before devrites touched it
 * (a merged `AGENTS.md`, a `.claude/settings.json` with the user's keys, a pre-existing pre-commit hook, a file
 * replaced with `--force`), the user's original bytes. Read back as untrusted input: closed objects, every
 * path checked before use.
 */

import { type Diagnostic, error } from "../core/diagnostics.js";
import { HOSTS, type Host } from "../hosts/types.js";

export const INSTALL_SCHEMA = "devrites-install/v1";
/** Target-relative path of the manifest. */
export const INSTALL_MANIFEST = ".devrites/install.json";
/** Target-relative path of the workspace state the skeleton creates. */
export const STATE_PATH = ".devrites/state.json";

/**
 * How devrites holds a path:
 * - `owned`: the whole file is devrites' (skills, roles, hook bundles, sidecar manifests);
 * - `merged-json`: devrites' hooks inside the user's JSON settings (`.claude/settings.json`, `.codex/hooks.json`);
 * - `marked-block`: a marked block in the user's markdown (`AGENTS.md`);
 * - `toml-block`: a marked block in `.codex/config.toml` (`[agents] max_depth = 1`);
 * - `skeleton`: created when absent and left to the workspace afterwards (`.devrites/state.json`);
 * - `git-hook`: the pre-commit hook; a hook the user had is moved aside to `chained` and run first.
 */
export const MANAGED_KINDS = [
  "owned",
  "merged-json",
  "marked-block",
  "toml-block",
  "skeleton",
  "git-hook",
] as const;
export type ManagedKind = (typeof MANAGED_KINDS)[number];

/** What a path held before devrites first wrote it. */
export type Original =
  | { exists: false }
  | {
      exists: true;
      /** The bytes, base64 (byte-exact, whatever the encoding). */
      base64: string;
      /** Permission bits. */
      mode: number;
      /**
       * True: these are the user's bytes as they were. False: derived by taking devrites' part out of a file
       * the user edited after devrites merged into it (semantic for JSON, outside-the-markers for blocks).
       */
      exact: boolean;
    };

export interface ManagedFile {
  /** Target-relative POSIX path. */
  path: string;
  kind: ManagedKind;
  /** SHA-256 (hex) of the file as devrites last wrote it. */
  sha256: string;
  /** Present when the path existed before devrites (and for every merged kind). */
  original?: Original;
  /** git-hook only: where the user's previous hook was moved (target-relative), run first by ours. */
  chained?: string;
}

export interface InstallManifest {
  schema: typeof INSTALL_SCHEMA;
  /** The devrites version that last wrote the target. */
  version: string;
  hosts: Host[];
  /**
   * Hosts whose roles alone were installed, for a host plugin that cannot carry agents (`init --host none
   * --roles codex`: a Codex plugin); absent when none were.
   */
  roles?: Host[];
  files: ManagedFile[];
  /** Folders devrites created (target-relative); uninstall removes them when they are empty. */
  dirs: string[];
  installed_at: string;
  updated_at: string;
}

const TOP_KEYS = ["dirs", "files", "hosts", "installed_at", "schema", "updated_at", "version"];
const OPTIONAL_KEYS = ["roles"];
const HEX64 = /^[0-9a-f]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Distinct host names (`hosts`, `roles`). */
function isHostList(v: unknown): v is Host[] {
  return (
    Array.isArray(v) &&
    v.every((h) => (HOSTS as readonly unknown[]).includes(h)) &&
    new Set(v).size === v.length
  );
}

function keysWithin(o: Record<string, unknown>, allowed: readonly string[], required: readonly string[]) {
  const extra = Object.keys(o).find((k) => !allowed.includes(k));
  if (extra !== undefined) return `unknown field \`${extra}\``;
  const missing = required.find((k) => !Object.hasOwn(o, k));
  return missing !== undefined ? `missing field \`${missing}\`` : undefined;
}

/**
 * A relative POSIX path with no empty segment, no segment made only of dots and spaces (`.`, `..`, `...`, `. `:
 * the scope rules count them as traversal), no backslash and no control character.
 */
export function isPlainRelPath(p: unknown): p is string {
  if (typeof p !== "string" || p === "" || p.startsWith("/") || p.includes("\\")) return false;
  if (/[\u0000-\u001f\u007f]/.test(p)) return false;
  return p.split("/").every((s) => s !== "" && !/^[. ]+$/.test(s));
}

function originalDefect(o: unknown): string | undefined {
  if (!isObject(o)) return "original is not an object";
  if (o.exists === false) return keysWithin(o, ["exists"], ["exists"]);
  if (o.exists !== true) return "original.exists must be true or false";
  const k = keysWithin(o, ["base64", "exact", "exists", "mode"], ["base64", "exact", "exists", "mode"]);
  if (k) return `original: ${k}`;
  if (typeof o.base64 !== "string" || !BASE64.test(o.base64)) return "original.base64 is not base64";
  if (typeof o.mode !== "number" || !Number.isInteger(o.mode) || o.mode < 0 || o.mode > 0o7777)
    return "original.mode is not a permission mode";
  if (typeof o.exact !== "boolean") return "original.exact must be a boolean";
  return undefined;
}

function fileDefect(f: unknown): string | undefined {
  if (!isObject(f)) return "not an object";
  const k = keysWithin(f, ["chained", "kind", "original", "path", "sha256"], ["kind", "path", "sha256"]);
  if (k) return k;
  if (!isPlainRelPath(f.path)) return "path is not a plain relative path";
  if (!(MANAGED_KINDS as readonly unknown[]).includes(f.kind))
    return `unknown kind ${JSON.stringify(f.kind)}`;
  if (typeof f.sha256 !== "string" || !HEX64.test(f.sha256)) return "sha256 is not a lowercase SHA-256";
  if (f.original !== undefined) {
    const o = originalDefect(f.original);
    if (o) return o;
  }
  if (f.chained !== undefined && (f.kind !== "git-hook" || !isPlainRelPath(f.chained)))
    return "chained is only a git-hook's plain relative path";
  if (f.kind !== "git-hook" && f.path.split("/").some((s) => s.toLowerCase() === ".git"))
    return "only the git hook may live in .git";
  return undefined;
}

export type ManifestRead = { ok: true; manifest: InstallManifest } | { ok: false; diagnostic: Diagnostic };

/** Parse the text of `.devrites/install.json`. Never throws. */
export function parseInstallManifest(text: string): ManifestRead {
  const bad = (why: string): ManifestRead => ({
    ok: false,
    diagnostic: error("install.manifest-corrupt", `the install manifest cannot be used: ${why}`, {
      path: INSTALL_MANIFEST,
      hint:
        "restore it from version control (git checkout -- .devrites/install.json); devrites will not guess " +
        "which files are yours. To start over, move it aside and run devrites init: files that already match " +
        "are adopted, others are reported and left alone",
    }),
  });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return bad(`not valid JSON (${(e as Error).message})`);
  }
  if (!isObject(raw)) return bad("not a JSON object");
  if (raw.schema !== INSTALL_SCHEMA) return bad(`schema is not ${INSTALL_SCHEMA}`);
  const k = keysWithin(raw, [...TOP_KEYS, ...OPTIONAL_KEYS], TOP_KEYS);
  if (k) return bad(k);
  if (typeof raw.version !== "string" || raw.version === "") return bad("version is not a string");
  if (typeof raw.installed_at !== "string" || typeof raw.updated_at !== "string")
    return bad("installed_at and updated_at must be strings");
  if (!isHostList(raw.hosts)) return bad(`hosts must be distinct values of ${HOSTS.join(", ")}`);
  if (raw.roles !== undefined && !isHostList(raw.roles))
    return bad(`roles must be distinct values of ${HOSTS.join(", ")}`);
  if (!Array.isArray(raw.dirs) || raw.dirs.some((d) => !isPlainRelPath(d)))
    return bad("dirs is not a path list");
  if (!Array.isArray(raw.files)) return bad("files is not an array");
  const seen = new Set<string>();
  for (const [i, f] of raw.files.entries()) {
    const d = fileDefect(f);
    if (d) return bad(`files[${i}]: ${d}`);
    const path = (f as ManagedFile).path;
    if (seen.has(path)) return bad(`files[${i}]: ${path} is listed twice`);
    seen.add(path);
  }
  return { ok: true, manifest: raw as unknown as InstallManifest };
}

/** Stable text: two-space JSON, files sorted by path, a final newline. */
export function installManifestText(m: InstallManifest): string {
  const files = [...m.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const ordered: InstallManifest = {
    schema: m.schema,
    version: m.version,
    hosts: [...m.hosts],
    ...(m.roles && m.roles.length > 0 ? { roles: [...m.roles] } : {}),
    files,
    dirs: [...new Set(m.dirs)].sort(),
    installed_at: m.installed_at,
    updated_at: m.updated_at,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

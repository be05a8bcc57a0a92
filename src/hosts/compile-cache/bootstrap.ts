/**
 * A V8 code cache for the hook bundles. Node 20 has no compile cache of its own (`module.enableCompileCache`
 * came with Node 22), and a hook pays for compiling its bundle on every tool call: with the cache, the shell
 * classifier a leaf's `Bash` call needs is neither parsed nor lazily compiled again (figures: `docs/hooks.md`,
 * Speed, and `npm run bench -- hooks`).
 *
 * This is the readable source. The launcher embeds it minified in its `node -e` bootstrap:
 * `scripts/build-compile-cache.ts` builds `./bootstrap.generated.ts` from `./entry.ts` (which calls
 * `createCompileCache` with the bootstrap's `fs` and `path`). The cache gives the bootstrap two functions:
 * - `compile(text, params, name, variant?)`: compiles `text` as the body of a function of `params` (what
 *   `new Function` does) and returns the function, using and later refreshing a cache entry. An entry holds the
 *   functions V8 had compiled when it was made, so the launcher keeps one per kind of call (`variant`: a root
 *   call runs little of the guard, a leaf's shell call its shell parts, another leaf call the rest; each would
 *   otherwise compile what the other's entry lacks on every call);
 * - `flush()`: writes the entries this process compiled without a usable cache; the launcher calls it after
 *   the answer is printed, so writing never delays or changes a decision.
 *
 * Where and how an entry is kept, and why that is safe for a security hook:
 * - in `<os tmpdir>/devrites-compile-cache-<uid>/`, a directory that must be a real directory (not a link)
 *   owned by this user with no group or other permissions; anything else and nothing is cached (Windows, with
 *   no uid, never caches);
 * - one entry per compiled name and variant (the bundle's path, or its path and lazy part), named by a 64-bit
 *   FNV-1a of the Node version, architecture, parameters, name and variant. The entry holds a tag, the exact
 *   text it was made from and V8's data, and is used only when its text equals, byte for byte, the text being
 *   compiled: a changed bundle is never offered another text's code, whatever the lengths (V8 itself checks
 *   only the length). V8 also rejects data from another V8 version or other flags, and the function is then
 *   compiled from its text as if no entry existed;
 * - read through `O_NOFOLLOW`, only when it is a regular file owned by this user; written to a private
 *   temporary file and renamed into place, so a reader never sees half an entry;
 * - anything that goes wrong around the cache (unreadable, unwritable, full disk) leaves the function compiled
 *   from its text; only the text decides what runs. Whoever can write this directory runs as the same user and
 *   could as well rewrite the bundle itself; the guard denies every leaf write outside its allowlist.
 * - no `crypto`: loading that module costs a hook's start more than the cache saves on a root call; the name
 *   only picks the entry, the byte comparison decides whether it is used.
 * - bounded: names include the bundle's path, so every repository (and every throwaway one: tests, doctor's
 *   scratch repositories) adds entries of up to a megabyte each. After writing an entry, a directory holding
 *   more than `COMPILE_CACHE_MAX_ENTRIES` entries loses its least recently written ones (and any temporary file
 *   a killed writer left); this happens only on a miss, after the answer is printed;
 * - `DEVRITES_NO_COMPILE_CACHE=1` turns it off (for debugging and the bench's comparison).
 *
 * Only Node built-ins handed in as arguments and no imports: the build inlines nothing else. No single quotes
 * in the emitted code (the bootstrap is single-quoted for the shell): strings here use double quotes and hold
 * none, and the build checks the output.
 */

import type * as Fs from "node:fs";
import type * as Path from "node:path";
import type * as Vm from "node:vm";

/** The first bytes of every entry; a file without them (another format, a torn write) is never used. */
export const COMPILE_CACHE_TAG = "devrites-code-cache/v2\n";

/** The most entries the cache directory keeps (a project uses up to six: root, leaf and leaf shell, and lazy parts). */
export const COMPILE_CACHE_MAX_ENTRIES = 64;

/** An entry larger than this is not read (a bundle's entry is about a megabyte). */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/** A temporary file older than this is a killed writer's, not one being written. */
const STALE_TEMP_MS = 60_000;

/** The directory's required mode bits: owner only (`0o700` when created; no group or other bits). */
const OWNER_ONLY_DIR = 0o700;
const GROUP_OR_OTHER_BITS = 0o077;
const OWNER_ONLY_FILE = 0o600;

export interface CompileCache {
  compile(
    text: string,
    params: readonly string[],
    name: string,
    variant?: string,
  ): (...args: unknown[]) => unknown;
  flush(): void;
}

/**
 * `os.tmpdir()` on POSIX without loading `os`: TMPDIR, TMP, TEMP, else /tmp, without a trailing slash.
 * Exported for tests; the launcher runs it through `createCompileCache`.
 */
export function tempDir(env: NodeJS.ProcessEnv): string {
  const dir = env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  return dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir;
}

/** 64-bit FNV-1a of a short string as 16 hex digits (two 32-bit halves with different offsets). */
export function entryHash(s: string): string {
  let low = 2166136261;
  let high = 3735928559;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    low = Math.imul(low ^ c, 16777619);
    high = Math.imul(high ^ c, 16777619);
  }
  return (low >>> 0).toString(16).padStart(8, "0") + (high >>> 0).toString(16).padStart(8, "0");
}

/**
 * An entry is: the tag, the text's byte length (4 bytes, little-endian), the text, V8's data. V8's data when
 * the entry was made from exactly `text`, else undefined.
 */
export function entryData(entry: Buffer | undefined, text: Buffer, tag: Buffer): Buffer | undefined {
  const head = tag.length + 4;
  if (!entry || entry.length < head) return undefined;
  if (!entry.subarray(0, tag.length).equals(tag)) return undefined;
  if (entry.readUInt32LE(tag.length) !== text.length) return undefined;
  if (entry.length < head + text.length) return undefined;
  if (!entry.subarray(head, head + text.length).equals(text)) return undefined;
  return entry.subarray(head + text.length);
}

/** The entry's bytes, built the way `entryData` reads them. */
export function entryBytes(text: Buffer, data: Buffer, tag: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(text.length);
  return Buffer.concat([tag, length, text, data]);
}

export function createCompileCache(fs: typeof Fs, path: typeof Path, vm: typeof Vm): CompileCache {
  const tag = Buffer.from(COMPILE_CACHE_TAG);
  const uid = process.getuid ? process.getuid() : -1;
  const pendingWrites: (() => void)[] = [];
  const dir = cacheDir();

  /** The private cache directory (created when absent), or undefined when it is not safe to use. */
  function cacheDir(): string | undefined {
    try {
      if (uid < 0 || process.env.DEVRITES_NO_COMPILE_CACHE === "1") return undefined;
      const d = path.join(tempDir(process.env), `devrites-compile-cache-${uid}`);
      let stat = fs.lstatSync(d, { throwIfNoEntry: false });
      if (stat === undefined) {
        try {
          fs.mkdirSync(d, { mode: OWNER_ONLY_DIR });
        } catch {}
        stat = fs.lstatSync(d);
      }
      const ours = stat.isDirectory() && stat.uid === uid && (stat.mode & GROUP_OR_OTHER_BITS) === 0;
      return ours ? d : undefined;
    } catch {
      return undefined;
    }
  }

  /** The file's bytes when it is a regular file of ours reached without following a link, else undefined. */
  function readEntry(file: string): Buffer | undefined {
    let fd: number | undefined;
    try {
      fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW || 0));
      const stat = fs.fstatSync(fd);
      return stat.isFile() && stat.uid === uid && stat.size < MAX_ENTRY_BYTES
        ? fs.readFileSync(fd)
        : undefined;
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined)
        try {
          fs.closeSync(fd);
        } catch {}
    }
  }

  /** Write through a private temporary file renamed into place; remove it when anything fails. */
  function writeEntry(file: string, bytes: Buffer): void {
    const temp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(temp, bytes, { mode: OWNER_ONLY_FILE, flag: "wx" });
      fs.renameSync(temp, file);
    } catch {
      try {
        fs.unlinkSync(temp);
      } catch {}
    }
  }

  /** Keep the newest entries; remove temporary files a killed writer left. Only files of ours. */
  function prune(d: string): void {
    try {
      const names = fs.readdirSync(d);
      if (names.length <= COMPILE_CACHE_MAX_ENTRIES) return;
      const entries: [number, string][] = [];
      const now = Date.now();
      for (const name of names) {
        const file = path.join(d, name);
        let stat: Fs.Stats;
        try {
          stat = fs.lstatSync(file);
        } catch {
          continue;
        }
        if (!stat.isFile() || stat.uid !== uid) continue;
        if (name.endsWith(".bin")) entries.push([stat.mtimeMs, file]);
        else if (name.endsWith(".tmp") && now - stat.mtimeMs > STALE_TEMP_MS)
          try {
            fs.unlinkSync(file);
          } catch {}
      }
      entries.sort((a, b) => b[0] - a[0]);
      for (const [, file] of entries.slice(COMPILE_CACHE_MAX_ENTRIES))
        try {
          fs.unlinkSync(file);
        } catch {}
    } catch {}
  }

  function compile(
    text: string,
    params: readonly string[],
    name: string,
    variant?: string,
  ): (...args: unknown[]) => unknown {
    const joined = params.join(",");
    const key = [process.version, process.arch, joined, name, variant || ""].join("\0");
    const file = dir && path.join(dir, `${entryHash(key)}.bin`);
    const bytes = file ? Buffer.from(text) : undefined;
    const cachedData = file && bytes ? entryData(readEntry(file), bytes, tag) : undefined;
    const script = new vm.Script(`(function(${joined}){${text}\n})`, { filename: name, cachedData });
    const fn = script.runInThisContext() as (...args: unknown[]) => unknown;
    if (file && bytes && (cachedData === undefined || script.cachedDataRejected))
      pendingWrites.push(() => writeEntry(file, entryBytes(bytes, script.createCachedData(), tag)));
    return fn;
  }

  function flush(): void {
    const writes = pendingWrites.splice(0);
    for (const write of writes) write();
    if (writes.length > 0 && dir) prune(dir);
  }

  return { compile, flush };
}

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashFileInfo, lengthPrefixed, SYNC_READ_MAX, sha256File, sha256Hex } from "./hash.js";

describe("sha256Hex", () => {
  it("matches the FIPS 180-2 known answers", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe(sha256Hex("abc"));
  });

  it("hashes strings as UTF-8", () => {
    expect(sha256Hex("é")).toBe(sha256Hex(new Uint8Array([0xc3, 0xa9])));
  });
});

describe("lengthPrefixed", () => {
  it("writes an 8-byte big-endian length before every field", () => {
    expect(Array.from(lengthPrefixed(["ab", new Uint8Array([0xff])]))).toEqual([
      0, 0, 0, 0, 0, 0, 0, 2, 0x61, 0x62, 0, 0, 0, 0, 0, 0, 0, 1, 0xff,
    ]);
    expect(Array.from(lengthPrefixed([""]))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(lengthPrefixed([]).length).toBe(0);
  });

  it("counts UTF-8 bytes, not UTF-16 units", () => {
    expect(Array.from(lengthPrefixed(["é"]).subarray(0, 8))).toEqual([0, 0, 0, 0, 0, 0, 0, 2]);
  });

  it("separates what plain concatenation would merge", () => {
    const a = lengthPrefixed(["ab", "c"]);
    const b = lengthPrefixed(["a", "bc"]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    expect(Buffer.from(lengthPrefixed(["", "x"])).equals(Buffer.from(lengthPrefixed(["x", ""])))).toBe(false);
  });

  it("is injective for field lists of the same length (property)", () => {
    const fields = fc.array(fc.string(), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(fields, fields, (x, y) => {
        fc.pre(x.length === y.length);
        const same = Buffer.from(lengthPrefixed(x)).equals(Buffer.from(lengthPrefixed(y)));
        const equalUtf8 = x.every((f, i) => Buffer.from(f).equals(Buffer.from(y[i]!)));
        expect(same).toBe(equalUtf8);
      }),
    );
  });
});

/** Bytes that differ from chunk to chunk, so a misplaced or reused chunk changes the digest. */
function bytes(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + (i >> 16)) & 0xff;
  return b;
}

describe("sha256File", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "devrites-hash-"));
    writeFileSync(join(dir, "empty"), "");
    writeFileSync(join(dir, "abc"), "abc");
    writeFileSync(join(dir, "big"), Buffer.alloc(200_000, 7));
    writeFileSync(join(dir, "edge"), bytes(SYNC_READ_MAX));
    writeFileSync(join(dir, "large"), bytes(SYNC_READ_MAX + 70_001));
    symlinkSync("abc", join(dir, "link"));
    execFileSync("mkfifo", [join(dir, "fifo")]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("streams to the same digest as hashing the bytes", async () => {
    expect(await sha256File(join(dir, "empty"))).toBe(sha256Hex(""));
    expect(await sha256File(join(dir, "abc"))).toBe(sha256Hex("abc"));
    expect(await sha256File(join(dir, "big"))).toBe(sha256Hex(Buffer.alloc(200_000, 7)));
  });

  it("reads files read synchronously (up to SYNC_READ_MAX) and streamed (beyond) to the same digests", async () => {
    const edge = await hashFileInfo(join(dir, "edge"), { noFollow: true });
    expect(edge).toMatchObject({
      sha256: sha256Hex(bytes(SYNC_READ_MAX)),
      size: SYNC_READ_MAX,
      isFile: true,
    });
    const large = await hashFileInfo(join(dir, "large"), { noFollow: true });
    expect(large).toMatchObject({
      sha256: sha256Hex(bytes(SYNC_READ_MAX + 70_001)),
      size: SYNC_READ_MAX + 70_001,
      isFile: true,
    });
    // concurrent streams do not share a buffer
    const both = await Promise.all([hashFileInfo(join(dir, "large")), hashFileInfo(join(dir, "large"))]);
    expect(both.map((i) => i.sha256)).toEqual([large.sha256, large.sha256]);
  });

  it("reports size and mode of what it hashed", async () => {
    const info = await hashFileInfo(join(dir, "big"));
    expect(info).toMatchObject({ size: 200_000, isFile: true });
  });

  it("follows a symlink by default and refuses it with noFollow", async () => {
    expect(await sha256File(join(dir, "link"))).toBe(sha256Hex("abc"));
    await expect(sha256File(join(dir, "link"), { noFollow: true })).rejects.toMatchObject({ code: "ELOOP" });
  });

  it("does not block on a FIFO with noFollow and says it is not a file", async () => {
    const info = await hashFileInfo(join(dir, "fifo"), { noFollow: true });
    expect(info.isFile).toBe(false);
  });

  it("rejects a directory or a FIFO instead of returning a digest", async () => {
    await expect(sha256File(dir)).rejects.toMatchObject({ code: "ENOTFILE" });
    await expect(sha256File(join(dir, "fifo"), { noFollow: true })).rejects.toMatchObject({
      code: "ENOTFILE",
    });
  });

  it("rejects a missing file", async () => {
    await expect(sha256File(join(dir, "nope"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../core/hash.js";
import { baselineId, manifestDigest } from "./digest.js";
import type { ManifestEntry } from "./types.js";

/**
 * Known-answer vectors. They were computed once with an independent Python implementation of the documented
 * format (not with this code):
 *
 *   lp = lambda *fs: b"".join(struct.pack(">Q", len(f)) + f for f in (x.encode() for x in fs))
 *   manifest = sha256(lp("devrites-manifest/v1") + b"".join(lp(path, type, "1" if exec else "0", sha or "")
 *                     for each entry sorted by path.encode()))
 *   id = sha256(lp("devrites-baseline/v1", head, dirty, touched))
 *
 * If one of these fails, the digest algorithm changed: every frozen baseline in the wild becomes stale. Bump
 * the version tags (`devrites-manifest/v2`) and recompute deliberately; never just paste the new value.
 */
const EMPTY_MANIFEST = "28627a762239d4db621cc8330d38fef2edb0f887866beb174b93be1e1e4211ce";
const SMALL_MANIFEST = "d31a65455b7a742363a81ef2d16366537c98d67ef58b08ea9794c3be60dfbc43";
const ID_UNBORN_EMPTY = "9ff2bf058ecad77186dae397847224c1ed18dfda3b4701e4c34875d25aae65d3";
const ID_SMALL = "f47b54010a611b122e811739c633ae897255ebd16fccca49609463a6269c1d5d";
const COMMIT = "0123456789abcdef0123456789abcdef01234567";

const small: ManifestEntry[] = [
  { path: "src/a.ts", type: "file", exec: false, sha256: sha256Hex("a\n") },
  { path: "bin/run", type: "file", exec: true, sha256: sha256Hex("#!/bin/sh\n") },
  { path: "link", type: "symlink", exec: false, sha256: sha256Hex("src/a.ts") },
  { path: "gone.txt", type: "missing", exec: false, sha256: null },
  { path: "vendor/lib", type: "submodule", exec: false, sha256: COMMIT },
  { path: "é.txt", type: "file", exec: false, sha256: sha256Hex("") },
];

describe("manifestDigest known answers", () => {
  it("pins the empty manifest", () => {
    expect(manifestDigest([])).toBe(EMPTY_MANIFEST);
  });

  it("pins a small manifest with every entry type", () => {
    expect(manifestDigest(small)).toBe(SMALL_MANIFEST);
  });

  it("pins baseline ids", () => {
    expect(baselineId("unborn", EMPTY_MANIFEST, EMPTY_MANIFEST)).toBe(ID_UNBORN_EMPTY);
    expect(baselineId(COMMIT, SMALL_MANIFEST, EMPTY_MANIFEST)).toBe(ID_SMALL);
  });
});

describe("manifestDigest properties", () => {
  const entry = fc.record({
    path: fc.string({ minLength: 1, maxLength: 8 }),
    type: fc.constantFrom("file", "symlink", "missing", "submodule") as fc.Arbitrary<ManifestEntry["type"]>,
    exec: fc.boolean(),
    sha256: fc.option(fc.stringMatching(/^[0-9a-f]{64}$/), { nil: null }),
  });

  it("does not depend on entry order", () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), fc.array(fc.nat()), (entries, keys) => {
        const shuffled = entries
          .map((e, i) => ({ e, k: keys[i] ?? i }))
          .sort((a, b) => a.k - b.k)
          .map((x) => x.e);
        expect(manifestDigest(shuffled)).toBe(manifestDigest(entries));
      }),
    );
  });

  it("sorts by UTF-8 bytes, not UTF-16 units (U+1F600 sorts before U+FF5E only in UTF-16)", () => {
    // Known answer from the Python reference above; sorting by UTF-16 would give 5661468c….
    const a: ManifestEntry = { path: "\uff5e", type: "missing", exec: false, sha256: null };
    const b: ManifestEntry = { path: "😀", type: "missing", exec: false, sha256: null };
    expect(manifestDigest([b, a])).toBe("3877e6da40c7cb1cb426229bfac179331973f354463c272b8bd07a8d5f8c66f4");
  });

  it("changes with any field of any entry", () => {
    const base = manifestDigest(small);
    const first = small[0]!;
    const variants: ManifestEntry[] = [
      { ...first, path: "src/b.ts" },
      { ...first, type: "symlink" },
      { ...first, exec: true },
      { ...first, sha256: sha256Hex("b\n") },
      { ...first, sha256: null },
    ];
    for (const v of variants) expect(manifestDigest([v, ...small.slice(1)])).not.toBe(base);
    expect(manifestDigest(small.slice(1))).not.toBe(base);
  });

  it("two manifests that collide under naive concatenation differ (length prefixes)", () => {
    // Naively "ab"+"file"+... vs "a"+"bfile"+...: the same bytes without length prefixes.
    const x: ManifestEntry[] = [{ path: "ab", type: "file", exec: false, sha256: null }];
    const y = [{ path: "a", type: "bfile", exec: false, sha256: null }] as unknown as ManifestEntry[];
    expect(manifestDigest(x)).not.toBe(manifestDigest(y));
    // Entry boundaries: one entry whose hash field absorbs the next path vs two entries.
    const one: ManifestEntry[] = [{ path: "p", type: "missing", exec: false, sha256: null }];
    const two: ManifestEntry[] = [
      { path: "p", type: "missing", exec: false, sha256: null },
      { path: "", type: "missing", exec: false, sha256: null },
    ];
    expect(manifestDigest(one)).not.toBe(manifestDigest(two));
  });

  it("baselineId changes with each of its inputs and is not a plain concatenation", () => {
    const id = baselineId(COMMIT, SMALL_MANIFEST, EMPTY_MANIFEST);
    expect(baselineId("unborn", SMALL_MANIFEST, EMPTY_MANIFEST)).not.toBe(id);
    expect(baselineId(COMMIT, EMPTY_MANIFEST, EMPTY_MANIFEST)).not.toBe(id);
    expect(baselineId(COMMIT, SMALL_MANIFEST, SMALL_MANIFEST)).not.toBe(id);
    expect(baselineId("ab", "c", "d")).not.toBe(baselineId("a", "bc", "d"));
  });
});

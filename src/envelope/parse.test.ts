import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../core/diagnostics.js";
import { samplePacket, sampleResult, sampleSha } from "./fixtures.js";
import {
  decodeUtf8Strict,
  duplicateKey,
  echo,
  formatPath,
  jsonErrorOffset,
  type ParseOutcome,
  parseJsonBytes,
  parseJsonText,
  parsePacket,
  parseResult,
  SUPPORTED_PACKET_VERSIONS,
  SUPPORTED_RESULT_VERSIONS,
} from "./parse.js";
import { PAYLOAD_TYPES } from "./roles.js";

const CODES = [
  "envelope.malformed-json",
  "envelope.not-object",
  "envelope.version",
  "envelope.missing-field",
  "envelope.unknown-field",
  "envelope.schema",
];

function diagnostics<T>(outcome: ParseOutcome<T>): Diagnostic[] {
  if (outcome.ok) throw new Error("expected the parse to fail");
  return outcome.diagnostics;
}

/** The only diagnostic of a failed parse. */
function only<T>(outcome: ParseOutcome<T>): Diagnostic {
  const ds = diagnostics(outcome);
  expect(ds, JSON.stringify(ds, null, 2)).toHaveLength(1);
  return ds[0] as Diagnostic;
}

// biome-ignore lint/suspicious/noExplicitAny: tests poke at arbitrary shapes
type Loose = any;
const packet = (): Loose => samplePacket();
const result = (t: (typeof PAYLOAD_TYPES)[number] = "wright-report"): Loose => sampleResult(t);

describe("parseJsonText", () => {
  it("returns the value of valid JSON, whitespace and all", () => {
    expect(parseJsonText('  {"a": [1, null]}\n')).toEqual({ ok: true, value: { a: [1, null] } });
    expect(parseJsonText("null")).toEqual({ ok: true, value: null });
  });

  it("reports malformed JSON with its line and column, and the file", () => {
    const d = only(parseJsonText('{\n  "a": 1,\n}\n', "runs/x/result.json"));
    expect(d.code).toBe("envelope.malformed-json");
    expect(d.message).toMatch(/^not valid JSON at line 3, column 1: /);
    expect(d.line).toBe(3);
    expect(d.path).toBe("runs/x/result.json");
    expect(d.hint).toMatch(/trailing commas/);
  });

  it("places errors on the right line for CRLF and CR line ends", () => {
    expect(only(parseJsonText('{\r\n"a":\r\n}')).line).toBe(3);
    expect(only(parseJsonText('{\r"a":\r}')).line).toBe(3);
    expect(only(parseJsonText('{"a": 1} x')).message).toMatch(/line 1, column 10/);
  });

  it("says when the input is empty or truncated", () => {
    const empty = only(parseJsonText(""));
    expect(empty.code).toBe("envelope.malformed-json");
    expect(empty.hint).toMatch(/empty/);
    expect(empty.path).toBeUndefined();
    expect("path" in empty).toBe(false);
    const truncated = only(parseJsonText('{"a":\n[1,'));
    expect(truncated.message).toMatch(/line 2, column 4/);
  });

  it("rejects a byte-order mark with its own code, naming the file", () => {
    const d = only(parseJsonText('\uFEFF{"a":1}', "runs/x/result.json"));
    expect(d.code).toBe("envelope.byte-order-mark");
    expect(d.path).toBe("runs/x/result.json");
    expect(d.hint).toMatch(/byte-order mark/);
    // near miss: U+FEFF inside a string value is just a character
    expect(parseJsonText('{"a":"\uFEFF"}')).toEqual({ ok: true, value: { a: "\uFEFF" } });
  });

  it("rejects a key given twice in one object, wherever it is nested and however it is spelled", () => {
    const d = only(parseJsonText('{"a": 1,\n "b": {"c": [ {"k": 1, "k": 2} ]}}', "f.json"));
    expect(d.code).toBe("envelope.duplicate-key");
    expect(d.path).toBe("f.json");
    expect(d.line).toBe(2);
    expect(d.message).toMatch(/^at b\.c\[0\]: the key "k" appears twice/);
    expect(only(parseJsonText('{"status":"failed","status":"complete"}')).code).toBe(
      "envelope.duplicate-key",
    );
    expect(only(parseJsonText('{"a":1,"\\u0061":2}')).message).toMatch(/"a" appears twice/);
    expect(only(parseJsonText('[{}, {"x": [1, "}"], "x": 0}]')).message).toMatch(/^at \[1\]:/);
    // near misses: the same key in sibling or nested objects, a key-like string value, escaped quotes
    expect(parseJsonText('{"a":{"a":1},"b":[{"a":1},{"a":2}],"c":"\\"a\\": 1, \\"a\\""}').ok).toBe(true);
    expect(parseJsonText('{"a\\\\":1,"a":2}').ok).toBe(true);
  });

  it("scans nesting deeper than a recursive scanner could", () => {
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    expect(duplicateKey(deep)).toBeUndefined();
    const dup = `${'{"a":'.repeat(5000)}{"z":1,"z":2}${"}".repeat(5000)}`;
    expect(duplicateKey(dup)?.path).toHaveLength(5000);
  });

  it("agrees with a reference: a key is duplicated exactly when a parse that keeps every key sees it twice", () => {
    const keys = fc.constantFrom("a", "b", "\u0061", "a\\\\", "");
    const obj = fc.array(fc.tuple(keys, fc.constantFrom("1", '"}"', "[]", '{"a":1,"b":2}')), {
      maxLength: 4,
    });
    fc.assert(
      fc.property(obj, (pairs) => {
        const text = `{${pairs.map(([k, v]) => `"${k}":${v}`).join(",")}}`;
        const decoded = pairs.map(([k]) => JSON.parse(`"${k}"`) as string);
        const expected = new Set(decoded).size !== decoded.length;
        expect(parseJsonText(text).ok).toBe(!expected);
      }),
    );
  });

  it("rejects text that is not well-formed Unicode (a lone surrogate)", () => {
    const d = only(parseJsonText('{"a":"x\uD800"}', "f.json"));
    expect(d.code).toBe("envelope.invalid-encoding");
    expect(d.message).toMatch(/line 1, column 8/);
    // near miss: a surrogate pair, and the escape sequence spelled out in JSON (ASCII text) are fine
    expect(parseJsonText('{"a":"\uD83D\uDE00"}').ok).toBe(true);
    expect(parseJsonText('{"a":"\\ud800"}').ok).toBe(true);
  });

  it("locates every syntax error JSON.parse reports, independently of the engine's wording", () => {
    const texts = fc.oneof(
      fc.string(),
      fc.json(),
      fc.json().map((j) => j.slice(0, -1)),
      fc
        .tuple(fc.json(), fc.nat(), fc.constantFrom(",", "}", "]", ":", '"', "\\", "x", "\n"))
        .map(([j, n, c]) => j.slice(0, n % (j.length + 1)) + c + j.slice(n % (j.length + 1))),
    );
    fc.assert(
      fc.property(texts, (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        const offset = jsonErrorOffset(text);
        if (valid) expect(offset).toBeUndefined();
        else {
          expect(offset).toBeGreaterThanOrEqual(0);
          expect(offset).toBeLessThanOrEqual(text.length);
          expect(only(parseJsonText(text)).line).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 500 },
    );
    expect(jsonErrorOffset('{"a": }')).toBe(6);
    expect(jsonErrorOffset('{"a": "\\q"}')).toBe(8);
    expect(jsonErrorOffset("[1,]")).toBe(3);
    expect(jsonErrorOffset("01")).toBe(1);
    expect(jsonErrorOffset("")).toBe(0);
    expect(only(parseJsonText('{"a": }')).message).toBe(
      "not valid JSON at line 1, column 7: Unexpected token '}'",
    );
  });

  it("never throws, and accepts exactly what JSON.parse accepts", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.string({ unit: "binary" })), (text) => {
        let expected = true;
        try {
          JSON.parse(text);
        } catch {
          expected = false;
        }
        const outcome = parseJsonText(text, "f.json");
        // The strict reader's own refusals, each with its code; otherwise exactly JSON.parse.
        const strict =
          text.startsWith("\uFEFF") ||
          /[\uD800-\uDFFF]/.test(text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ""))
            ? "strict"
            : expected && duplicateKey(text) !== undefined
              ? "envelope.duplicate-key"
              : undefined;
        if (strict === undefined) expect(outcome.ok).toBe(expected);
        if (!outcome.ok && strict === undefined) {
          expect(outcome.diagnostics.map((d) => d.code)).toEqual(["envelope.malformed-json"]);
        }
        if (strict !== undefined) expect(outcome.ok).toBe(false);
      }),
    );
  });
});

describe("decodeUtf8Strict / parseJsonBytes", () => {
  const bytes = (...b: number[]) => Uint8Array.from(b);
  it("decodes UTF-8 to text that re-encodes to the same bytes", () => {
    const b = Buffer.from('{"a":"é ☃ 😀 \uFFFD"}', "utf8");
    const d = decodeUtf8Strict(b, "f.json");
    expect(d.ok && Buffer.from(d.value, "utf8").equals(b)).toBe(true);
    expect(parseJsonBytes(b)).toEqual({ ok: true, value: { a: "é ☃ 😀 \uFFFD" } });
  });

  it("refuses invalid UTF-8 with the byte offset, never replacing it", () => {
    for (const [b, at] of [
      [bytes(0x7b, 0x22, 0x61, 0xff, 0x22, 0x7d), 3],
      [bytes(0x22, 0xc3), 1], // truncated sequence
      [bytes(0x22, 0xed, 0xa0, 0x80, 0x22), 1], // an encoded surrogate
      [bytes(0x22, 0xc0, 0xaf, 0x22), 1], // overlong
      [Buffer.concat([Buffer.from('"\uFFFD', "utf8"), bytes(0x80), Buffer.from('"')]), 4],
    ] as const) {
      const d = only(decodeUtf8Strict(b, "f.json"));
      expect(d.code).toBe("envelope.invalid-encoding");
      expect(d.path).toBe("f.json");
      expect(d.message).toContain(`at byte ${at}`);
    }
  });

  it("the fast path (isUtf8) and the fatal TextDecoder agree on every byte string", () => {
    const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (b) => {
        let reference = true;
        try {
          fatal.decode(b);
        } catch {
          reference = false;
        }
        const bom = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
        const d = decodeUtf8Strict(b);
        expect(d.ok).toBe(reference && !bom);
        if (d.ok) expect(Buffer.from(d.value, "utf8").equals(Buffer.from(b))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses a UTF-8 byte-order mark with its own code", () => {
    expect(only(parseJsonBytes(bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d), "f.json")).code).toBe(
      "envelope.byte-order-mark",
    );
    expect(parseJsonBytes(bytes(0x7b, 0x7d))).toEqual({ ok: true, value: {} });
  });
});

describe("parsePacket / parseResult: valid envelopes", () => {
  it("accept the samples and return a fresh, equal value", () => {
    const p = samplePacket();
    const parsed = parsePacket(p, "packet.json");
    expect(parsed).toEqual({ ok: true, value: p });
    expect(parsed.ok && parsed.value).not.toBe(p);
    for (const t of PAYLOAD_TYPES)
      expect(parseResult(sampleResult(t))).toEqual({ ok: true, value: sampleResult(t) });
  });

  it("accept a packet without the optional expiry", () => {
    const p = packet();
    delete p.expires_at;
    expect(parsePacket(p).ok).toBe(true);
  });

  it("accept a result that leaves out what is empty (gates, decisions, escalation, side effects) and the echoed ceilings", () => {
    const full = sampleResult("wright-report");
    full.gates = [];
    full.decisions_stood = [];
    full.escalation = null;
    full.side_effects.scratch_writes = [];
    const short = JSON.parse(JSON.stringify(full)) as Record<string, unknown> & typeof full;
    for (const k of ["gates", "decisions_stood", "escalation"]) delete short[k];
    delete (short.side_effects as Partial<typeof full.side_effects>).scratch_writes;
    short.budget = { files_used: full.budget.files_used, loaded_lines_used: full.budget.loaded_lines_used };
    const a = parseResult(short);
    const b = parseResult(short);
    // absent reads as empty, and each parse gets its own arrays
    expect(a).toEqual({ ok: true, value: { ...full, budget: short.budget } });
    expect(a.ok && b.ok && a.value.gates).not.toBe(b.ok && b.value.gates);
  });

  it("accept a read-only result with no side_effects at all, each parse with its own empty lists", () => {
    const readOnly = sampleResult("evidence-dossier") as unknown as Record<string, unknown>;
    readOnly.side_effects = undefined;
    const parsed = parseResult(JSON.parse(JSON.stringify(readOnly)));
    expect(parsed.ok && parsed.value.side_effects).toEqual({ repo_writes: [], scratch_writes: [] });
    const again = parseResult(JSON.parse(JSON.stringify(readOnly)));
    expect(again.ok && again.value.side_effects.repo_writes).not.toBe(
      parsed.ok && parsed.value.side_effects.repo_writes,
    );
  });

  it("near miss: a null where a list may be left out is still a wrong type", () => {
    const r = sampleResult("wright-report") as unknown as Record<string, unknown>;
    r.gates = null;
    expect(parseResult(r).ok).toBe(false);
  });

  it("export the supported versions", () => {
    expect(SUPPORTED_PACKET_VERSIONS).toEqual(["agent-packet/v1"]);
    expect(SUPPORTED_RESULT_VERSIONS).toEqual(["agent-result/v1"]);
  });
});

describe("envelope.not-object", () => {
  it("rejects every non-object JSON value", () => {
    for (const input of [null, [], [samplePacket()], "agent-packet/v1", 0, true]) {
      const d = only(parsePacket(input, "p.json"));
      expect(d.code).toBe("envelope.not-object");
      expect(d.message).toMatch(
        /^at \(root\): expected a JSON object \(the agent-packet\/v1 envelope\), got /,
      );
      expect(d.path).toBe("p.json");
      expect(only(parseResult(input)).code).toBe("envelope.not-object");
    }
    expect(only(parsePacket([1, 2])).message).toMatch(/got an array of 2 items$/);
  });

  it("near miss: an empty object is an object, with every field missing", () => {
    const ds = diagnostics(parsePacket({}));
    expect(ds.every((d) => d.code === "envelope.missing-field")).toBe(true);
    expect(ds).toHaveLength(16);
  });
});

describe("envelope.version", () => {
  it("rejects an unsupported version with one diagnostic that names the supported ones, checking nothing else", () => {
    const p = packet();
    p.packet_version = "agent-packet/v2";
    p.run_id = "nonsense";
    p.extra = 1;
    const d = only(parsePacket(p, "p.json"));
    expect(d.code).toBe("envelope.version");
    expect(d.message).toBe(
      'at packet_version: expected a supported version ("agent-packet/v1"), got "agent-packet/v2"',
    );
    expect(d.path).toBe("p.json");
    expect(d.hint).toBeDefined();

    const r = result();
    r.result_version = 1;
    const rd = only(parseResult(r));
    expect(rd.code).toBe("envelope.version");
    expect(rd.message).toMatch(/"agent-result\/v1".*got 1$/);
  });

  it("near miss: a missing version is a missing field, not a version problem", () => {
    const p = packet();
    delete p.packet_version;
    const d = only(parsePacket(p));
    expect(d.code).toBe("envelope.missing-field");
    expect(d.message).toMatch(/^at packet_version: /);
  });

  it("near miss: the right version with a broken field reports the field, not the version", () => {
    const p = packet();
    p.attempt = 0;
    expect(only(parsePacket(p)).code).toBe("envelope.schema");
  });

  it("recognises a result handed to the packet parser (and the reverse)", () => {
    const ds = diagnostics(parsePacket(sampleResult("plan-candidate")));
    const version = ds.find((d) => d.message.startsWith("at packet_version:"));
    expect(version?.code).toBe("envelope.missing-field");
    expect(version?.hint).toMatch(/looks like an agent-result\/v1 document/);
    const back = diagnostics(parseResult(samplePacket())).find((d) =>
      d.message.startsWith("at result_version:"),
    );
    expect(back?.hint).toMatch(/looks like an agent-packet\/v1 document/);
  });
});

describe("envelope.missing-field", () => {
  it("reports a missing top-level field with its name and what it should hold", () => {
    const p = packet();
    delete p.run_id;
    const d = only(parsePacket(p, "p.json"));
    expect(d).toMatchObject({
      code: "envelope.missing-field",
      severity: "error",
      message: "at run_id: expected a string (required field), got nothing",
      path: "p.json",
      hint: 'add the field "run_id"',
    });
  });

  it("reports nested and array-element fields by their full path", () => {
    const p = packet();
    delete p.baseline.head;
    delete p.inputs[1].purpose;
    const ds = diagnostics(parsePacket(p));
    expect(ds.map((d) => [d.code, d.message.split(":")[0]])).toEqual([
      ["envelope.missing-field", "at baseline.head"],
      ["envelope.missing-field", "at inputs[1].purpose"],
    ]);
  });

  it("treats a missing constant, enum or union tag as missing, not as a wrong value", () => {
    const p = packet();
    delete p.result_schema;
    delete p.phase;
    const ds = diagnostics(parsePacket(p));
    expect(ds.map((d) => d.code)).toEqual(["envelope.missing-field", "envelope.missing-field"]);
    expect(ds[0]?.message).toBe(
      'at phase: expected one of "spec", "plan", "build", "prove", "review", "ship", "quick" (required field), got nothing',
    );
    const r = result();
    delete r.payload.type;
    const d = only(parseResult(r));
    expect(d.code).toBe("envelope.missing-field");
    expect(d.message).toMatch(/^at payload\.type: expected one of "evidence-dossier", /);
    const w = result();
    delete w.side_effects.repo_writes[0].op;
    expect(only(parseResult(w)).message).toMatch(/^at side_effects\.repo_writes\[0\]\.op: /);
  });

  it("near miss: a null where an object is required is a wrong type, not a missing field", () => {
    const p = packet();
    p.baseline = null;
    const d = only(parsePacket(p));
    expect(d.code).toBe("envelope.schema");
    expect(d.message).toBe("at baseline: expected an object, got null");
  });
});

describe("envelope.unknown-field", () => {
  it("reports an unknown field at the root and at depth, one diagnostic each, with the value echoed", () => {
    const r = result("evidence-dossier");
    r.notes = "hi";
    r.payload.content.findings[0].evidence[0].weight = 3;
    r.side_effects.repo_writes = [{ path: "a", op: "delete", sha256_after: null, mode: "100644" }];
    const ds = diagnostics(parseResult(r, "r.json"));
    expect(ds.map((d) => [d.code, d.message])).toEqual([
      ["envelope.unknown-field", 'at side_effects.repo_writes[0].mode: unknown field, got "100644"'],
      ["envelope.unknown-field", "at payload.content.findings[0].evidence[0].weight: unknown field, got 3"],
      ["envelope.unknown-field", 'at notes: unknown field, got "hi"'],
    ]);
    expect(ds.every((d) => d.path === "r.json" && /closed/.test(d.hint ?? ""))).toBe(true);
  });

  it("splits several unknown fields of one object into one diagnostic each", () => {
    const p = packet();
    p.scope.a = 1;
    p.scope.b = [];
    expect(diagnostics(parsePacket(p)).map((d) => d.message)).toEqual([
      "at scope.a: unknown field, got 1",
      "at scope.b: unknown field, got an array of 0 items",
    ]);
  });

  it("points a misspelt field at the one it was meant to be, both ways", () => {
    const p = packet();
    p["run-id"] = p.run_id;
    delete p.run_id;
    p.budgets.Max_Files = p.budgets.max_files;
    delete p.budgets.max_files;
    const ds = diagnostics(parsePacket(p));
    const hint = (prefix: string) => ds.find((d) => d.message.startsWith(prefix))?.hint;
    expect(hint("at run_id:")).toBe('found "run-id"; rename it to "run_id"');
    expect(hint("at run-id:")).toBe('did you mean "run_id"?');
    expect(hint("at budgets.Max_Files:")).toBe('did you mean "max_files"?');
    // Near miss: a similar name under a different parent is not offered.
    const q = packet();
    delete q.run_id;
    q.scope.run_id = "x";
    expect(diagnostics(parsePacket(q)).find((d) => d.message.startsWith("at run_id:"))?.hint).toBe(
      'add the field "run_id"',
    );
  });

  it("quotes keys that are not plain names", () => {
    const p = packet();
    Object.defineProperty(p, "a b", { value: 1, enumerable: true });
    Object.defineProperty(p, "__proto__", { value: 2, enumerable: true });
    expect(diagnostics(parsePacket(p)).map((d) => d.message)).toEqual([
      'at ["a b"]: unknown field, got 1',
      "at __proto__: unknown field, got 2",
    ]);
  });
});

describe("envelope.schema", () => {
  it("reports a bad pattern with the expected form and the value", () => {
    const p = packet();
    p.run_id = "run-2026";
    const d = only(parsePacket(p));
    expect(d.code).toBe("envelope.schema");
    expect(d.message).toBe('at run_id: expected a run id like run-20261129T221500Z-1a2b3c4d, got "run-2026"');
  });

  it("says which rule a repository path breaks", () => {
    const cases: [string, RegExp][] = [
      ["../etc/passwd", /it has a `\.\.` segment$/],
      ["a/./b", /it has a `\.` segment$/],
      ["/etc/passwd", /it is absolute/],
      ["a//b", /empty segment/],
      ["a\\b", /backslash/],
      ["src/", /ends with \//],
      ["a\u0000b", /NUL/],
    ];
    for (const [value, rule] of cases) {
      const p = packet();
      p.scope.allowed_repo_writes[0] = value;
      const d = only(parsePacket(p));
      expect(d.code).toBe("envelope.schema");
      expect(d.message).toMatch(/^at scope\.allowed_repo_writes\[0\]: expected a repository-relative path/);
      expect(d.message).toMatch(rule);
    }
    // An empty path fails on its length first.
    const p = packet();
    p.result_path = "";
    expect(only(parsePacket(p)).message).toBe('at result_path: expected at least 1 character, got ""');
  });

  it("reports integers out of range once, with the schema's own bound", () => {
    const p = packet();
    p.attempt = 1e20;
    expect(only(parsePacket(p)).message).toBe("at attempt: expected at most 3, got 100000000000000000000");
    p.attempt = 0;
    expect(only(parsePacket(p)).message).toBe("at attempt: expected at least 1, got 0");
    p.attempt = 1.5;
    expect(only(parsePacket(p)).message).toBe("at attempt: expected an integer, got 1.5");
    p.attempt = "2";
    expect(only(parsePacket(p)).message).toBe('at attempt: expected an integer, got "2"');
  });

  it("reports wrong constants and enum values with the allowed ones", () => {
    const p = packet();
    p.result_schema = "agent-result/v2";
    expect(only(parsePacket(p)).message).toBe(
      'at result_schema: expected the constant "agent-result/v1", got "agent-result/v2"',
    );
    const r = result();
    r.status = "done";
    expect(only(parseResult(r)).message).toBe(
      'at status: expected one of "complete", "partial", "blocked", "cannot_verify", "failed", got "done"',
    );
    r.status = "complete";
    r.payload.type = "summary";
    expect(only(parseResult(r)).message).toMatch(
      /^at payload\.type: expected one of "evidence-dossier", .*got "summary"$/,
    );
  });

  it("ties sha256_after to op and explains the rule", () => {
    const r = result();
    r.side_effects.repo_writes[2].sha256_after = sampleSha(9); // op: delete
    r.side_effects.repo_writes[0].sha256_after = null; // op: modify
    const ds = diagnostics(parseResult(r));
    expect(ds.map((d) => d.message)).toEqual([
      "at side_effects.repo_writes[0].sha256_after: expected a string, got null",
      'at side_effects.repo_writes[2].sha256_after: expected null, got "000000000000000000000000000000000000000…"',
    ]);
    expect(
      ds.every((d) => d.code === "envelope.schema" && /null exactly when op is delete/.test(d.hint ?? "")),
    ).toBe(true);
  });

  it("counts string length in code points", () => {
    const p = packet();
    p.objective = "😀".repeat(4000);
    expect(parsePacket(p).ok).toBe(true);
    p.objective = "😀".repeat(4001);
    expect(only(parsePacket(p)).message).toMatch(
      /^at objective: expected at most 4000 characters, got "😀{39}…"$/u,
    );
  });

  it("catches errors inside payloads of every type", () => {
    const broken: Record<(typeof PAYLOAD_TYPES)[number], (r: Loose) => void> = {
      "evidence-dossier": (r) => {
        r.payload.content.findings[0].confidence = "certain";
      },
      "plan-candidate": (r) => {
        r.payload.content.slices[0].id = "Tolerant Parser";
      },
      "proof-report": (r) => {
        r.payload.content.checks[0].exit_code = 0.5;
      },
      "review-findings": (r) => {
        r.payload.content.findings[0].line = 0;
      },
      "wright-report": (r) => {
        r.payload.content.tests_added = ["../outside.test.ts"];
      },
    };
    for (const t of PAYLOAD_TYPES) {
      const r = result(t);
      broken[t](r);
      const d = only(parseResult(r));
      expect(d.code, t).toBe("envelope.schema");
      expect(d.message, t).toMatch(/^at payload\.content\./);
    }
  });
});

describe("diagnostics: order, paths, echoes", () => {
  it("are deterministic and follow the schema's field order, unknown fields last", () => {
    const p = packet();
    p.zz = 1;
    p.created_at = "yesterday";
    p.run_id = 1;
    p.scope.in = ["/abs"];
    const first = diagnostics(parsePacket(p));
    expect(diagnostics(parsePacket(structuredClone(p)))).toEqual(first);
    expect(first.map((d) => d.message.split(":")[0])).toEqual([
      "at run_id",
      "at scope.in[0]",
      "at created_at",
      "at zz",
    ]);
  });

  it("omit the path property entirely when no file path is given", () => {
    const p = packet();
    p.extra = 1;
    expect("path" in only(parsePacket(p))).toBe(false);
  });

  it("format paths and echo values briefly", () => {
    expect(formatPath([])).toBe("(root)");
    expect(formatPath(["payload", "content", "findings", 0, "claim"])).toBe(
      "payload.content.findings[0].claim",
    );
    expect(formatPath(["a.b", "c d", 2])).toBe('["a.b"]["c d"][2]');
    expect(echo(undefined)).toBe("nothing");
    expect(echo(null)).toBe("null");
    expect(echo("x".repeat(100))).toBe(`"${"x".repeat(39)}…"`);
    expect(echo("line\nbreak")).toBe('"line\\nbreak"');
    expect(echo({ a: 1 })).toBe("an object");
    expect(echo([1])).toBe("an array of 1 item");
    expect(echo(10n)).toBe("10n");
    expect(echo(Symbol("s"))).toBe("a symbol");
  });
});

describe("never throws", () => {
  const weird = fc.anything({
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
    withUnicodeString: true,
  });

  it("on any value, and every failure carries known codes", () => {
    fc.assert(
      fc.property(weird, fc.option(fc.string(), { nil: undefined }), (input, path) => {
        for (const outcome of [parsePacket(input, path), parseResult(input, path)]) {
          if (outcome.ok) continue;
          expect(outcome.diagnostics.length).toBeGreaterThan(0);
          for (const d of outcome.diagnostics) {
            expect(CODES).toContain(d.code);
            expect(d.severity).toBe("error");
            expect(d.path).toBe(path);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("on near-valid envelopes with random parts replaced", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PAYLOAD_TYPES),
        fc.constantFrom("run_id", "baseline", "payload", "side_effects", "budget", "gates", "escalation"),
        weird,
        (t, key, value) => {
          const r = result(t);
          r[key] = value;
          const outcome = parseResult(r);
          if (!outcome.ok) expect(outcome.diagnostics.every((d) => CODES.includes(d.code))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("fails closed when reading the input itself throws", () => {
    const p = packet();
    Object.defineProperty(p, "run_id", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const d = only(parsePacket(p, "p.json"));
    expect(d.code).toBe("envelope.schema");
    expect(d.message).toMatch(/could not be checked: boom/);
    expect(d.path).toBe("p.json");
  });
});

describe("duplicateKey on large objects", () => {
  it("stays linear on an object with many keys, and finds a duplicate among them", () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `"k${i}":${i}`);
    const t = performance.now();
    expect(duplicateKey(`{${keys.join(",")}}`)).toBeUndefined();
    expect(duplicateKey(`{${keys.join(",")},"k17":0}`)?.key).toBe("k17");
    expect(performance.now() - t).toBeLessThan(2000);
  });
});

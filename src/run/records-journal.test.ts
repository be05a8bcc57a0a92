import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../core/hash.js";
import { gitAnchorHome, recordsPath } from "./anchor-home.js";
import {
  appendRecord,
  JOURNALED_RECORDS,
  type JournaledRecord,
  judgeRecords,
  MAX_JOURNAL_BYTES,
  openRecordsJournal,
  readRecordsJournal,
  recordDigests,
  withRecordsLock,
  writeStateJournaled,
} from "./records-journal.js";
import { emptyState, readState, workspacePaths } from "./workspace.js";

const [STATE, QUESTIONS, DECISIONS] = JOURNALED_RECORDS;
const d = (s: string) => sha256Hex(s);
const line = (o: object) => `${JSON.stringify(o)}\n`;
const opening = (to: Partial<Record<JournaledRecord, string | null>> = {}) =>
  JOURNALED_RECORDS.map((file) => line({ file, to: to[file] ?? null })).join("");
const none = (): Record<JournaledRecord, string | null> => ({
  [STATE]: null,
  [QUESTIONS]: null,
  [DECISIONS]: null,
});

describe("judgeRecords: what a run's journal vouches for", () => {
  it("accepts records exactly as opened", () => {
    expect(judgeRecords(opening({ [STATE]: d("s0") }), { ...none(), [STATE]: d("s0") })).toEqual([]);
  });

  it("accepts a record left where the CLI's last journaled write put it", () => {
    const text = opening({ [STATE]: d("s0") }) + line({ file: STATE, from: d("s0"), to: d("s1") });
    expect(judgeRecords(text, { ...none(), [STATE]: d("s1") })).toEqual([]);
  });

  it("accepts two writers that both started from the same content (a race between two CLI commands)", () => {
    const text =
      opening({ [STATE]: d("s0") }) +
      line({ file: STATE, from: d("s0"), to: d("a") }) +
      line({ file: STATE, from: d("s0"), to: d("b") });
    expect(judgeRecords(text, { ...none(), [STATE]: d("b") })).toEqual([]);
  });

  it("rejects a record changed after the last journaled write, naming the file", () => {
    const found = judgeRecords(opening(), { ...none(), [DECISIONS]: d("forged") });
    expect(found).toEqual([
      { kind: "tampered", file: DECISIONS, message: expect.stringContaining(DECISIONS) },
    ]);
  });

  it("rejects a forgery that an honest write of the CLI carried on (the step starts where the CLI never was)", () => {
    const text =
      opening({ [QUESTIONS]: d("q0") }) + line({ file: QUESTIONS, from: d("q0+forged"), to: d("q1") });
    const found = judgeRecords(text, { ...none(), [QUESTIONS]: d("q1") });
    expect(found.map((f) => f.kind === "tampered" && f.file)).toEqual([QUESTIONS]);
    expect(found[0]!.message).toContain("journal line 4");
  });

  it("rejects a record deleted when the journal has it present", () => {
    expect(judgeRecords(opening({ [STATE]: d("s0") }), none()).map((f) => f.kind)).toEqual(["tampered"]);
  });

  it("does not see a record put back to content the CLI wrote earlier in the run (documented)", () => {
    const text = opening({ [STATE]: d("s0") }) + line({ file: STATE, from: d("s0"), to: d("s1") });
    expect(judgeRecords(text, { ...none(), [STATE]: d("s0") })).toEqual([]);
  });

  it.each([
    ["a line that is not JSON", `${opening()}{not json\n`, 4],
    ["an extra key", opening() + line({ file: STATE, from: null, to: null, by: "leaf" }), 4],
    ["a digest that is not SHA-256 hex", opening() + line({ file: STATE, from: null, to: "abc" }), 4],
    [
      "a file that is not journaled",
      opening() + line({ file: ".devrites/plan.md", from: null, to: null }),
      4,
    ],
    ["a step among the opening lines", line({ file: STATE, from: null, to: null }) + opening().slice(0), 1],
    ["an opening line after them", opening() + line({ file: STATE, to: null }), 4],
    [
      "a record opened twice",
      [
        line({ file: STATE, to: null }),
        line({ file: STATE, to: null }),
        line({ file: DECISIONS, to: null }),
      ].join(""),
      2,
    ],
    ["an empty journal", "", 0],
  ])("rejects %s as an invalid journal, at its line", (_name, text, at) => {
    const found = judgeRecords(text, none());
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((f) => f.kind === "journal-invalid")).toBe(true);
    expect(found[0]).toMatchObject({ line: at });
  });

  it("property: honest histories are accepted, and any change the CLI did not journal is rejected", () => {
    const content = fc.string({ minLength: 1, maxLength: 4 });
    const write = fc.record({ file: fc.constantFrom(...JOURNALED_RECORDS), content });
    fc.assert(
      fc.property(fc.array(write, { maxLength: 12 }), fc.nat(), content, (writes, at, forged) => {
        const now = none();
        let text = opening();
        const honest: string[] = [];
        for (const w of writes) {
          const to = d(w.content);
          honest.push(line({ file: w.file, from: now[w.file], to }));
          now[w.file] = to;
        }
        text += honest.join("");
        expect(judgeRecords(text, now)).toEqual([]);
        // a leaf's write: content the CLI never wrote for that file during the run
        const file = JOURNALED_RECORDS[at % JOURNALED_RECORDS.length]!;
        const wrote = new Set([null, ...writes.filter((w) => w.file === file).map((w) => d(w.content))]);
        const forgedDigest = d(`forged:${forged}`);
        fc.pre(!wrote.has(forgedDigest));
        expect(judgeRecords(text, { ...now, [file]: forgedDigest }).map((f) => f.kind)).toContain("tampered");
      }),
    );
  });
});

describe("the journaled writers", () => {
  const made: string[] = [];
  afterEach(() => {
    for (const p of made.splice(0)) rmSync(p, { recursive: true, force: true });
  });

  /** A workspace with a `.git` folder and one run whose journal is open. */
  function workspace(runId = "r-20261204-0001") {
    const root = mkdtempSync(join(tmpdir(), "devrites-records-"));
    made.push(root);
    mkdirSync(join(root, ".git"));
    mkdirSync(join(root, ".devrites"));
    const home = gitAnchorHome(join(root, ".git"));
    mkdirSync(home.dir, { recursive: true });
    writeFileSync(join(home.dir, `${runId}.json`), "{}\n");
    openRecordsJournal(home, runId, root);
    const journal = () => readFileSync(recordsPath(home, runId), "utf8");
    const active = {
      run_id: runId,
      role: "devrites-slice-wright",
      step_id: "s#1",
      packet_path: "p",
      created_at: "t",
    };
    return { root, home, journal, active };
  }

  /** The state's digest as a command would have parsed it before writing. */
  const parsed = (root: string) => {
    const r = readState(root, "t");
    if (!r.ok) throw new Error("state unreadable");
    return r.sha256;
  };
  const active = (w: ReturnType<typeof workspace>) => ({
    ...emptyState("t"),
    active_runs: [w.active] as never,
  });

  it("a state write is journaled for the runs it leaves active, and the result judges clean", () => {
    const w = workspace();
    writeStateJournaled(w.root, active(w), parsed(w.root));
    writeStateJournaled(w.root, { ...active(w), updated_at: "t2" }, parsed(w.root));
    expect(w.journal().trim().split("\n")).toHaveLength(5);
    expect(judgeRecords(w.journal(), recordDigests(w.root))).toEqual([]);
  });

  it("a state write that retires the run leaves its journal alone (the run is past its check)", () => {
    const w = workspace();
    writeStateJournaled(w.root, emptyState("t"), parsed(w.root));
    expect(w.journal().trim().split("\n")).toHaveLength(3);
    expect(judgeRecords(w.journal(), recordDigests(w.root)).map((f) => f.kind)).toEqual(["tampered"]);
  });

  it("a state write derived from a forged state is caught: its `from` is what the command parsed", () => {
    const w = workspace();
    writeStateJournaled(w.root, active(w), parsed(w.root));
    writeFileSync(
      join(w.root, workspacePaths.state),
      JSON.stringify({ ...active(w), active_rite: "rite-ship" }),
    );
    const forged = parsed(w.root);
    writeStateJournaled(w.root, { ...active(w), active_rite: "rite-ship", updated_at: "t3" }, forged);
    const found = judgeRecords(w.journal(), recordDigests(w.root));
    expect(found).toEqual([expect.objectContaining({ kind: "tampered", file: workspacePaths.state })]);
  });

  it("a question or decision line is journaled for every active run; a line appended by hand is not", () => {
    const w = workspace();
    writeStateJournaled(w.root, active(w), parsed(w.root));
    appendRecord(w.root, workspacePaths.decisions, () => ({ id: "d-1" }));
    expect(judgeRecords(w.journal(), recordDigests(w.root))).toEqual([]);
    writeFileSync(join(w.root, workspacePaths.decisions), line({ id: "d-forged" }), { flag: "a" });
    appendRecord(w.root, workspacePaths.decisions, () => ({ id: "d-2" }));
    const found = judgeRecords(w.journal(), recordDigests(w.root));
    expect(found).toEqual([expect.objectContaining({ kind: "tampered", file: workspacePaths.decisions })]);
  });

  it("appends build from the bytes they append to; nothing is written when the builder declines", () => {
    const w = workspace();
    writeStateJournaled(w.root, active(w), parsed(w.root));
    appendRecord(w.root, workspacePaths.questions, () => ({ n: 1 }));
    const seen: string[] = [];
    expect(appendRecord(w.root, workspacePaths.questions, (text) => void seen.push(text))).toBeUndefined();
    expect(seen).toEqual([line({ n: 1 })]);
    expect(readFileSync(join(w.root, workspacePaths.questions), "utf8")).toBe(line({ n: 1 }));
    expect(judgeRecords(w.journal(), recordDigests(w.root))).toEqual([]);
  });

  it("appends one after another chain in the journal (concurrent commands: the tree-attack control)", () => {
    const w = workspace();
    writeStateJournaled(w.root, active(w), parsed(w.root));
    for (let i = 0; i < 8; i++) appendRecord(w.root, workspacePaths.questions, () => ({ i }));
    expect(w.journal().trim().split("\n")).toHaveLength(4 + 8);
    expect(judgeRecords(w.journal(), recordDigests(w.root))).toEqual([]);
  });

  it.each([
    ["a symlink", (abs: string) => symlinkSync(join(tmpdir(), "elsewhere"), abs)],
    ["a FIFO", (abs: string) => execFileSync("mkfifo", [abs])],
  ])("a record that is %s is refused at once, and judges as changed", (_name, plant) => {
    const w = workspace();
    writeStateJournaled(w.root, active(w), parsed(w.root));
    plant(join(w.root, workspacePaths.decisions));
    expect(() => appendRecord(w.root, workspacePaths.decisions, () => ({ id: "d-1" }))).toThrow(
      /symlink|regular file/,
    );
    const found = judgeRecords(w.journal(), recordDigests(w.root));
    expect(found).toEqual([expect.objectContaining({ kind: "tampered", file: workspacePaths.decisions })]);
  });

  it("the records lock: a lock left behind by a crash is taken over; a held one makes the command wait", () => {
    const w = workspace();
    const lock = join(w.root, workspacePaths.recordsLock);
    writeFileSync(lock, "");
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect(withRecordsLock(w.root, () => "ran")).toBe("ran");
    expect(existsSync(lock)).toBe(false);
  });

  it("reads a journal strictly: missing, too large, not UTF-8, and a byte-order mark that judges invalid", () => {
    const w = workspace();
    const path = recordsPath(w.home, w.active.run_id);
    expect(readRecordsJournal(w.home, w.active.run_id)).toMatchObject({ ok: true });
    expect(readRecordsJournal(w.home, "r-20261204-0002")).toMatchObject({ ok: false, missing: true });
    writeFileSync(path, Buffer.from([0x7b, 0xff, 0x7d, 0x0a]));
    expect(readRecordsJournal(w.home, w.active.run_id)).toMatchObject({
      ok: false,
      missing: false,
      message: "not UTF-8",
    });
    writeFileSync(path, Buffer.alloc(MAX_JOURNAL_BYTES + 1, 0x20));
    expect(readRecordsJournal(w.home, w.active.run_id)).toMatchObject({ ok: false, missing: false });
    writeFileSync(path, `\uFEFF${opening()}`);
    const read = readRecordsJournal(w.home, w.active.run_id);
    expect(read.ok && judgeRecords(read.text, none())[0]).toMatchObject({ kind: "journal-invalid", line: 1 });
  });

  it("a run whose journal is absent is not journaled into (its check reports the journal missing)", () => {
    const w = workspace();
    rmSync(recordsPath(w.home, w.active.run_id));
    writeStateJournaled(w.root, active(w), parsed(w.root));
    expect(() => readFileSync(recordsPath(w.home, w.active.run_id))).toThrow();
  });
});

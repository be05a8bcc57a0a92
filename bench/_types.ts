/** One line of the benchmark table. */
export interface Row {
  /** The section (module) that measured it. */
  section: string;
  /** What was measured. */
  metric: string;
  value: number;
  /** `ms`, `MB/s`, `×`, `files`, … */
  unit: string;
  /** The target, in words (e.g. `≤ 1500`), if there is one. */
  target?: string;
  /** Whether the target was met; undefined when there is no target. */
  ok?: boolean;
  note?: string;
}

/** A benchmark section: `bench/<name>.ts` exports `run()`. */
export interface Section {
  run(): Promise<Row[]>;
}

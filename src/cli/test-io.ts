import type { CommandIo } from "./command.js";
import { run } from "./main.js";

/** Run the CLI in-process and capture its output; for tests. */
export async function runCapture(
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  options: { stdin?: string | Uint8Array } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { cwd, env, out: (t) => out.push(t), err: (t) => err.push(t) };
  const stdin = options.stdin;
  if (typeof stdin === "string") io.readStdin = async () => stdin;
  else if (stdin !== undefined) {
    io.readStdinBytes = async () => stdin;
    io.readStdin = async () => Buffer.from(stdin).toString("utf8");
  }
  const code = await run(argv, io);
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

import type { CommandIo } from "./command.js";
import { run } from "./main.js";

/** Run the CLI in-process and capture its output; for tests. */
export async function runCapture(
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  options: { stdin?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { cwd, env, out: (t) => out.push(t), err: (t) => err.push(t) };
  const stdin = options.stdin;
  if (stdin !== undefined) io.readStdin = async () => stdin;
  const code = await run(argv, io);
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

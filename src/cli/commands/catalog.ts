import type { CommandEntry } from "../registry.js";

/**
 * Every command by name, its module imported only when that command runs: `devrites validate` in a pre-commit
 * hook must not pay for loading every other command's dependencies. Keep in step with `index.ts` (sorted; a
 * test checks that both list the same commands).
 */
export const commandCatalog: readonly CommandEntry[] = [
  { name: "ask", load: async () => (await import("./ask.js")).askCommand },
  { name: "demo", load: async () => (await import("./demo.js")).demoCommand },
  { name: "doctor", load: async () => (await import("./doctor.js")).doctorCommand },
  { name: "eval", load: async () => (await import("./eval.js")).evalCommand },
  { name: "generate", load: async () => (await import("./generate.js")).generateCommand },
  { name: "graph", load: async () => (await import("./graph.js")).graphCommand },
  { name: "init", load: async () => (await import("./init.js")).initCommand },
  { name: "pack lint", load: async () => (await import("./pack-lint.js")).packLintCommand },
  { name: "packet new", load: async () => (await import("./packet-new.js")).packetNew },
  { name: "resolve", load: async () => (await import("./resolve.js")).resolveCommand },
  { name: "result check", load: async () => (await import("./result-check.js")).resultCheck },
  { name: "result record", load: async () => (await import("./result-record.js")).resultRecord },
  { name: "resume", load: async () => (await import("./resume.js")).resumeCommand },
  { name: "rite end", load: async () => (await import("./rite-marks.js")).riteEnd },
  { name: "rite start", load: async () => (await import("./rite-marks.js")).riteStart },
  { name: "route", load: async () => (await import("./route.js")).routeCommand },
  { name: "run abandon", load: async () => (await import("./run-abandon.js")).runAbandon },
  { name: "status", load: async () => (await import("./status.js")).statusCommand },
  { name: "uninstall", load: async () => (await import("./uninstall.js")).uninstallCommand },
  { name: "update", load: async () => (await import("./update.js")).updateCommand },
  { name: "validate", load: async () => (await import("./validate.js")).validateCommand },
];

import type { RoleName } from "../envelope/roles.js";
import type { PacketBudgets } from "../envelope/types.js";

/**
 * Default ceilings per role (files / loaded lines / result lines). The read-only figures are the ones the
 * original pack proved workable; the wright gets more files and lines because it reads and writes code, and
 * a short result because its evidence is the tree itself.
 */
export const DEFAULT_BUDGETS: Readonly<Record<RoleName, Readonly<PacketBudgets>>> = {
  "devrites-evidence-scout": { max_files: 20, max_loaded_lines: 1_000, max_result_lines: 80 },
  "devrites-plan-drafter": { max_files: 25, max_loaded_lines: 2_000, max_result_lines: 240 },
  "devrites-proof-runner": { max_files: 25, max_loaded_lines: 2_000, max_result_lines: 100 },
  "devrites-spec-reviewer": { max_files: 25, max_loaded_lines: 2_000, max_result_lines: 100 },
  "devrites-code-reviewer": { max_files: 25, max_loaded_lines: 2_000, max_result_lines: 100 },
  "devrites-slice-wright": { max_files: 40, max_loaded_lines: 4_000, max_result_lines: 120 },
};

export function defaultBudgets(role: RoleName): PacketBudgets {
  return { ...DEFAULT_BUDGETS[role] };
}

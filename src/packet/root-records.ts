/**
 * The root's own records in the workspace (`.devrites/spec.md`, `plan.md`, `proof.md`, `review.md`): the only
 * `.devrites/` files a packet may name as an input. The rites hand them to leaves (`--input .devrites/spec.md`:
 * the drafter slices the spec, the reviewers judge against it), so a result is stale when the record it read
 * changed. Everything else under `.devrites/` (runs, state, ledgers) stays out of every packet.
 */

export const ROOT_RECORDS = [
  ".devrites/spec.md",
  ".devrites/plan.md",
  ".devrites/proof.md",
  ".devrites/review.md",
] as const;

/** Exactly one of the root's records, spelled as the rites spell it. */
export function isRootRecord(path: string): boolean {
  return (ROOT_RECORDS as readonly string[]).includes(path);
}

/** Waiting on the file system's clock, for tests of the settled-path rules (src/baseline/_settle.ts). */

import { lstatSync, unlinkSync, writeFileSync } from "node:fs";

/**
 * Wait until a file written now gets a ctime at or after `cutMs` (the kernel stamps from a coarse clock). The
 * probe file is created and removed at `probe`: put it outside the folders a test wants settled, since a file
 * created in a folder unsettles that folder.
 */
export async function untilCtimeAfter(probe: string, cutMs: number): Promise<void> {
  for (;;) {
    writeFileSync(probe, "");
    const c = lstatSync(probe).ctimeMs;
    unlinkSync(probe);
    if (c >= cutMs) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

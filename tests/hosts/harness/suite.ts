/**
 * The explicit skip path for real-host suites: a suite whose hosts are missing is registered as skipped with the
 * reason in its name; with `DEVRITES_REQUIRE_HOSTS=1` (CI) it is registered as one failing test instead.
 *
 *   const hosts = await ensureHosts();
 *   describeHosts("Claude adapter conformance", hosts, ["claude"], () => { it(…) });
 */
import { describe, expect, it } from "vitest";
import { type Hosts, hostsRequired } from "./install.js";

export type HostName = "claude" | "codex";

/** Per-test timeout inside `describeHosts`. */
export const HOST_TEST_TIMEOUT_MS = 90_000;

/** Why a suite needing `need` cannot run, or undefined when it can (pure). */
export function hostSkipReason(hosts: Hosts, need: HostName[]): string | undefined {
  const missing = need.filter((h) => !hosts[h]);
  if (missing.length === 0) return undefined;
  return `${missing.join(" and ")} unavailable: ${hosts.skipReason ?? "unknown reason"}`;
}

export function describeHosts(name: string, hosts: Hosts, need: HostName[], body: () => void): void {
  const skip = hostSkipReason(hosts, need);
  if (skip && hostsRequired()) {
    describe(name, () => {
      it(`DEVRITES_REQUIRE_HOSTS=1 but ${skip}`, () => {
        expect.fail(`real hosts required (DEVRITES_REQUIRE_HOSTS=1) but ${skip}`);
      });
    });
    return;
  }
  // Longer than the runners' 60 s kill timer, so a hung host ends as a run with `timedOut`, not a test timeout.
  describe.skipIf(skip !== undefined)(
    skip ? `${name} — SKIPPED: ${skip}` : name,
    { timeout: HOST_TEST_TIMEOUT_MS },
    body,
  );
}

/**
 * `Date#toISOString` without the time zone: V8 loads the zone database (`/etc/localtime` and ICU's zone data)
 * the first time a process formats a date, and a hook process formats one on every tool call. The UTC getters
 * need no zone, so the same text costs nothing extra. Same output as `toISOString` for every date it accepts
 * (years 0 to 9999: `utc-iso.test.ts`); outside them, or for an invalid date, it defers to `toISOString`
 * (which throws for an invalid one).
 */

const pad = (n: number, width: number): string => String(n).padStart(width, "0");

export function utcIso(d: Date): string {
  const year = d.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return d.toISOString();
  return (
    `${pad(year, 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}` +
    `T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}` +
    `.${pad(d.getUTCMilliseconds(), 3)}Z`
  );
}

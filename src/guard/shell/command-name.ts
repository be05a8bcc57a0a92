/** A command word's name as bash looks it up (no parser needed: the front table's shortcut uses it eagerly). */

/** Lower-cased last path segment: the name bash would look up, as a case-insensitive file system sees it. */
export function commandBase(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1).toLowerCase();
}

import type { PublishedTable } from '../../core/types.js';

/**
 * How many tables at the start of the service's answer match the selected tags. The service puts the
 * matching tables first and fills the rest up to `limit` from other projects, without marking where the
 * fill-ins begin; the widget draws that line itself, at the first table that matches none of the
 * selected tags, and never hides or re-orders what the service returned.
 *
 * A table matches a selected tag when one of its tags contains it or is contained in it, ignoring case:
 * close to the service's fuzzy matching, which may be broader (a table it counted as a match then shows
 * below the line, still in the service's order). With nothing selected every table matches.
 */
export function countMatches(tables: readonly PublishedTable[], selected: readonly string[]): number {
  const wanted = selected.map((tag) => tag.toLowerCase()).filter(Boolean);
  if (!wanted.length) return tables.length;
  const matches = (table: PublishedTable) =>
    // Tables set from script may hold anything; only what looks like a tag can match.
    arrayOf(table?.tags).some((tag) => {
      const have = String(tag).toLowerCase();
      return !!have && wanted.some((want) => have.includes(want) || want.includes(have));
    });
  const firstOther = tables.findIndex((table) => !matches(table));
  return firstOther === -1 ? tables.length : firstOther;
}

/** The value if it is an array, else []: properties set from script may hold anything. */
export function arrayOf<T>(value: readonly T[] | undefined): readonly T[] {
  // Array.isArray narrows to any[]; the elements' type is what the caller declared, as before the check.
  return Array.isArray(value) ? (value as readonly T[]) : [];
}

/**
 * Ids of other users that a cache or map keyed wrongly files under the test user's key: the same id in
 * other case, other Unicode spellings that normalise or case-fold to it, and ids with the same 32-bit hash.
 * Each is a different end user to the service (it compares ids as they are), so each must get a token of
 * its own. Generated from the test user's id by class, not listed per mistake.
 */
import { collidingId, STRING_HASHES } from './collisions.js';

export interface UserTwin {
  id: string;
  /** Why a wrong key files it with the test user's: "upper case", "NFKC", "the Java String.hashCode". */
  why: string;
}

/** Letters whose case mapping lands on an ASCII letter: a cache that lower- or upper-cases the id merges them. */
const FOLDS_TO: Record<string, { char: string; name: string }[]> = {
  i: [{ char: '\u0131', name: 'dotless \u0131, which upper-cases to I' }],
  k: [{ char: '\u212a', name: 'the Kelvin sign, which lower-cases to k' }],
  s: [{ char: '\u017f', name: 'long \u017f, which upper-cases to S' }],
};

/** The fullwidth form of an ASCII letter or digit (U+FF01 + offset): NFKC maps it back. */
const fullwidth = (char: string) => String.fromCharCode(char.charCodeAt(0) - 0x21 + 0xff01);

function caseTwins(id: string): UserTwin[] {
  const out: UserTwin[] = [
    { id: id.toUpperCase(), why: 'in upper case' },
    { id: id.toLowerCase(), why: 'in lower case' },
  ];
  const letter = /[A-Za-z]/.exec(id);
  if (letter) {
    const at = letter.index;
    const char = id[at]!;
    const swapped = char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase();
    out.push({ id: id.slice(0, at) + swapped + id.slice(at + 1), why: 'with one letter in the other case' });
  }
  return out;
}

function unicodeTwins(id: string): UserTwin[] {
  const out: UserTwin[] = [];
  for (const form of ['NFC', 'NFD', 'NFKC', 'NFKD'] as const)
    out.push({ id: id.normalize(form), why: `in Unicode normal form ${form}` });
  const plain = /[A-Za-z0-9]/.exec(id);
  if (plain)
    out.push({
      id: id.slice(0, plain.index) + fullwidth(plain[0]) + id.slice(plain.index + 1),
      why: `with ${plain[0]} written fullwidth (NFKC and NFKD map it back)`,
    });
  for (const [ascii, folds] of Object.entries(FOLDS_TO)) {
    const at = id.toLowerCase().indexOf(ascii);
    if (at < 0) continue;
    for (const fold of folds)
      out.push({ id: id.slice(0, at) + fold.char + id.slice(at + 1), why: `with ${fold.name}` });
  }
  return out;
}

function hashTwins(id: string, prefix: string): UserTwin[] {
  return STRING_HASHES.flatMap((hash) => {
    const twin = collidingId(hash, id, prefix);
    return twin === undefined ? [] : [{ id: twin, why: `with the same ${hash.name}` }];
  });
}

/** Drops twins equal to `id` or to an earlier twin (an ASCII id is its own NFC, NFD, NFKC and NFKD). */
function distinct(id: string, twins: UserTwin[]): UserTwin[] {
  const seen = new Set([id]);
  return twins.filter((twin) => {
    if (seen.has(twin.id)) return false;
    seen.add(twin.id);
    return true;
  });
}

/** The ids equal to `id` but for case or Unicode spelling. */
export function spellingTwins(id: string): UserTwin[] {
  return distinct(id, [...caseTwins(id), ...unicodeTwins(id)]);
}

/** Ids starting with `prefix` (new to the backend each run) with the same 32-bit hash as `id`, one per hash. */
export function hashTwinsOf(id: string, prefix: string): UserTwin[] {
  return distinct(id, hashTwins(id, prefix));
}

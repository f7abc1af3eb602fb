/**
 * Ids that collide with a given one under the 32-bit string hashes backends key caches and maps by. Each
 * hash here takes one character at a time through a step that can be undone (an odd multiplier mod 2^32),
 * so a colliding id is found by meeting in the middle: three characters forward from the prefix, three
 * (or four) backward from the target hash.
 */

interface StringHash {
  name: string;
  seed: number;
  step(hash: number, char: number): number;
  undo(hash: number, char: number): number;
}

/** The inverse of an odd number mod 2^32 (Newton's iteration doubles the correct bits each round). */
function inverse(odd: number): number {
  let guess = odd;
  for (let round = 0; round < 5; round++) guess = Math.imul(guess, 2 - Math.imul(odd, guess));
  return guess >>> 0;
}

function multiplyAdd(name: string, seed: number, multiplier: number): StringHash {
  const back = inverse(multiplier);
  return {
    name,
    seed,
    step: (hash, char) => (Math.imul(hash, multiplier) + char) >>> 0,
    undo: (hash, char) => Math.imul((hash - char) >>> 0, back) >>> 0,
  };
}

function multiplyXor(name: string, seed: number, multiplier: number): StringHash {
  const back = inverse(multiplier);
  return {
    name,
    seed,
    step: (hash, char) => (Math.imul(hash, multiplier) ^ char) >>> 0,
    undo: (hash, char) => Math.imul((hash ^ char) >>> 0, back) >>> 0,
  };
}

const FNV_PRIME = 16777619;
const FNV_OFFSET = 2166136261;

/** Over UTF-16 code units, which equal the UTF-8 bytes for the ASCII ids generated here. */
export const STRING_HASHES: readonly StringHash[] = [
  multiplyAdd('Java String.hashCode', 0, 31),
  multiplyAdd('djb2', 5381, 33),
  multiplyXor('djb2 (xor)', 5381, 33),
  multiplyAdd('sdbm', 0, 65599),
  multiplyXor('FNV-1 32', FNV_OFFSET, FNV_PRIME),
  {
    name: 'FNV-1a 32',
    seed: FNV_OFFSET,
    step: (hash, char) => Math.imul((hash ^ char) >>> 0, FNV_PRIME) >>> 0,
    undo: (hash, char) => (Math.imul(hash, inverse(FNV_PRIME)) ^ char) >>> 0,
  },
];

export function hashOf(hash: StringHash, text: string): number {
  let value = hash.seed >>> 0;
  for (let at = 0; at < text.length; at++) value = hash.step(value, text.charCodeAt(at));
  return value;
}

const ALPHABET = Array.from('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', (char) =>
  char.charCodeAt(0),
);

/** Hash values of three-character runs, in an open-addressed table: a Map is several times slower here. */
class Table {
  readonly #keys = new Uint32Array(1 << 20);
  readonly #values = new Int32Array(1 << 20).fill(-1);
  readonly #mask = (1 << 20) - 1;

  set(key: number, value: number): void {
    let at = Math.imul(key, 0x9e3779b1) >>> 12;
    while (this.#values[at] !== -1 && this.#keys[at] !== key) at = (at + 1) & this.#mask;
    this.#keys[at] = key;
    this.#values[at] = value;
  }

  get(key: number): number {
    let at = Math.imul(key, 0x9e3779b1) >>> 12;
    while (this.#values[at] !== -1) {
      if (this.#keys[at] === key) return this.#values[at]!;
      at = (at + 1) & this.#mask;
    }
    return -1;
  }
}

/**
 * An id that starts with `prefix`, ends with six or seven letters or digits, and has the same `hash` as
 * `target`; undefined in the rare case none does. Seven when six cannot: a small multiplier (31, 33) keeps
 * three characters' worth of hash in a narrow band, so the two halves may not meet.
 */
export function collidingId(hash: StringHash, target: string, prefix: string): string | undefined {
  const wanted = hashOf(hash, target);
  const start = hashOf(hash, prefix);
  const forward = new Table();
  for (const c1 of ALPHABET) {
    const ha = hash.step(start, c1);
    for (const c2 of ALPHABET) {
      const hb = hash.step(ha, c2);
      for (const c3 of ALPHABET) forward.set(hash.step(hb, c3), (c1 << 16) | (c2 << 8) | c3);
    }
  }
  const found = (middle: number, tail: number[]) =>
    prefix + String.fromCharCode(middle >> 16, (middle >> 8) & 0xff, middle & 0xff, ...tail);
  /** Characters `tail` (last first) undone from `end`, then three more: an id when the halves meet. */
  const meet = (end: number, tail: number[]): string | undefined => {
    for (const c6 of ALPHABET) {
      const hf = hash.undo(end, c6);
      for (const c5 of ALPHABET) {
        const he = hash.undo(hf, c5);
        for (const c4 of ALPHABET) {
          const middle = forward.get(hash.undo(he, c4));
          if (middle === -1) continue;
          const id = found(middle, [c4, c5, c6, ...tail]);
          if (id !== target) return id;
        }
      }
    }
    return undefined;
  };
  const six = meet(wanted, []);
  if (six !== undefined) return six;
  for (const c7 of ALPHABET) {
    const seven = meet(hash.undo(wanted, c7), [c7]);
    if (seven !== undefined) return seven;
  }
  return undefined;
}

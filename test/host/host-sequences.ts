// The vectors' `sequences` (test/fixtures/bridge-vectors.json), judged the same way for every host that
// runs them: the kernel (test/host/kernel.test.ts) and the Kotlin host on a JVM
// (test/native-hosts/android/kotlin-vectors.test.ts). A host's run is turned into this list of what it did.
import vectors from '../fixtures/bridge-vectors.json' with { type: 'json' };

export type Did =
  | { out: 'send'; json: Record<string, unknown> }
  | { out: 'answer'; ok: boolean; code: string | null; message: string | null }
  | { out: 'rejected'; reason: string }
  | { out: 'marker'; nonce: string };

/**
 * What the host did, with the vectors' placeholders filled in: a marker nonce never seen before (not the
 * first load's either) is `$fresh`, and a message stamped with the load's nonce, when the vector names
 * that nonce `$load`, gets `$load`.
 */
export function asExpected(did: readonly Did[], expect: readonly unknown[]): unknown[] {
  const seen = new Set([vectors.host.nonce]);
  let load = vectors.host.nonce;
  return did.map((entry, at) => {
    const wanted = expect[at] as { json?: { nonce?: string }; nonce?: string } | undefined;
    if (entry.out === 'marker') {
      const fresh = !seen.has(entry.nonce);
      seen.add(entry.nonce);
      load = entry.nonce;
      return { out: 'marker', nonce: fresh && wanted?.nonce === '$fresh' ? '$fresh' : entry.nonce };
    }
    if (entry.out === 'send' && wanted?.json?.nonce === '$load' && entry.json.nonce === load)
      return { out: 'send', json: { ...entry.json, nonce: '$load' } };
    return entry;
  });
}

/**
 * The one JSON-object check, for every layer: the browser core, the bridge, the native host, the server
 * toolkit and the simulator. A leaf module (it imports nothing), so the simulator may share it.
 */

/** A JSON object (not null, not an array): what a member is read from, after this check, in every layer. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

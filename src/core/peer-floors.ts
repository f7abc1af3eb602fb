/**
 * The oldest version of each optional peer dependency that a binding runs on. package.json gives these
 * peers the range "*": npm checks an optional peer's range whenever the app has the package at all, so a
 * narrower range would make an app on React 17 or Vue 2.7 that never imports a binding fail to install
 * (ERESOLVE). What a binding needs is stated here instead, and checked when the binding loads.
 * docs/react-native.md lists the same floors (test/package/peer-floors.test.ts).
 */
export const PEER_FLOORS = {
  react: '18.0.0',
  vue: '3.4.0',
  'react-native': '0.74.0',
  'react-native-webview': '13.8.0',
  'react-native-safe-area-context': '4.10.0',
} as const;

export type FlooredPeer = keyof typeof PEER_FLOORS;

/** major, minor, patch of a version string (`19.2.0`, `0.83.1-rc.2`); undefined when it is not one. */
function parts(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** Whether `version` is at least `floor` (both `major.minor.patch`). */
export function meetsFloor(version: string, floor: string): boolean {
  const have = parts(version);
  const need = parts(floor)!;
  if (!have) return false;
  const differs = have.findIndex((part, index) => part !== need[index]);
  return differs === -1 || have[differs]! > need[differs]!;
}

/**
 * Throws, naming the binding and both versions, when the app's `peer` is older than the binding needs.
 * A version the peer does not report (`undefined`) is let through: nothing to compare.
 */
export function requirePeer(binding: string, peer: FlooredPeer, version: string | undefined): void {
  if (version === undefined || meetsFloor(version, PEER_FLOORS[peer])) return;
  throw new Error(
    `${binding} needs ${peer} ${PEER_FLOORS[peer]} or later; this app has ${peer} ${version}. ` +
      `Upgrade ${peer}, or leave ${binding} unimported (the rest of hub-embed does not use ${peer}).`,
  );
}

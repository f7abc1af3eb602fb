/** `{ 'react-native/package.json': '{…}\n', … }`: every subpath folder's manifest, from package.json's exports. */
export function subpathManifests(pkg?: { exports: Record<string, unknown> }): Record<string, string>;
/** What is wrong on disk and in package.json's `files` under `root` (empty when the folders are current). */
export function subpathProblems(root?: string): string[];
/** Writes every subpath folder's manifest under `root`; returns their paths. */
export function writeSubpathFolders(root?: string): string[];

/** The releases CI runs, each pinned: major -> version. */
export const NODE_RELEASES: Record<string, string>;
/** The folder holding the `node` of release `major` (22, 24), installed from npm when not there yet. */
export function nodeReleaseBin(major: string | number): string;

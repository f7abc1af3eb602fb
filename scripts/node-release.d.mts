/** The releases CI runs, each pinned: major -> version. */
export const NODE_RELEASES: Record<string, string>;
/** The line every lane runs on (.ci/run). */
export const CI_NODE: number;
/** package.json's engines, made of `releases` (NODE_RELEASES by default). */
export function enginesRange(releases?: Record<string, string>): string;
/** The folder holding the `node` of release `major` (22, 24, 26), installed from npm when not there yet. */
export function nodeReleaseBin(major: string | number): string;

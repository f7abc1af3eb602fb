/** `{ path: content hash }` of every path `git status` lists in `cwd` ('deleted' for one that is gone). */
export function statusSnapshot(cwd?: string): Record<string, string>;
/** The paths `after` lists that `before` did not, or lists with other content. */
export function changedPaths(before: Record<string, string>, after: Record<string, string>): string[];

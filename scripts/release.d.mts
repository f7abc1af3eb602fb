/** The version a release named `bump` (patch, minor, major or a version) gives after `current`. */
export declare function nextVersion(current: string, bump: string): string;
/** CHANGELOG.md with the Unreleased entries under `## [version] - date`, and an empty Unreleased above them. */
export declare function withReleaseSection(changelog: string, version: string, date: string): string;

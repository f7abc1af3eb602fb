/** The simulator's package's folder (packages/hub-embed-mock). */
export declare const MOCK_PACKAGE: string;
/** The tarball of the package in `dir` (hub-embed's by default) as it is now, packed once per change (scripts/pack.mjs). */
export declare function packedTarball(dir?: string): { tarball: string; files: string[] };
/** The tarball `node scripts/pack.mjs` printed last (its path), with the files it holds. */
export declare function lastPacked(tarball: string): { tarball: string; files: string[] };

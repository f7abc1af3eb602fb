/** The tarball of the package as it is now, packed once per change (scripts/pack.mjs). */
export declare function packedTarball(): { tarball: string; files: string[] };
/** The tarball `node scripts/pack.mjs` printed last (its path), with the files it holds. */
export declare function lastPacked(tarball: string): { tarball: string; files: string[] };

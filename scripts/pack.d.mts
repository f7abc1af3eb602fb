/** The tarball of the package as it is now, packed once per change (scripts/pack.mjs). */
export declare function packedTarball(): { tarball: string; files: string[] };

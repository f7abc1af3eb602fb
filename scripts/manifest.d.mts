/** Where the build writes the manifest the package ships (package.json's `customElements`). */
export const MANIFEST_FILE: string;
/**
 * The analyzer's manifest of the elements (`analyzed`: every module of src/components) and the manifest the
 * package ships (`shipped`), analysed once per process.
 */
export function elementsManifest(): { analyzed: unknown; shipped: unknown };

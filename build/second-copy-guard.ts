/**
 * Why: a second copy of the same version of a <script> bundle on one page must do nothing at all: not even
 * Lit's module code runs, so a strict Trusted Types page does not see a second 'lit-html' policy. The guard
 * is the bundler's `intro`, the first statement of the script's function, which returns the first copy's
 * global before any module of the bundle runs: no plugin rewrites the output for it.
 */
export function secondCopyGuard(version: string): string {
  return `if (self.HubEmbed?.version === ${JSON.stringify(version)}) return self.HubEmbed;`;
}

import type { Plugin } from 'vite';

/**
 * Why: a second copy of the same version of the <script> bundle on one page must do nothing at all: not
 * even Lit's module code runs, so a strict Trusted Types page does not see a second 'lit-html' policy.
 */
export const skipSecondCopy = (version: string): Plugin => ({
  name: 'hub-embed-skip-second-copy',
  // After minification, so the guard is the very first statement of the file.
  generateBundle(_, bundle) {
    const head = 'var HubEmbed=';
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      if (!chunk.code.startsWith(head))
        throw new Error(`The IIFE no longer starts with "${head}"; update the skip-second-copy guard.`);
      chunk.code = `var HubEmbed=self.HubEmbed?.version===${JSON.stringify(version)}?self.HubEmbed:${chunk.code.slice(head.length)}`;
    }
  },
});

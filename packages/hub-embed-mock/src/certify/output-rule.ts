/**
 * The output rule, graded when certify started the backend (`certify -- <command>`): the API key, in any
 * spelling the answer rule searches, and every token the service issued, appear nowhere in what the
 * backend printed. A log is read by more people than the key is given to, and kept longer than a token lives.
 */
import type { Simulator } from '../types.js';
import { check, type Rule } from './grading.js';
import { tokenOwner } from './observe.js';
import { brief } from './probe.js';
import { keySpellings } from './token-rules.js';

export interface PrintedOutput {
  stdout: string;
  stderr: string;
}

/** The line of `text` that holds `found`, with `found` shown as `label`. */
function lineWith(text: string, found: string, label: string): string {
  const at = text.indexOf(found);
  const start = text.lastIndexOf('\n', at) + 1;
  const end = text.indexOf('\n', at);
  return brief(text.slice(start, end < 0 ? undefined : end).replaceAll(found, label), 160);
}

export function outputRule(hub: Simulator, apiKey: string, output: () => PrintedOutput): Rule<unknown> {
  const spellings = keySpellings(apiKey);
  return {
    id: 'backend-output-holds-no-secret',
    title: 'The backend prints neither the API key (in any encoding) nor a token it was given, on stdout or stderr',
    async run(_context, note) {
      // Let the last lines of the last rule reach the pipe.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const printed = output();
      const found: string[] = [];
      for (const stream of ['stdout', 'stderr'] as const) {
        const text = printed[stream];
        note(`read ${text.length} characters the backend printed on ${stream}`);
        const key = spellings.find((spelling) => text.includes(spelling));
        if (key !== undefined)
          found.push(
            `the API key${key === apiKey ? '' : ` (written ${JSON.stringify(key)})`} on ${stream}: ${lineWith(text, key, '<API key>')}`,
          );
        for (const token of new Set(text.match(/[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/g) ?? [])) {
          const owner = await tokenOwner(hub, token);
          if (owner !== undefined) {
            found.push(`a token of ${owner} on ${stream}: ${lineWith(text, token, '<token>')}`);
            break;
          }
        }
      }
      check(
        found.length === 0,
        `it printed ${found.join('; ')}. Log that an exchange happened and for whom, never the key or the token`,
      );
    },
  };
}

// build/second-copy-guard.ts: the bundler's intro, which returns the first copy's global (no rewrite of output).
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { secondCopyGuard } from './second-copy-guard.ts';

describe('secondCopyGuard: a second copy of the same version does nothing', () => {
  // The bundler puts the guard first in the script's function; this stands in for that function.
  const bundle =
    (version: string) =>
    (self: { HubEmbed?: { version: string }; ran?: number }): { version: string } =>
      runInNewContext(
        `(function () {\n${secondCopyGuard(version)}\nself.ran = (self.ran ?? 0) + 1;\nreturn { version: ${JSON.stringify(version)} };\n})()`,
        { self },
      ) as { version: string };

  it('the first copy runs and gives the global; the same version again returns that global and runs nothing', () => {
    const page: { HubEmbed?: { version: string }; ran?: number } = {};
    page.HubEmbed = bundle('1.0.0')(page);
    const first = page.HubEmbed;
    page.HubEmbed = bundle('1.0.0')(page);
    expect(page.HubEmbed).toBe(first);
    expect(page.ran).toBe(1);
  });

  it('another version runs (its define() then says the tags are taken)', () => {
    const page: { HubEmbed?: { version: string }; ran?: number } = {};
    page.HubEmbed = bundle('1.0.0')(page);
    page.HubEmbed = bundle('2.0.0')(page);
    expect(page.ran).toBe(2);
    expect(page.HubEmbed.version).toBe('2.0.0');
  });
});

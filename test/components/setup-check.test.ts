// The setup check an entry plugs into the connection (hub-embed/define's, src/define.ts): asked only for a
// refused setting, and never in the way of the refusal's own error. Without src/define.ts, so that this
// file's checks are the only ones plugged in.
import { describe, expect, it, vi } from 'vitest';
import { explainRefusal, useSetupCheck } from '../../src/components/hub-embed/connection.js';
import { HubError } from '../../src/core/errors.js';

describe('explainRefusal', () => {
  const element = document.createElement('div');
  const refusal = new HubError('config', 'Set form-url to an https URL.');

  // First, while no check is plugged in: as in the <script> bundles, which have none.
  it('with no setup check, a refusal is returned at once, not as a promise', () => {
    expect(explainRefusal(refusal, element)).toBe(refusal);
  });

  it('a refused setting is shown as the setup check explains it', async () => {
    const better = new HubError('config', 'formurl arrived as a lowercased attribute.');
    useSetupCheck(() => Promise.resolve(better));
    expect(await explainRefusal(refusal, element)).toBe(better);
  });

  it("a refusal the setup check has nothing to say of keeps the refusal's own error", async () => {
    useSetupCheck(() => Promise.resolve(undefined));
    expect(await explainRefusal(refusal, element)).toBe(refusal);
  });

  it('only a refused setting is checked: a network or service error is shown as it is, at once', async () => {
    const check = vi.fn(() => Promise.resolve(new HubError('config', 'never shown')));
    useSetupCheck(check);
    for (const error of [
      new HubError('network', 'Network error.'),
      new HubError('api', 'HTTP 500'),
      new TypeError('x'),
    ])
      expect(explainRefusal(error, element)).toBe(error);
    expect(check).not.toHaveBeenCalled();
  });
});

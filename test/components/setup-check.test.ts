// A refused setting is explained by the form half where it can be (lowercased attributes, which a
// server-rendered React tag brings), loaded only then, and never in the way of the refusal's own error.
import { describe, expect, it } from 'vitest';
import '../../src/define.js';
import { explainRefusal } from '../../src/components/hub-embed/explain-refusal.js';
import { HubError } from '../../src/core/errors.js';

describe('explainRefusal', () => {
  const refusal = new HubError('config', 'Set token-endpoint.');

  it('a refused setting of a tag whose properties arrived as lowercased attributes is shown as that', async () => {
    const element = document.createElement('hub-embed');
    element.setAttribute('tokenendpoint', '/api/hub-token');
    const shown = await explainRefusal(refusal, element);
    expect(shown).toBeInstanceOf(HubError);
    expect((shown as HubError).message).toMatch(/^tokenendpoint arrived as lowercased attributes/);
  });

  it("a refusal the form half has nothing to say of keeps the refusal's own error", async () => {
    expect(await explainRefusal(refusal, document.createElement('hub-embed'))).toBe(refusal);
  });

  it('only a refused setting is checked: a network or service error is shown as it is, at once, not as a promise', () => {
    const element = document.createElement('hub-embed');
    element.setAttribute('formurl', 'https://forms.example');
    for (const error of [
      new HubError('network', 'Network error.'),
      new HubError('api', 'HTTP 500'),
      new TypeError('x'),
    ])
      expect(explainRefusal(error, element)).toBe(error);
  });
});

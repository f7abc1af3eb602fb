// A refused setting is explained by the form half where it can be (lowercased attributes, which a
// server-rendered React tag brings), loaded only then, and never in the way of the refusal's own error.
import { describe, expect, it } from 'vitest';
import '../../src/define.js';
import { explainError } from '../../src/components/hub-embed/explain-error.js';
import { explainFailure } from '../../src/components/hub-embed/explain-failure.js';
import { HubError } from '../../src/core/errors.js';
import { setupHub } from './helpers.js';

describe('explainError', () => {
  const refusal = new HubError('config', 'Set token-endpoint.');

  it('a refused setting of a tag whose properties arrived as lowercased attributes is shown as that', async () => {
    const element = document.createElement('hub-embed');
    element.setAttribute('tokenendpoint', '/api/hub-token');
    const shown = await explainError(refusal, element);
    expect(shown).toBeInstanceOf(HubError);
    expect((shown as HubError).message).toMatch(/^tokenendpoint arrived as lowercased attributes/);
  });

  it("a refusal the form half has nothing to say of keeps the refusal's own error", async () => {
    expect(await explainError(refusal, document.createElement('hub-embed'))).toBe(refusal);
  });

  it('once the service answered, a network or service error is shown as it is, at once, not as a promise', () => {
    const element = document.createElement('hub-embed');
    element.setAttribute('formurl', 'https://forms.example');
    for (const error of [new HubError('network', 'Network error.'), new HubError('api', 'HTTP 500')])
      expect(explainError(error, element, true)).toBe(error);
    expect(explainError(new TypeError('x'), element)).toBeInstanceOf(TypeError);
  });

  it('before the service answered, a network error is explained by the later half: offline it stands as it is', async () => {
    const element = document.createElement('hub-embed');
    element.baseUrl = 'http://127.0.0.1:9/api/v1/apihub';
    const network = new HubError('network', 'unreachable');
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      expect(await explainError(network, element)).toBe(network);
    } finally {
      delete (navigator as { onLine?: boolean }).onLine;
    }
  });

  it('a check of base-url that the network drops once is asked again: the service answers, the network error stands', async () => {
    const s = setupHub();
    const element = document.createElement('hub-embed');
    element.baseUrl = s.hub.baseUrl;
    const network = new HubError('network', 'Network error.');
    s.drops.value = 1;
    expect(await explainFailure(network, element)).toBe(network);
    expect(s.drops.value).toBe(0);
  });

  it('a base-url that every try of the check gets no answer from is a setup error naming its URL', async () => {
    const s = setupHub();
    const element = document.createElement('hub-embed');
    element.baseUrl = s.hub.baseUrl;
    s.drops.value = 2;
    const shown = await explainFailure(new HubError('network', 'Network error.'), element);
    expect(shown.kind).toBe('config');
    expect(shown.message).toContain(`gets no answer this page can read at ${s.hub.apiUrl}/projects/published-tags`);
  });
});

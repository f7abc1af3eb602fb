import { describe, expect, it } from 'vitest';
import * as global from '../../src/script-tag.js';
import * as core from '../../src/core/index.js';

// src/script-tag.ts is the IIFE entry: its exports are the `HubEmbed` global of the <script> bundle.
describe('the <script> global', () => {
  it('exports version as the package version string (read by the duplicate-copy guard)', () => {
    expect(typeof global.version).toBe('string');
    expect(global.version).toBe(__HUB_EMBED_VERSION__);
  });

  it('exports the core the bundle already contains: HubError, TokenSource, tokenFromEndpoint, WebClient', () => {
    for (const name of ['HubError', 'TokenSource', 'tokenFromEndpoint', 'WebClient'] as const) {
      expect(global[name], name).toBe(core[name]);
    }
    expect(typeof global.define).toBe('function');
  });

  it('names the browser client by its side, WebClient, with no alias for the old HubClient (each name costs bytes)', () => {
    expect(global.WebClient).toBe(core.WebClient);
    expect('HubClient' in global).toBe(false);
    expect('HubClient' in core).toBe(false);
  });

  it('does not export buildNotificationLink, nor buildFormUrl (only the form half, loaded on intent, builds form URLs)', () => {
    expect('buildNotificationLink' in global).toBe(false);
    expect('buildFormUrl' in global).toBe(false);
  });
});

// @vitest-environment happy-dom
// The simulator must run inside the DOM test environments the component tests use.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';

describe('isomorphic hub', () => {
  it('works in happy-dom with its Request/Response, through hub.fetch', async () => {
    const hub = createSimulator();
    const tok = await hub.fetch(`${hub.apiUrl}/apikeys/token`, {
      method: 'POST',
      headers: { 'X-API-Key': hub.apiKey, 'Content-Type': 'application/json' },
      body: '{"client_user_id":"user-alice"}',
    });
    const token = (await tok.json()).data.access_token;
    const list = await hub.fetch(`${hub.apiUrl}/projects/published-list?tags=delivery&limit=2`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect((await list.json()).data.list).toHaveLength(2);
    const page = await hub.fetch(`${hub.formUrl}/k3Xp9a?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
  });

  it('hub.ts and everything it imports use no node: modules', () => {
    // happy-dom rewrites import.meta.url, so resolve from the project root vitest runs in.
    const dir = join(process.cwd(), 'packages/hub-embed-mock/src');
    const nodeOnly = new Set(['node.ts', 'cli.ts', 'index.ts']);
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(join(dir, file), 'utf8');
      expect(text, file).not.toMatch(/from ['"]node:/);
      for (const m of text.matchAll(/from '\.\/([\w-]+)\.js'/g)) visit(`${m[1]}.ts`);
    };
    visit('hub.ts');
    for (const f of seen) expect(nodeOnly.has(f)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.ts')).length).toBeGreaterThan(seen.size);
  });
});

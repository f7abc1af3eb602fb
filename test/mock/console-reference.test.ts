import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../packages/hub-embed-mock/src/console-page.js';
import { newHub } from './helpers.js';

const openapi = JSON.parse(readFileSync('openapi.json', 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
  webhooks: Record<string, unknown>;
  components: { schemas: Record<string, unknown> };
};

describe('the console API reference (/console/reference), rendered from openapi.json', () => {
  it('is served beside the console pages with the console CSP, and has no script and no inline style', async () => {
    const hub = newHub();
    const page = await hub.fetch(`${hub.baseUrl}/console/reference`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    const html = await page.text();
    expect(html).not.toMatch(/<script|<style|style=/);
    expect(html).toContain('<link rel="stylesheet" href="/console/reference.css">');
    const css = await hub.fetch(`${hub.baseUrl}/console/reference.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('shows every endpoint, webhook and schema of openapi.json, each linked from the contents', async () => {
    const hub = newHub();
    const html = await (await hub.fetch(`${hub.baseUrl}/console/reference`)).text();
    const endpoints = Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(endpoints).toHaveLength(6);
    for (const title of endpoints) expect(html).toContain(`<h3><code>${title}</code></h3>`);
    for (const event of Object.keys(openapi.webhooks)) expect(html).toContain(`<h3><code>POST ${event}</code></h3>`);
    for (const name of Object.keys(openapi.components.schemas)) expect(html).toContain(`<h3>${name}</h3>`);
    const ids = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]));
    const targets = [...html.matchAll(/ href="#([^"]+)"/g)].map((match) => match[1]);
    expect(targets.length).toBeGreaterThan(40);
    expect(targets.filter((target) => !ids.has(target))).toEqual([]);
  });

  it("escapes the file's text and marks the simulator's choices as the simulator's", async () => {
    const hub = newHub();
    const html = await (await hub.fetch(`${hub.baseUrl}/console/reference`)).text();
    // The spec's placeholders are text, not tags.
    expect(html).toContain('&lt;short_code&gt;');
    expect(html).not.toContain('<short_code>');
    expect(html).toContain('Default and maximum: not shown by the specification.');
    expect(html).toMatch(/<p class="simulator">Simulator: minimum 1; maximum 100; default <code>100<\/code>/);
  });

  it('serves openapi.json itself, as the package ships it', async () => {
    const hub = newHub();
    const file = await hub.fetch(`${hub.baseUrl}/console/openapi.json`);
    expect(file.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await file.json()).toEqual(openapi);
  });

  it('--no-console (console: false) removes the reference too', async () => {
    const hub = newHub({ console: false });
    for (const path of ['/console/reference', '/console/reference.css', '/console/openapi.json'])
      expect((await hub.fetch(`${hub.baseUrl}${path}`)).status).toBe(404);
  });
});

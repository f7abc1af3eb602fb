// Issue 29 item 5: every command that starts a simulator (`npm run demo`, `npm run example:*`,
// `hub-embed-mock`, whose line test/mock/cli.test.ts checks) prints where its console is, and that address
// answers the console page.
import { describe, expect, it, vi } from 'vitest';

// The example imports the toolkit as a package (built into dist/); here it gets the same code from the sources.
vi.mock('hub-embed-mock', async () => await import('../../packages/hub-embed-mock/src/index.js'));
vi.mock('hub-embed/server', async () => await import('../../src/server/index.js'));
vi.mock('hub-embed/core', async () => await import('../../src/core/index.js'));
vi.mock('../../examples/express/bundle.js', () => ({ bundle: { file: '/nonexistent', integrity: 'sha384-none' } }));

/** The console address a banner prints, after checking that it answers the console's page. */
async function consoleOf(banner: string): Promise<string> {
  const url = /simulator console: +(http:\/\/127\.0\.0\.1:\d+\/console\/)/.exec(banner)?.[1];
  expect(url, banner).toBeDefined();
  const page = await fetch(url!);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  return url!;
}

describe('start-up banners name the simulator console', { timeout: 120_000 }, () => {
  it('npm run example:express, example:react and example:vue print the console address', async () => {
    // A specifier tsc does not follow: server.js imports 'hub-embed-mock', which only a build gives tsc.
    const SERVER = '../../examples/express/server.js';
    const { exampleBanner, viteExampleBanner, startExample } = (await import(/* @vite-ignore */ SERVER)) as {
      exampleBanner: (running: unknown) => string;
      viteExampleBanner: (framework: 'react' | 'vue', origin: string, running: unknown) => string;
      startExample: (options: object) => Promise<{ simulator?: { baseUrl: string }; close(): Promise<void> }>;
    };
    const running = await startExample({ port: 0, databaseUrl: '' });
    try {
      const consoleUrl = `${running.simulator!.baseUrl}/console/`;
      expect(await consoleOf(exampleBanner(running))).toBe(consoleUrl);
      for (const framework of ['react', 'vue'] as const)
        expect(await consoleOf(viteExampleBanner(framework, 'http://127.0.0.1:5173', running))).toBe(consoleUrl);
    } finally {
      await running.close();
    }
  });

  it('npm run demo prints the console address', async () => {
    const { demoBanner, startDemo } = await import('../../demo/serve.js');
    const demo = await startDemo({ port: 0 });
    try {
      const url = await consoleOf(demoBanner(demo));
      expect(url).toBe(`${demo.baseUrl}/console/`);
    } finally {
      await demo.close();
    }
  });
});

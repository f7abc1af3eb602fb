// CommonJS servers: the packed tarball installed beside Express in a CommonJS app, whose files
// `require()` hub-embed's entries as a server written in CommonJS does, on each maintained Node line
// (scripts/node-release.mjs, of which engines is made). Every Node that engines admits loads an ES module for
// require() when the exports carry a `default` condition and the module graph has no top-level await; with
// `import` alone Node throws ERR_PACKAGE_PATH_NOT_EXPORTED.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NODE_RELEASES, nodeReleaseBin } from '../../scripts/node-release.mjs';
import { installedVersion, npmInstall, pkg, ROOT, run, tarball, tempApp } from './apps.js';

/** Every entry a server may require, with a function each must export. */
const SERVER_ENTRIES: Record<string, string> = {
  'hub-embed/server': 'createTokenHandler',
  'hub-embed/server/redis': 'createRedisTokenCache',
  'hub-embed/core': 'buildFormUrl',
  'hub-embed/bridge': 'connectBridge',
  'hub-embed/host': 'createHostKernel',
  'hub-embed/mock': 'startSimulator',
};

/**
 * An Express app in CommonJS: the simulator (hub-embed-mock) as the service, the token handler
 * (hub-embed/server) on POST /api/hub-token for the user the `x-session` header names (a stand-in for the
 * app's session lookup). It makes its requests itself and prints what it got as JSON.
 */
const EXPRESS_APP = `'use strict';
const assert = require('node:assert/strict');
const express = require('express');
const { startSimulator } = require('hub-embed-mock');
const { createServerClient, createTokenHandler, toNodeListener } = require('hub-embed/server');

async function main() {
  assert.equal(typeof module, 'object', 'this file runs as CommonJS');
  const simulator = await startSimulator();
  const client = createServerClient({ apiKey: simulator.apiKey, baseUrl: simulator.baseUrl });
  const app = express();
  app.post(
    '/api/hub-token',
    toNodeListener(createTokenHandler({ client, resolveClientUserId: (request) => request.headers.get('x-session') })),
  );
  const server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = 'http://127.0.0.1:' + server.address().port + '/api/hub-token';
  const ask = async (headers) => {
    const response = await fetch(url, { method: 'POST', headers, body: '{}' });
    return { status: response.status, body: await response.json().catch(() => null) };
  };
  const first = await ask({ 'x-session': 'user-alice' });
  const again = await ask({ 'x-session': 'user-alice' });
  const anonymous = await ask({});
  server.close();
  await simulator.close();
  console.log(JSON.stringify({ first, again, anonymous }));
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

let app: ReturnType<typeof tempApp>;

/** Each maintained Node line's `node`: the lane installs them before the tests (scripts/surface.mjs). */
const NODES = Object.entries(NODE_RELEASES).map(([major, version]) => ({
  version,
  node: () => join(nodeReleaseBin(major), 'node'),
}));
const LINES = Object.keys(NODE_RELEASES).join(', ');

before(() => {
  app = tempApp('commonjs-server', { type: 'commonjs' });
  // The simulator from the workspace, as built: hub-embed/mock re-exports it.
  const install = npmInstall(app.dir, [
    tarball().tarball,
    join(ROOT, 'packages/hub-embed-mock'),
    `express@${installedVersion('express')}`,
  ]);
  assert.equal(install.status, 0, `npm install failed:\n${install.out}`);
});

after(() => app?.remove());

describe('CommonJS servers require() the package', () => {
  it('every exports entry has a condition require() takes (default), beside its types', () => {
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      // A JSX framework's types (hub-embed/jsx/preact, …) are an entry of types alone, for `import type`.
      if (typeof target === 'string' || subpath.startsWith('./jsx/')) continue;
      assert.ok('default' in target || 'require' in target, `${subpath}: ${JSON.stringify(target)}`);
      assert.ok('types' in target, `${subpath} has types`);
    }
  });

  for (const [entry, name] of Object.entries(SERVER_ENTRIES))
    it(`require('${entry}') works from CommonJS on every maintained Node (${LINES}) and exports ${name}`, () => {
      const file = join(app.dir, `require-${entry.replace(/\W/g, '-')}.cjs`);
      writeFileSync(
        file,
        `const entry = require(${JSON.stringify(entry)});\n` +
          `if (typeof entry[${JSON.stringify(name)}] !== 'function') throw new Error('no ${name}: ' + Object.keys(entry));\n` +
          `console.log(Object.keys(entry).length);\n`,
      );
      for (const { version, node } of NODES) {
        const result = run(node(), [file], app.dir);
        assert.equal(result.status, 0, `require('${entry}') failed on Node ${version}:\n${result.out}`);
      }
    });

  for (const { version, node } of NODES)
    it(`an Express app in CommonJS serves the token handler against the simulator on Node ${version}`, () => {
      writeFileSync(join(app.dir, 'server.js'), EXPRESS_APP);
      const result = run(node(), ['server.js'], app.dir);
      assert.equal(result.status, 0, result.out);
      const answers = JSON.parse(
        result.out
          .trim()
          .split('\n')
          .find((line) => line.startsWith('{'))!,
      ) as Record<string, { status: number; body: { access_token?: string; expires_in?: number } | null }>;
      assert.equal(answers.first!.status, 200, JSON.stringify(answers));
      assert.ok(answers.first!.body!.access_token!.length > 0, 'a token');
      assert.ok(answers.first!.body!.expires_in! > 0, 'its lifetime');
      assert.equal(answers.again!.body!.access_token, answers.first!.body!.access_token, 'the cached token again');
      assert.equal(answers.anonymous!.status, 401, 'no session, no token');
    });
});

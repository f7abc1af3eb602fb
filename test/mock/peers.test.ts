import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isLoopbackAddress } from '../../src/core/loopback.js';
import { bindWarning, peerRefusal } from '../../packages/hub-embed-mock/src/peers.js';
import { useStartedSimulators } from './helpers.js';

const start = useStartedSimulators();

/** A non-loopback IPv4 address of this machine: connecting from it makes a real non-loopback peer. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

/** GET over a real socket from `from` to `to`, with the Host header an attacker would send. */
function getFrom(from: string, to: string, port: number, path: string, hostHeader = '127.0.0.1') {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({ host: to, port, path, localAddress: from, headers: { host: hostHeader } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a simulator bound beyond loopback answers loopback peers only (by socket address, not headers)', () => {
  it('loopback addresses in every spelling are loopback; everything else is not', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::FFFF:127.0.0.2'])
      expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['192.0.2.2', '10.0.0.1', '::ffff:192.0.2.2', 'fd00::2', '::', '0.0.0.0', '::2', '', undefined])
      expect(isLoopbackAddress(a), String(a)).toBe(false);
    expect(peerRefusal('192.0.2.2', false)).toMatch(/192\.0\.2\.2.+--allow-remote-clients/);
    expect(peerRefusal('192.0.2.2', true)).toBeUndefined();
    expect(peerRefusal('::ffff:127.0.0.1', false)).toBeUndefined();
  });

  it.skipIf(!external)(
    'with host 0.0.0.0, a peer on another address sending Host: 127.0.0.1 gets 403 on the console, the API and the form site; a loopback peer is answered',
    async () => {
      const mock = await start({ host: '0.0.0.0', onWarning: () => {} });
      const api = Number(new URL(mock.baseUrl).port);
      const form = Number(new URL(mock.formUrl).port);
      const seed = await getFrom(external!, external!, api, '/console/seed');
      expect(seed.status).toBe(403);
      expect(seed.text).toMatch(/clients on this machine only.+--allow-remote-clients/);
      expect(seed.text).not.toContain(mock.apiKey);
      expect((await getFrom(external!, external!, api, '/console/state', 'localhost')).status).toBe(403);
      expect((await getFrom(external!, external!, form, '/k3Xp9a?token=x')).status).toBe(403);
      const before = mock.hub.requestLog.length;
      expect((await getFrom(external!, external!, api, '/api/v1/hub/projects/published-tags')).status).toBe(403);
      expect(mock.hub.requestLog.length).toBe(before); // refused before the simulator saw it
      const local = await getFrom('127.0.0.1', '127.0.0.1', api, '/console/seed');
      expect(local.status).toBe(200);
      expect(local.text).toContain(mock.apiKey);
    },
  );

  it.skipIf(!external)(
    'allowRemoteClients lets a non-loopback peer in (and the start-up warning says so)',
    async () => {
      const warnings: string[] = [];
      const mock = await start({ host: '0.0.0.0', allowRemoteClients: true, onWarning: (m) => warnings.push(m) });
      const res = await getFrom(external!, external!, Number(new URL(mock.baseUrl).port), '/console/seed');
      expect(res.status).toBe(200);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/WARNING.+0\.0\.0\.0.+ANY MACHINE/s);
    },
  );

  it('binding beyond loopback warns loudly once at start-up; a loopback bind does not warn', async () => {
    const warnings: string[] = [];
    await start({ host: '0.0.0.0', onWarning: (m) => warnings.push(m) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^!{72}\nWARNING: the simulator listens on 0\.0\.0\.0, beyond loopback/);
    expect(warnings[0]).toMatch(/others get 403/);
    await start({ host: '127.0.0.1', onWarning: (m) => warnings.push(m) });
    await start({ host: '::1', onWarning: (m) => warnings.push(m) });
    expect(warnings).toHaveLength(1);
    for (const bindAddress of ['localhost', '127.0.0.1', '::1', '[::1]'])
      expect(bindWarning(bindAddress, false), bindAddress).toBeUndefined();
    for (const bindAddress of ['0.0.0.0', '::', '192.0.2.2', 'example.test'])
      expect(bindWarning(bindAddress, false), bindAddress).toMatch(/WARNING/);
  });
});

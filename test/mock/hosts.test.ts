import { describe, expect, it } from 'vitest';
import { checkAllowedHosts, hostHeaderRefusal } from '../../packages/hub-embed-mock/src/hosts.js';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { isLoopbackHost } from '../../src/core/loopback.js';
import { isFormUrl } from '../../src/react-native/form-checks.js';
import { rawRequest } from './raw-http.js';
import { useStartedSimulators } from './helpers.js';

const start = useStartedSimulators();

const portOf = (url: string) => new URL(url).port;

describe('the simulator answers only loopback hosts and the hosts it is told (DNS-rebinding defence)', () => {
  it('loopback names and addresses in any spelling are answered; every other Host is refused', () => {
    for (const hostHeader of [
      'localhost',
      'LOCALHOST:4010',
      'app.localhost:4010',
      'localhost.',
      '127.0.0.1:4010',
      '127.255.0.9',
      '[::1]:4010',
      '[0:0:0:0:0:0:0:1]',
    ])
      expect(hostHeaderRefusal(hostHeader, []), hostHeader).toBeUndefined();
    for (const hostHeader of [
      'evil.example',
      'evil.example:4010',
      'localhost.evil.example',
      '127.0.0.1.evil.example',
      '10.0.0.5',
      '0.0.0.0',
      '[::2]',
      '',
      'localhost@evil.example',
      'localhost/evil',
      'local host',
    ])
      expect(hostHeaderRefusal(hostHeader, []), hostHeader).toMatch(/not answered.+--allowed-host/);
    expect(hostHeaderRefusal('sim.test:8080', ['sim.test'])).toBeUndefined();
    expect(hostHeaderRefusal('SIM.test', checkAllowedHosts(['Sim.Test']))).toBeUndefined();
  });

  it('allowedHosts takes host names and addresses only: a scheme, a port or a path is a clear error', () => {
    expect(checkAllowedHosts(['sim.test', '10.0.0.5', '::1', '[fe80::1]'])).toEqual([
      'sim.test',
      '10.0.0.5',
      '[::1]',
      '[fe80::1]',
    ]);
    for (const bad of ['http://sim.test', 'sim.test:80', '[::1]:80', 'sim.test/x', '', 'a b', 7])
      expect(() => checkAllowedHosts([bad]), String(bad)).toThrow(/not a host name or address/);
    expect(() => checkAllowedHosts('sim.test')).toThrow(/array/);
    expect(() => createSimulator({ allowedHosts: ['http://sim.test'] })).toThrow(/allowedHosts/);
  });

  it('over real HTTP, a foreign Host gets 403 with a clear text on the API, the console and the form site, and changes nothing', async () => {
    const mock = await start();
    const keysBefore = JSON.stringify(mock.hub.snapshot());
    const body = '{}';
    const createKey = await rawRequest(
      mock.baseUrl,
      `POST /console/keys HTTP/1.1\nHost: rebind.evil.example:${portOf(mock.baseUrl)}\nContent-Type: application/json\nContent-Length: ${body.length}`,
      body,
    );
    expect(createKey.status).toBe(403);
    expect(createKey.text).toMatch(/Host "rebind\.evil\.example:\d+" is not answered/);
    expect(JSON.stringify(mock.hub.snapshot())).toBe(keysBefore);
    const state = await rawRequest(mock.baseUrl, `GET /console/state HTTP/1.1\nHost: rebind.evil.example`);
    expect(state.status).toBe(403);
    const form = await rawRequest(mock.formUrl, `GET /ab12?token=x HTTP/1.1\nHost: rebind.evil.example`);
    expect(form.status).toBe(403);
    expect(form.text).toMatch(/DNS rebinding/);
    expect(mock.hub.requestLog.slice(-3).map((e) => [e.site, e.status])).toEqual([
      ['api', 403],
      ['api', 403],
      ['form', 403],
    ]);
  });

  it('over real HTTP, loopback hosts and --allowed-host names are answered; a request without Host is refused', async () => {
    const mock = await start({ allowedHosts: ['sim.test'] });
    for (const hostHeader of [`localhost:${portOf(mock.baseUrl)}`, '127.0.0.1', 'sim.test', 'dev.localhost']) {
      const answer = await rawRequest(mock.baseUrl, `GET /console/state HTTP/1.1\nHost: ${hostHeader}`);
      expect(answer.status, hostHeader).toBe(200);
    }
    const noHost = await rawRequest(mock.baseUrl, `GET /console/state HTTP/1.0`);
    expect(noHost.status).toBe(400);
    expect(noHost.text).toMatch(/Send a Host header/);
  });

  it('in process (hub.fetch, no Host header) the handlers answer as before', async () => {
    const hub = createSimulator();
    expect((await hub.fetch(`${hub.baseUrl}/console/state`)).status).toBe(200);
    const refused = await hub.handleApi(
      new Request(`${hub.baseUrl}/console/state`, { headers: { host: 'evil.example' } }),
    );
    expect(refused.status).toBe(403);
  });
});

describe('loopback hosts', () => {
  it('is the one loopback rule: the form Modal of <HubEmbedView> and the simulator follow it', () => {
    for (const host of ['localhost', 'forms.localhost', '127.0.0.2', '[::1]', 'notlocalhost', '127.0.0.1.nip.io']) {
      const origin = `http://${host}:8080`;
      expect(isFormUrl(`${origin}/f`, [origin]), origin).toBe(isLoopbackHost(host));
      expect(hostHeaderRefusal(`${host}:8080`, []) === undefined, host).toBe(isLoopbackHost(host));
    }
  });
});

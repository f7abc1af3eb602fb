// One list of client-address headers for the toolkit's cross-check and for certify's grading: each one,
// naming another address through a trusted proxy, is refused.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { ClientAddressHeader } from '../../src/server/addresses.js';
import { CLIENT_ADDRESS_HEADERS } from '../../src/server/client-address-headers.js';
import { createWebhookHandler } from '../../src/server/webhook-handler.js';
import type { WebhookRejection } from '../../src/server/webhook-rejections.js';
import { ALLOWED, deductBody, webhookRequest } from './webhook-helpers.js';

const PROXY = '10.0.0.2';
const ATTACKER = '198.51.100.1';
const NAMEABLE: ClientAddressHeader[] = ['x-forwarded-for', 'x-real-ip', 'forwarded'];
const naming = (header: string, address: string) => (header === 'forwarded' ? `for=${address}` : address);

async function throughProxy(named: ClientAddressHeader, headers: Record<string, string>) {
  const rejections: WebhookRejection[] = [];
  const onBillingDeduct = vi.fn(() => true);
  const handler = createWebhookHandler({
    allowIps: [ALLOWED],
    trustedProxies: [PROXY],
    clientAddressHeader: named,
    refunds: 'decline',
    onBillingDeduct,
    onRejected: (rejection) => rejections.push(rejection),
  });
  const response = await handler(webhookRequest(deductBody('1.00'), { headers }), { remoteAddress: PROXY });
  return { status: response.status, rejections, called: onBillingDeduct.mock.calls.length };
}

const source = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const filesUnder = (folder: string) =>
  readdirSync(new URL(`../../${folder}`, import.meta.url)).map((name) => `${folder}/${name}`);

describe('the client-address headers: one list for the receiver and for certify', () => {
  it("certify grades by the toolkit's list: it imports it and spells no header of its own", () => {
    const rules = source('packages/hub-embed-mock/src/certify/address-headers.ts');
    expect(rules).toContain(
      "import { CLIENT_ADDRESS_HEADERS } from '../../../../src/server/client-address-headers.js';",
    );
    for (const file of [...filesUnder('packages/hub-embed-mock/src/certify'), ...filesUnder('src/server')]) {
      // The list itself, and the reader that knows how each header is written (one address, or hops).
      if (file.endsWith('client-address-headers.ts') || file.endsWith('forwarded-headers.ts')) continue;
      // Headers every proxy speaks (X-Forwarded-For, X-Real-IP, Forwarded) have other uses; these do not.
      for (const header of CLIENT_ADDRESS_HEADERS.filter((name) => !NAMEABLE.includes(name as ClientAddressHeader)))
        expect(source(file).toLowerCase(), `${file} spells ${header}`).not.toContain(`'${header}'`);
    }
  });

  it('holds each header once, in lower case', () => {
    expect(new Set(CLIENT_ADDRESS_HEADERS).size).toBe(CLIENT_ADDRESS_HEADERS.length);
    for (const header of CLIENT_ADDRESS_HEADERS) expect(header).toMatch(/^[a-z][a-z-]*$/);
  });

  const cases = NAMEABLE.flatMap((named) =>
    CLIENT_ADDRESS_HEADERS.filter((other) => other !== named).map((other) => [named, other] as const),
  );

  it.each(cases)('named %s: %s naming another address through a trusted proxy is refused', async (named, other) => {
    const result = await throughProxy(named, { [named]: naming(named, ALLOWED), [other]: naming(other, ATTACKER) });
    expect(result).toMatchObject({ status: 403, called: 0 });
    expect(result.rejections).toEqual([expect.objectContaining({ reason: 'forwarded-headers-conflict' })]);
  });

  it.each(cases)('named %s: %s naming the same client passes', async (named, other) => {
    const result = await throughProxy(named, { [named]: naming(named, ALLOWED), [other]: naming(other, ALLOWED) });
    expect(result).toMatchObject({ status: 200, called: 1 });
  });

  it.each(['x-forwarded', 'x-original-forwarded-for', 'forwarded-for'])(
    '%s is read as a list of hops: its client is the right-most hop that is not a trusted proxy',
    async (other) => {
      const behindProxy = await throughProxy('x-real-ip', { 'x-real-ip': ALLOWED, [other]: `${ATTACKER}, ${PROXY}` });
      expect(behindProxy.status).toBe(403);
      const appended = await throughProxy('x-real-ip', { 'x-real-ip': ALLOWED, [other]: `${ATTACKER}, ${ALLOWED}` });
      expect(appended.status).toBe(200);
    },
  );

  it('X-Forwarded in RFC 7239 form is read by its for= values', async () => {
    expect((await throughProxy('x-real-ip', { 'x-real-ip': ALLOWED, 'x-forwarded': `for=${ATTACKER}` })).status).toBe(
      403,
    );
    expect((await throughProxy('x-real-ip', { 'x-real-ip': ALLOWED, 'x-forwarded': `for=${ALLOWED}` })).status).toBe(
      200,
    );
  });
});

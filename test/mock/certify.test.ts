/**
 * `hub-embed-mock certify` is honest: a backend that keeps every rule is certified, and for each rule a
 * backend that breaks exactly that rule fails exactly that grade (test/mock/certify-backend.ts). The
 * service's webhook timeout is 1.5 s here instead of 10 s, so the late-answer rule stays quick.
 */
import { describe, expect, it } from 'vitest';
import { certify, certifyJunit, certifyTable, startSimulator, type CertifyReport } from '../../src/mock/index.js';
import { RECEIVER_RULES } from '../../src/mock/certify/receiver-rules.js';
import { TOKEN_RULES } from '../../src/mock/certify/token-rules.js';
import { startTestBackend } from './certify-backend.js';

const DELIVERY_TIMEOUT_MS = 1500;

async function grade(breaks?: string, extra: { origin?: boolean } = { origin: true }): Promise<CertifyReport> {
  const simulator = await startSimulator({ webhookTimeoutMs: DELIVERY_TIMEOUT_MS });
  const backend = await startTestBackend({
    apiKey: simulator.apiKey,
    baseUrl: simulator.baseUrl,
    formUrl: simulator.formUrl,
    deliveryTimeoutMs: DELIVERY_TIMEOUT_MS,
    ...(breaks ? { breaks } : {}),
  });
  try {
    return await certify({
      simulator,
      receiver: `${backend.origin}/hooks`,
      tokenRoute: `${backend.origin}/token`,
      sessions: backend.sessions,
      balance: `${backend.origin}/balance`,
      links: `${backend.origin}/links`,
      origin: extra.origin ? backend.origin : undefined,
      deliveryTimeoutMs: DELIVERY_TIMEOUT_MS,
    });
  } finally {
    await backend.close();
    await simulator.close();
  }
}

const failing = (report: CertifyReport) => report.rules.filter((rule) => rule.grade === 'fail').map((rule) => rule.id);

const ALL_RULES = [...TOKEN_RULES, ...RECEIVER_RULES].map((rule) => rule.id).concat('api-key-never-answered');

describe('hub-embed-mock certify', () => {
  it('certifies a backend that keeps every rule: all 19 pass, exit status 0', { timeout: 60_000 }, async () => {
    const report = await grade();
    expect(failing(report)).toEqual([]);
    expect(report.rules.map((rule) => rule.id).sort()).toEqual([...ALL_RULES].sort());
    expect(report.ok).toBe(true);
    expect(certifyTable(report)).toContain('19 passed, 0 failed, 0 not configured');
    expect(certifyJunit(report)).toMatch(/<testsuite name="hub-embed certify: receiver" tests="13" failures="0"/);
  });

  it.concurrent.each(ALL_RULES)(
    'a backend that breaks %s fails exactly that rule',
    { timeout: 120_000 },
    async (rule) => {
      const report = await grade(rule);
      expect(failing(report)).toEqual([rule]);
      expect(report.ok).toBe(false);
      const failed = report.rules.find((result) => result.id === rule)!;
      expect(failed.why).toBeTruthy();
      expect(certifyJunit(report)).toContain(`<failure message=`);
    },
  );

  it(
    'Origin rules not configured are listed as not graded and do not decide the exit status',
    { timeout: 60_000 },
    async () => {
      const report = await grade(undefined, { origin: false });
      expect(report.rules.find((rule) => rule.id === 'token.origin-rules')?.grade).toBe('not-configured');
      expect(report.ok).toBe(true);
    },
  );
});

/**
 * `hub-embed-mock certify` is honest: a backend that keeps every rule is certified, and for each rule a
 * backend that breaks exactly that rule fails exactly that grade (test/mock/certify-backend.ts). The
 * service's webhook timeout is 3 s here instead of 10 s, so the late-answer rule stays quick. Not less: the
 * grades run five at a time beside other lanes on two cores, where a delivery that exchanges a token has
 * taken longer than 1.5 s, and the backend's half-wait deadline for a deduct passed on a busy event loop.
 */
import { describe, expect, it } from 'vitest';
import {
  certify,
  certifyJunit,
  certifyTable,
  startSimulator,
  type CertifyReport,
  type RunningSimulator,
} from '../../packages/hub-embed-mock/src/index.js';
import { CONCURRENT_DEDUCTS, RECEIVER_RULES } from '../../packages/hub-embed-mock/src/certify/receiver-rules.js';
import { TOKEN_RULES } from '../../packages/hub-embed-mock/src/certify/token-rules.js';
import { HOSTILE, startTestBackend, type TestBackend } from './certify-backend.js';
import { STALE_TOKENS } from '../../packages/hub-embed-mock/src/certify/token-rules.js';
import { json } from '../../packages/hub-embed-mock/src/certify/report.js';

const DELIVERY_TIMEOUT_MS = 3000;

function certifyAgainst(
  simulator: RunningSimulator,
  backend: TestBackend,
  origin = true,
  receiverOnly = false,
): Promise<CertifyReport> {
  return certify({
    simulator,
    receiver: `${backend.origin}/hooks`,
    tokenRoute: receiverOnly ? undefined : `${backend.origin}/token`,
    users: receiverOnly ? ['user-alice'] : undefined,
    sessions: backend.sessions,
    balance: `${backend.origin}/balance`,
    links: `${backend.origin}/links`,
    origin: origin ? backend.origin : undefined,
    deliveryTimeoutMs: DELIVERY_TIMEOUT_MS,
  });
}

async function grade(
  breaks?: string,
  extra: { origin?: boolean; racesAfterBursts?: number; seen?: (backend: TestBackend) => void } = { origin: true },
): Promise<CertifyReport> {
  const simulator = await startSimulator({ webhookTimeoutMs: DELIVERY_TIMEOUT_MS });
  const backend = await startTestBackend({
    apiKey: simulator.apiKey,
    baseUrl: simulator.baseUrl,
    formUrl: simulator.formUrl,
    deliveryTimeoutMs: DELIVERY_TIMEOUT_MS,
    ...(breaks ? { breaks } : {}),
    ...(extra.racesAfterBursts === undefined ? {} : { racesAfterBursts: extra.racesAfterBursts }),
  });
  try {
    const report = await certifyAgainst(simulator, backend, extra.origin ?? true);
    extra.seen?.(backend);
    return report;
  } finally {
    await backend.close();
    await simulator.close();
  }
}

/** Two certify runs, each with a simulator of its own on the same ports, against one backend kept running. */
async function twoRuns(breaks?: string, secondReceiverOnly = false): Promise<[CertifyReport, CertifyReport]> {
  const first = await startSimulator({ webhookTimeoutMs: DELIVERY_TIMEOUT_MS });
  const ports = { apiPort: Number(new URL(first.baseUrl).port), formPort: Number(new URL(first.formUrl).port) };
  const backend = await startTestBackend({
    apiKey: first.apiKey,
    baseUrl: first.baseUrl,
    formUrl: first.formUrl,
    deliveryTimeoutMs: DELIVERY_TIMEOUT_MS,
    ...(breaks ? { breaks } : {}),
  });
  try {
    const one = await certifyAgainst(first, backend).finally(() => first.close());
    const second = await startSimulator({ webhookTimeoutMs: DELIVERY_TIMEOUT_MS, ...ports });
    try {
      return [one, await certifyAgainst(second, backend, true, secondReceiverOnly)];
    } finally {
      await second.close();
    }
  } finally {
    await backend.close();
  }
}

/** What a terminal acts on: C0 controls but the table's own newlines, DEL, C1, bidi overrides and isolates. */
const ACTED_ON = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const failing = (report: CertifyReport) => report.rules.filter((rule) => rule.grade === 'fail').map((rule) => rule.id);
/** Each failed rule with its reason: what an unexpected failure says, so that a run that fails shows why. */
const failures = (report: CertifyReport) =>
  report.rules
    .filter((rule) => rule.grade === 'fail')
    .map((rule) => `${rule.id}: ${rule.why}`)
    .join('\n');

/**
 * Rules a broken rule takes with it: the narrower case of the same mistake (no allow-list at all lets the
 * addresses that share its start in too; no event key at all lets a replay in after any window).
 */
const ALSO_BROKEN: Record<string, string[]> = {
  'token.unauthenticated-refused': ['token.tampered-session-refused'],
  'token.origin-rules': ['token.origin-prefix-refused', 'token.origin-classes-refused'],
  'receiver.address-not-allowed': ['receiver.address-prefix-not-allowed'],
  'receiver.deduct-charged-once': ['receiver.replay-after-window-not-applied'],
  'receiver.refund-given-back-once': ['receiver.replay-after-window-not-applied'],
  // No deadline at all is also none counted from arrival; one counted from the body's end is late at the end too.
  'receiver.late-answer-not-charged': ['receiver.deadline-counts-from-arrival'],
  'receiver.deadline-counts-from-arrival': ['receiver.late-answer-not-charged'],
};

/**
 * What a failure's report must say besides what was sent: what the backend did as the grader saw it (a
 * connection closed without a status line, a deduct charged with the service's time nearly gone, a
 * changed session given a token), and how a backend in any language reads the time a request arrived.
 */
const WHY_SAYS: Record<string, string> = {
  'receiver.bad-content-length-refused': 'closed after',
  'receiver.late-answer-not-charged': 'Read the clock when the request arrives, before reading its body',
  'receiver.deadline-counts-from-arrival': 'had passed since the request arrived',
  'token.tampered-session-refused': 'the session is not verified',
};

/**
 * How the grader once guessed at the mechanism behind what it saw: a question, the program in front of the
 * code, the shape of a key or a cache. Each was wrong for some backend that fails the same rule (no deadline
 * at all is not one counted from the body's end; a session checked with a README's secret is verified).
 */
const GUESSES =
  /\?\)|in front of (your|it)[^.]*(closed|waited)|your code never ran|counted from the body|event key without|files under the same key|kept by its path/;

const ALL_RULES = [...TOKEN_RULES, ...RECEIVER_RULES].map((rule) => rule.id).concat('api-key-never-answered');

describe('hub-embed-mock certify', () => {
  it('certifies a backend that keeps every rule: all pass, exit status 0', { timeout: 60_000 }, async () => {
    const report = await grade();
    expect(failing(report), failures(report)).toEqual([]);
    expect(report.rules.map((rule) => rule.id).sort()).toEqual([...ALL_RULES].sort());
    expect(report.ok).toBe(true);
    expect(certifyTable(report)).toContain(`${ALL_RULES.length} passed, 0 failed, 0 not configured`);
    expect(certifyJunit(report)).toContain(
      `<testsuite name="hub-embed certify: receiver" tests="${RECEIVER_RULES.length}" failures="0"`,
    );
  });

  it.concurrent.each(ALL_RULES)(
    'a backend that breaks %s fails exactly that rule (and the narrower ones it implies)',
    { timeout: 120_000 },
    async (rule) => {
      const report = await grade(rule);
      expect(failing(report).sort(), failures(report)).toEqual([rule, ...(ALSO_BROKEN[rule] ?? [])].sort());
      expect(report.ok).toBe(false);
      const failed = report.rules.find((result) => result.id === rule)!;
      expect(failed.why).toBeTruthy();
      if (WHY_SAYS[rule] !== undefined) expect(failed.why).toContain(WHY_SAYS[rule]);
      // certify rule: reasons describe what the backend did, not a guess at how.
      for (const result of report.rules) expect(result.why ?? '').not.toMatch(GUESSES);
      expect(certifyJunit(report)).toContain(`<failure message=`);
    },
  );

  it(
    "receiver.concurrent-deducts-never-overdraw's deducts are all in the backend at once before their last bytes go, though the grader and the backend share one event loop",
    { timeout: 60_000 },
    async () => {
      let most = 0;
      const report = await grade(undefined, { seen: (backend) => (most = backend.mostDeductsAtOnce()) });
      expect(failing(report), failures(report)).toEqual([]);
      expect(most).toBe(CONCURRENT_DEDUCTS);
    },
  );

  it(
    'a ledger whose deducts race only once they meet fails receiver.concurrent-deducts-never-overdraw, though its first burst happened to arrive one by one',
    { timeout: 120_000 },
    async () => {
      for (const racesAfterBursts of [1, 2]) {
        const report = await grade('receiver.concurrent-deducts-never-overdraw', { racesAfterBursts });
        expect(failing(report), failures(report)).toEqual(['receiver.concurrent-deducts-never-overdraw']);
      }
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

  it(
    'token.origin-prefix-refused says what the route did: every Origin let in, or only those that begin with the allowed one',
    { timeout: 120_000 },
    async () => {
      const why = async (breaks: string) =>
        (await grade(breaks)).rules.find((rule) => rule.id === 'token.origin-prefix-refused')?.why ?? '';
      // A route that checks no Origin at all: nothing about how it compares origins, for it compares none.
      const none = await why('token.origin-rules');
      expect(none).toMatch(
        /^a page on http:\/\/127\.0\.0\.1:\d+\.evil\.example got a token \(200\), and so did one on https:\/\/certify-stranger\.example: the route gave a token whatever Origin it was sent$/,
      );
      expect(none).not.toMatch(/start|begin/);
      // A route that refuses an unlike origin and lets the allowed one with more after it in.
      expect(await why('token.origin-prefix-refused')).toMatch(
        /, while one on https:\/\/certify-stranger\.example got none: the route let in an origin that begins with http:\/\/127\.0\.0\.1:\d+ and goes on$/,
      );
    },
  );

  it(
    'report.escapes-backend-text: the table prints what a backend sent, never a terminal escape, CR or bidi override',
    { timeout: 60_000 },
    async () => {
      const report = await grade('hostile-text');
      const quoted = report.rules.flatMap((rule) => [rule.why ?? '', ...rule.exchanges]);
      // The hostile text did reach the report: the table is what must not pass it on as is.
      expect(quoted.some((line) => line.includes('\u001b]52;'))).toBe(true);
      const table = certifyTable(report);
      expect(table).not.toMatch(ACTED_ON);
      expect(table).toContain('\\u001b]52;c;');
      expect(table).toContain('\\u202egnp.exe');
      // One summary line, the last, and it is the grader's own.
      const summaries = table.split('\n').filter((line) => /^\d+ passed, /.test(line));
      expect(summaries).toEqual([table.split('\n').at(-1)]);
      expect(summaries[0]).toMatch(/NOT CERTIFIED$/);
      // --json escapes the same characters and parses back to the same report.
      expect(json(report)).not.toMatch(ACTED_ON);
      expect(JSON.parse(json(report))).toEqual(report);
      expect(HOSTILE).toMatch(ACTED_ON);
    },
  );

  it(
    'certify.second-run: a second run against a backend still running passes; its stale tokens are replaced as the widget would',
    { timeout: 120_000 },
    async () => {
      const [first, second] = await twoRuns();
      expect(failing(first)).toEqual([]);
      expect(failing(second)).toEqual([]);
      const bound = second.rules.find((rule) => rule.id === 'token.bound-to-session-user')!;
      expect(bound.exchanges.join('\n')).toContain('a token of an earlier simulator');
    },
  );

  it(
    'certify.second-run: a backend that keeps the first run\u2019s tokens is told to restart, on every rule that needs them',
    { timeout: 120_000 },
    async () => {
      const [, second] = await twoRuns('token.unauthorized-gets-new-token');
      const failed = second.rules.filter((rule) => rule.grade === 'fail');
      expect(failed.map((rule) => rule.id)).toEqual(
        [...TOKEN_RULES, ...RECEIVER_RULES]
          .map((rule) => rule.id)
          // The rules that grade a refusal need no token of the backend's.
          .filter(
            (id) =>
              ![
                'token.unauthenticated-refused',
                'token.origin-prefix-refused',
                'token.origin-classes-refused',
                'token.jsonp-refused',
                'token.tampered-session-refused',
              ].includes(id),
          ),
      );
      for (const rule of failed) expect(rule.why).toContain(STALE_TOKENS);
      expect(certifyTable(second)).toContain('Restart your backend (or empty its token cache), then run certify again');
    },
  );

  it(
    'certify.second-run: a receiver graded alone that builds links with the first run\u2019s token is told to restart',
    { timeout: 120_000 },
    async () => {
      const [, second] = await twoRuns(undefined, true);
      expect(failing(second)).toEqual(['receiver.notification-link-by-rule']);
      const link = second.rules.find((rule) => rule.id === 'receiver.notification-link-by-rule')!;
      expect(link.why).toContain('its token is one of an earlier simulator');
      expect(link.why).toContain('restart your backend');
    },
  );
});

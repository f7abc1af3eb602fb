/**
 * The two pure rules that decide what happens to money (issue 79, item 1): what an answer to a recharge
 * proves (whatAnswerProves), and what the logs prove of an order sent at a given time (outcomeOf). Cases
 * are many, so most rules are properties over every status, code and time.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_SETTLE_WINDOW_MS,
  REFUSAL_STATUSES,
  outcomeOf,
  whatAnswerProves,
} from '../../src/server/recharge-decision.js';
import type { RechargeEvidence } from '../../src/server/recharge-evidence.js';
import { HubApiError, apiErrorFor } from '../../src/server/errors.js';
import { HubError } from '../../src/core/errors.js';
import { HubRechargePendingError } from '../../src/server/recharge-pending.js';
import type { PointsLogRecord } from '../../src/server/results.js';

const record: PointsLogRecord = {
  id: 1,
  source: 'transfer',
  recordType: 'recharge',
  changeCents: 500,
  amountCents: 500,
  balanceAfter: 500,
  reason: 'hub0123 Top-up',
  status: 'success',
  shortCode: null,
  projectId: null,
  createdAt: '2026-11-26T10:00:00Z',
};

describe('whatAnswerProves: only the service\u2019s own refusal, in its envelope, proves nothing was applied', () => {
  const cases: [string, unknown, 'refused' | 'nothing'][] = [
    ['a setting refused before anything was sent (config)', new HubError('config', 'bad'), 'refused'],
    ['402 in the envelope (the pool cannot cover it)', apiErrorFor(402, 'pool', 402), 'refused'],
    ['400 in the envelope (validation)', apiErrorFor(400, 'bad', 400), 'refused'],
    ['401 in the envelope (refused key)', apiErrorFor(401, 'key', 401), 'refused'],
    ['403 in the envelope (refused key)', apiErrorFor(403, 'key', 403), 'refused'],
    ['422 in the envelope (validation)', apiErrorFor(422, 'bad', 422), 'refused'],
    ['HTTP 200 whose envelope code is 402', apiErrorFor(402, 'pool', 402), 'refused'],
    ['400 status with envelope code 500 (contradicts itself)', new HubApiError(400, 'x', 500), 'nothing'],
    ['402 status with envelope code 503', new HubApiError(402, 'x', 503), 'nothing'],
    [
      '408 in the envelope (a timeout layer may answer while the request goes on)',
      apiErrorFor(408, 't', 408),
      'nothing',
    ],
    ['429 in the envelope (a rate-limit layer)', apiErrorFor(429, 'r', 429), 'nothing'],
    ['409 in the envelope (the order may exist)', apiErrorFor(409, 'c', 409), 'nothing'],
    ['404 in the envelope (a wrong path)', apiErrorFor(404, 'n', 404), 'nothing'],
    ['500 in the envelope', apiErrorFor(500, 'e', 500), 'nothing'],
    ['HTTP 200 whose envelope code is 500', apiErrorFor(500, 'e', 500), 'nothing'],
    ['502 from a gateway, not the envelope', apiErrorFor(502, 'g'), 'nothing'],
    ['402 without the envelope (a page, not the service)', apiErrorFor(402, 'p'), 'nothing'],
    ['400 without the envelope', apiErrorFor(400, 'p'), 'nothing'],
    ['a redirect (303)', apiErrorFor(303, 'see other'), 'nothing'],
    ['a timeout', new HubError('timeout', 'slow'), 'nothing'],
    ['a reset connection', new HubError('network', 'reset'), 'nothing'],
    ['an answer that is not the envelope', new HubError('invalid-response', 'html'), 'nothing'],
    ['a bare TypeError from fetch', new TypeError('fetch failed'), 'nothing'],
    ['a pending recharge', new HubRechargePendingError('o', 0, 'seen', undefined), 'nothing'],
    ['not an error at all', 'boom', 'nothing'],
    ['undefined', undefined, 'nothing'],
  ];
  for (const [what, error, proves] of cases)
    it(`${what}: ${proves}`, () => {
      expect(whatAnswerProves(error)).toBe(proves);
    });

  it('the refusal statuses are exactly 400, 401, 402, 403 and 422', () => {
    expect([...REFUSAL_STATUSES].sort()).toEqual([400, 401, 402, 403, 422]);
  });

  it('any status outside the refusal statuses proves nothing, whatever the envelope code', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 999 }).filter((status) => !REFUSAL_STATUSES.has(status)),
        fc.option(fc.integer({ min: -1000, max: 100_000 }), { nil: undefined }),
        (status, code) => {
          expect(whatAnswerProves(new HubApiError(status, 'x', code))).toBe('nothing');
          expect(whatAnswerProves(apiErrorFor(status, 'x', code))).toBe('nothing');
        },
      ),
    );
  });

  it('a refusal status with an envelope code that is not 5xx is a refusal; without the envelope, or with a 5xx code, nothing', () => {
    fc.assert(
      fc.property(fc.constantFrom(...REFUSAL_STATUSES), fc.integer({ min: -1000, max: 100_000 }), (status, code) => {
        const expected = code >= 500 && code <= 599 ? 'nothing' : 'refused';
        expect(whatAnswerProves(apiErrorFor(status, 'x', code))).toBe(expected);
        expect(whatAnswerProves(apiErrorFor(status, 'x'))).toBe('nothing');
      }),
    );
  });

  it('no error kind but config proves a refusal without a status', () => {
    const kinds = [
      'token',
      'unauthorized',
      'network',
      'timeout',
      'api',
      'invalid-response',
      'aborted',
      'no-host',
    ] as const;
    for (const kind of kinds) expect(whatAnswerProves(new HubError(kind, 'x', { code: 402 })), kind).toBe('nothing');
  });
});

describe('outcomeOf: applied on a credit record, not-applied only after the settle window, else pending', () => {
  const time = fc.oneof(
    fc.integer({ min: 0, max: 4_000_000_000_000 }),
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1),
  );
  const evidence: fc.Arbitrary<RechargeEvidence> = fc.oneof(
    fc.constant<RechargeEvidence>({ kind: 'credited', record, userId: 7 }),
    fc.nat(5).map((failedAttempts): RechargeEvidence => ({ kind: 'absent', failedAttempts })),
    fc.string().map((why): RechargeEvidence => ({ kind: 'unclear', why })),
  );
  const timing = fc.record({
    sentAt: fc.option(time, { nil: undefined }),
    now: time,
    settleWindowMs: fc.oneof(fc.constant(DEFAULT_SETTLE_WINDOW_MS), fc.integer({ min: 0, max: 7 * 24 * 3600 * 1000 })),
  });

  it('never not-applied while less than the settle window has passed since the last send (or the times are not numbers)', () => {
    fc.assert(
      fc.property(evidence, timing, (found, at) => {
        const outcome = outcomeOf(found, at);
        if (outcome.outcome === 'not-applied' && at.sentAt !== undefined) {
          expect(found.kind).toBe('absent');
          expect(Number.isFinite(at.now - at.sentAt)).toBe(true);
          expect(at.now - at.sentAt).toBeGreaterThanOrEqual(at.settleWindowMs);
        }
      }),
    );
  });

  it('applied whenever the logs hold the credit, at any time, with its record and user', () => {
    fc.assert(
      fc.property(timing, (at) => {
        expect(outcomeOf({ kind: 'credited', record, userId: 7 }, at)).toEqual({
          outcome: 'applied',
          record,
          userId: 7,
        });
      }),
    );
  });

  it('logs that cannot tell are pending for a person, at any time: never not-applied, no retry time', () => {
    fc.assert(
      fc.property(fc.string(), timing, (why, at) => {
        expect(outcomeOf({ kind: 'unclear', why }, at)).toEqual({ outcome: 'pending', why, retryAfterMs: undefined });
      }),
    );
  });

  it('absent and never sent: not-applied (nothing can be in flight)', () => {
    fc.assert(
      fc.property(fc.nat(5), time, (failedAttempts, now) => {
        expect(
          outcomeOf(
            { kind: 'absent', failedAttempts },
            { sentAt: undefined, now, settleWindowMs: DEFAULT_SETTLE_WINDOW_MS },
          ),
        ).toEqual({ outcome: 'not-applied' });
      }),
    );
  });

  it('absent: not-applied once the window has passed; before it, pending with the time left until it passes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.integer({ min: -3600_000, max: 3 * 3600_000 }),
        fc.integer({ min: 1, max: 24 * 3600_000 }),
        (sentAt, waited, settleWindowMs) => {
          const outcome = outcomeOf(
            { kind: 'absent', failedAttempts: 0 },
            { sentAt, now: sentAt + waited, settleWindowMs },
          );
          if (waited >= settleWindowMs) expect(outcome).toEqual({ outcome: 'not-applied' });
          else {
            expect(outcome.outcome).toBe('pending');
            // A clock that went back (waited < 0) waits the whole window, never less.
            const left = settleWindowMs - Math.max(0, waited);
            expect(outcome.outcome === 'pending' && outcome.retryAfterMs).toBe(left);
          }
        },
      ),
    );
  });

  it('the default settle window is 15 minutes', () => {
    expect(DEFAULT_SETTLE_WINDOW_MS).toBe(15 * 60 * 1000);
  });
});

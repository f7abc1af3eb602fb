/**
 * `certify`: grades an integrator's token route and webhook receiver, in any language, against the
 * spec's rules and docs/server.md's, by driving the simulator at them (docs/certify.md).
 */
import { API_PREFIX } from '../api.js';
import type { RunningSimulator } from '../node.js';
import { grade, type Answer, type Part, type Rule, type RuleResult } from './grading.js';
import { fieldAt, readHook } from './observe.js';
import { outputRule, type PrintedOutput } from './output-rule.js';
import { parseSession } from './probe.js';
import { RECEIVER_RULES } from './receiver-rules.js';
import type { ReceiverContext } from './receiver-sends.js';
import { summarise, type CertifyReport } from './report.js';
import { STALE_TOKENS, TOKEN_RULES, apiKeyRule, type TokenRouteContext } from './token-rules.js';

export interface CertifyOptions {
  /** The simulator to drive; its webhooks are pointed at `receiver`. The backend uses its base URL and key. */
  simulator: RunningSimulator;
  /** The webhook receiver's URL (the billing and notification URL). */
  receiver?: string | undefined;
  /** The token route's URL (what the widget's `token-endpoint` names). */
  tokenRoute?: string | undefined;
  /** `Header: value`, once per signed-in test user; two for the token route's rules. */
  sessions?: readonly string[] | undefined;
  /** End users the receiver is tested with when there is no token route to learn them from. */
  users?: readonly string[] | undefined;
  /** Test hook: GET with the first session answers JSON holding the user's balance in cents. */
  balance?: string | undefined;
  /** Where in that JSON the balance is (dotted), default `balance_cents`. */
  balanceField?: string | undefined;
  /** Test hook: GET with the first session answers JSON holding the notification links the receiver built. */
  links?: string | undefined;
  /** An origin the token route allows: Origin rules are graded when given. */
  origin?: string | undefined;
  /** The service's webhook timeout, default 10000 (the spec's). */
  deliveryTimeoutMs?: number | undefined;
  /** An address on no allow-list; default 127.0.0.2. */
  strangerAddress?: string | undefined;
  /**
   * What the backend printed, when certify started it (`certify -- <command>`): graded for the key and
   * tokens (the output rule). Without it that rule is not run: nothing else shows a backend's log.
   */
  output?: (() => PrintedOutput) | undefined;
  /** Called after each rule. */
  onRule?: ((result: RuleResult) => void) | undefined;
}

export class CertifyUsageError extends Error {}

function httpUrl(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // reported below
  }
  throw new CertifyUsageError(`${name} must be an absolute http(s) URL, not ${JSON.stringify(value)}.`);
}

export async function certify(options: CertifyOptions): Promise<CertifyReport> {
  const started = performance.now();
  const hub = options.simulator.hub;
  const receiver = httpUrl(options.receiver, '--receiver');
  const tokenRoute = httpUrl(options.tokenRoute, '--token-route');
  const balanceUrl = httpUrl(options.balance, '--balance');
  const linksUrl = httpUrl(options.links, '--links');
  const origin = options.origin === undefined ? undefined : new URL(httpUrl(options.origin, '--origin')!).origin;
  if (!receiver && !tokenRoute) throw new CertifyUsageError('Pass --receiver URL, --token-route URL, or both.');
  const sessions = (options.sessions ?? []).map((text) => {
    try {
      return parseSession(text);
    } catch (error) {
      throw new CertifyUsageError((error as Error).message);
    }
  });
  if (receiver && !balanceUrl)
    throw new CertifyUsageError(
      '--receiver needs --balance URL: a test hook showing the test user\u2019s balance, so the grader can see what was charged.',
    );
  if (receiver && !tokenRoute && (options.users ?? []).length === 0)
    throw new CertifyUsageError(
      '--receiver without --token-route needs --user ID: the end user the deliveries target.',
    );

  const answers: Answer[] = [];
  const results: RuleResult[] = [];
  const run = async <Context>(part: Part, rules: Rule<Context>[], context: Context) => {
    for (const rule of rules) {
      const result = await grade(part, rule, context);
      results.push(result);
      options.onRule?.(result);
    }
  };

  const users: (string | undefined)[] = [];
  if (tokenRoute) {
    const context: TokenRouteContext = { hub, tokenRoute, sessions, origin, answers, users, refreshed: new Map() };
    await run('token-route', TOKEN_RULES, context);
  }
  if (receiver) {
    const user = users[0] ?? options.users?.[0];
    // The user must be one the service knows (a trigger needs it): one exchange with the key, as a backend would.
    const userKnown = user === undefined ? false : await knownToService(options.simulator, user);
    hub.setWebhooks([{ notification_url: receiver, billing_url: receiver }]);
    let nonce = 0;
    const session = sessions[0];
    const readBalance = async (from: typeof session) => {
      const field = options.balanceField ?? 'balance_cents';
      const value = fieldAt(await readHook({ url: balanceUrl!, session: from }), field);
      if (typeof value !== 'number' || !Number.isSafeInteger(value))
        throw new Error(`the balance hook's ${field} is ${JSON.stringify(value)}, not a whole number of cents`);
      return value;
    };
    const otherUser = users[1];
    const otherSession = sessions[1];
    const context: ReceiverContext = {
      hub,
      receiverUrl: receiver,
      user: user ?? '',
      balance: () => readBalance(session),
      // The second session's user, for the rules that need a user besides the test user (the event key's user).
      other:
        otherUser !== undefined && otherSession !== undefined && otherUser !== user
          ? { user: otherUser, balance: () => readBalance(otherSession) }
          : undefined,
      links: linksUrl ? () => readHook({ url: linksUrl, session }) : undefined,
      shortCode: hub.triggerPreview({ event: 'order_matched' }).body.short_code,
      deliveryTimeoutMs: options.deliveryTimeoutMs ?? 10_000,
      strangerAddress: options.strangerAddress ?? '127.0.0.2',
      answers,
      nonce: () => `${Date.now().toString(36)}-${++nonce}`,
      async makeKnown(other) {
        if (!(await knownToService(options.simulator, other)))
          throw new Error(`the simulator refused to know ${other}`);
      },
    };
    if (!userKnown) {
      const stale = results.find((result) => result.why?.includes(STALE_TOKENS))?.why;
      const why =
        user === undefined
          ? `no test user: the token route gave no session a token${stale === undefined ? '' : ` (${stale})`}`
          : `the service does not know ${user}`;
      for (const rule of RECEIVER_RULES)
        results.push({
          id: rule.id,
          part: 'receiver',
          title: rule.title,
          grade: 'fail',
          required: true,
          why,
          exchanges: [],
          ms: 0,
        });
    } else await run('receiver', RECEIVER_RULES, context);
  }
  await run(tokenRoute ? 'token-route' : 'receiver', answerRules(options.simulator), { answers });
  if (options.output)
    await run(tokenRoute ? 'token-route' : 'receiver', [outputRule(hub, options.simulator.apiKey, options.output)], {});
  return summarise(results, {
    baseUrl: options.simulator.baseUrl,
    formUrl: options.simulator.formUrl,
    receiver: receiver ?? null,
    tokenRoute: tokenRoute ?? null,
    ms: Math.round(performance.now() - started),
  });
}

/**
 * Rules graded last, over every answer of both parts (each tagged with its part and, for the receiver,
 * its event): a check of what answers hold, whichever rule drew them, belongs here.
 */
function answerRules(simulator: RunningSimulator): Rule<{ answers: Answer[] }>[] {
  return [apiKeyRule(simulator.apiKey)];
}

async function knownToService(simulator: RunningSimulator, user: string): Promise<boolean> {
  const res = await simulator.hub.fetch(`${simulator.baseUrl}${API_PREFIX}/apikeys/token`, {
    method: 'POST',
    headers: { 'x-api-key': simulator.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ client_user_id: user }),
  });
  await res.body?.cancel();
  return res.status === 200;
}

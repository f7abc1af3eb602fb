/** The grader's vocabulary: a rule, what it noted (sent and answered), and its grade. */

export type Part = 'receiver' | 'token-route';

/**
 * One answer the backend gave, kept for the rules graded over all answers (the API key rule): the part
 * it came from, and for the receiver the event the delivery said it was (X-Webhook-Event).
 */
export interface Answer {
  part: Part;
  event?: string;
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
  ms: number;
}
export type Grade = 'pass' | 'fail' | 'not-configured';

export interface RuleResult {
  id: string;
  part: Part;
  /** The rule as the spec or docs/server.md states it. */
  title: string;
  grade: Grade;
  /** Whether the exit code depends on it; a rule for a feature not configured (Origin rules) is not. */
  required: boolean;
  /** Why it failed (or why it was not graded). */
  why?: string;
  /** What was sent and what was answered, one line each. */
  exchanges: string[];
  ms: number;
}

/** Thrown by a rule's check: the rule fails with this reason. */
export class RuleFailure extends Error {}

/** Thrown by a rule whose feature the integrator did not configure: not graded, not required. */
export class NotConfigured extends Error {}

export function check(condition: unknown, why: string): asserts condition {
  if (!condition) throw new RuleFailure(why);
}

export interface Rule<Context> {
  id: string;
  title: string;
  run(context: Context, note: (line: string) => void): Promise<void>;
}

export async function grade<Context>(part: Part, rule: Rule<Context>, context: Context): Promise<RuleResult> {
  const exchanges: string[] = [];
  const started = performance.now();
  const result = (grade: Grade, why?: string): RuleResult => ({
    id: rule.id,
    part,
    title: rule.title,
    grade,
    required: grade !== 'not-configured',
    ...(why === undefined ? {} : { why }),
    exchanges,
    ms: Math.round(performance.now() - started),
  });
  try {
    await rule.run(context, (line) => exchanges.push(line));
    return result('pass');
  } catch (error) {
    if (error instanceof NotConfigured) return result('not-configured', error.message);
    if (error instanceof RuleFailure) return result('fail', error.message);
    return result('fail', `the grader could not finish this rule: ${(error as Error).message}`);
  }
}

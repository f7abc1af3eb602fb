/** The webhook receiver's HTTP answers: JSON that is never cached, and the error text for each body problem. */
import type { BodyProblem } from './body.js';

export const BODY_MESSAGE: Record<BodyProblem, string> = {
  'too-large': 'Body too large.',
  'too-slow': 'Body too slow.',
  'bad-encoding': 'Body is not UTF-8.',
  'bad-json': 'Body is not valid JSON.',
};

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

export function problem(status: number, error: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

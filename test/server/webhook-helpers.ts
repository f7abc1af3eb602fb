/** Builders for webhook requests as the service sends them (spec, Events). */

export const ALLOWED = '203.0.113.7';

export function eventBody(event: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event,
    timestamp: '2025-01-02T10:00:00+08:00',
    short_code: 'abc123',
    project_icon_url: null,
    target: { client_user_id: 'user-1' },
    ...extra,
  };
}

export function deductBody(amount: unknown, reason = 'Unlock contact'): Record<string, unknown> {
  return eventBody('billing_deduct', { billing: { amount, reason } });
}

export function webhookRequest(
  body: unknown,
  init: { method?: string; headers?: Record<string, string>; event?: string | null; raw?: string } = {},
): Request {
  const event = init.event === undefined ? (body as { event?: string }).event : init.event;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-webhook-timestamp': '1735783200' };
  if (event !== null && event !== undefined) headers['x-webhook-event'] = event;
  const method = init.method ?? 'POST';
  return new Request('http://receiver.test/hooks', {
    method,
    headers: { ...headers, ...init.headers },
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: init.raw ?? JSON.stringify(body) }),
  });
}

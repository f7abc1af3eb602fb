/**
 * The form page's report that it refused its token (revoked, a service restart, a clock ahead): the form
 * site's load message, `{source: 'hub-form', type: 'load', ok: false, reason: 'unauthorized'}`. Heard by
 * the widget's form dialog and by <HubEmbedView>'s form Modal alike.
 */
export function refusesToken(data: unknown): boolean {
  const message = data as Record<string, unknown> | null;
  return (
    message?.source === 'hub-form' &&
    message.type === 'load' &&
    message.ok === false &&
    message.reason === 'unauthorized'
  );
}

// The app's getToken for <HubEmbedView>: asks your token route with the app's session, and passes on
// why the widget needs a token. With `unauthorized` the service refused `previous` early; your route then
// drops it (createTokenHandler does) instead of handing back the cached one. On iOS and Android the session
// is the app's bearer token (`sessionToken`); on the web, without one, it is the browser's cookie for the
// app's own origin, which a same-origin fetch sends.
// #region get-token
import type { HubEmbedViewProps } from 'hub-embed/react-native';

/** <HubEmbedView>'s getToken, async as a DOM component's native action must be too. */
type GetToken = (
  request: Parameters<NonNullable<HubEmbedViewProps['getToken']>>[0],
) => Promise<{ access_token: string; expires_in: number }>;

export function hubTokenFrom(routeUrl: string, sessionToken?: () => string): GetToken {
  return async ({ reason, previous }) => {
    const response = await fetch(routeUrl, {
      method: 'POST',
      headers: {
        ...(sessionToken && { authorization: `Bearer ${sessionToken()}` }),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ reason, previous }),
    });
    if (!response.ok) throw new Error(`token route answered ${response.status}`);
    return (await response.json()) as { access_token: string; expires_in: number };
  };
}
// #endregion get-token

// The tokens form pages refused, and what replaced them: <HubEmbedView> puts a live token into the next form
// URL a page builds from a refused one. No React here: the view's hook (use-hub-embed-view.ts) holds one.

/** Asks the app (its getToken) for a token in place of `previous`, which a form page refused. */
export type ReplaceToken = (request: {
  reason: 'unauthorized';
  previous: string;
}) => { access_token: string } | Promise<{ access_token: string }>;

/** How many replacements one URL's token is followed through: a getToken that hands back refused tokens must not loop. */
const MAX_HOPS = 4;

/**
 * Each token a form page refused, with the one the app's getToken gave in its place (undefined until one
 * is asked for). The page still holds a refused token, and builds the next form URL from it: the view
 * puts the newest replacement in that URL, so the next open loads with a live token.
 */
export class RefusedTokens {
  #replaced = new Map<string, string | undefined>();

  /** Whether any token was refused: until one is, every URL is live as it is. */
  get any(): boolean {
    return this.#replaced.size > 0;
  }

  /** `token` is known as refused from now on; a replacement it already has stays. */
  refuse(token: string): void {
    if (!this.#replaced.get(token)) this.#replaced.set(token, undefined);
  }

  /**
   * `url` with a live token: the newest replacement of a refused one in it (asked for now, through
   * `replace`, when none came yet). A failing `replace` leaves the URL as it was: its form then reports the
   * refusal again.
   */
  async liveUrl(url: string, replace: ReplaceToken): Promise<string> {
    const live = new URL(url);
    let token = live.searchParams.get('token') ?? '';
    for (let hop = 0; this.#replaced.has(token) && hop < MAX_HOPS; hop++) {
      const next = this.#replaced.get(token) ?? (await this.#replace(token, replace).catch(() => undefined));
      if (!next) break;
      token = next;
    }
    if (token === live.searchParams.get('token')) return url;
    live.searchParams.set('token', token);
    return live.href;
  }

  async #replace(previous: string, replace: ReplaceToken): Promise<string> {
    const { access_token } = await replace({ reason: 'unauthorized', previous });
    this.#replaced.set(previous, access_token);
    return access_token;
  }
}

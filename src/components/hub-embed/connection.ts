import { sharedTokenSource } from '../../core/endpoint.js';
import { HubError } from '../../core/errors.js';
import { TokenSource, type TokenProvider } from '../../core/token-source.js';
import { parseFormSite } from '../../core/urls.js';
import { WebClient } from '../../core/web-client.js';
import { preconnect } from './dom.js';

/** The settings of <hub-embed> that a connection is made from. */
export interface ConnectionSettings {
  readonly tokenEndpoint: string;
  readonly baseUrl: string;
  readonly formUrl: string;
  readonly tokenProvider?: TokenProvider;
}

/**
 * What hub-embed/define adds to a refused setting (src/define.ts): a 'config' HubError that says better
 * why, or undefined to let the refusal's own error stand. Async, so that its code loads only when asked;
 * it never rejects (a check that cannot load lets the refusal's own error stand).
 */
export type SetupCheck = (element: HTMLElement) => Promise<HubError | undefined>;

let setupCheck: SetupCheck | undefined;

/** Plugs in a setup check of an entry that can afford it (the <script> bundle's first file cannot). */
export function useSetupCheck(check: SetupCheck): void {
  setupCheck = check;
}

/**
 * The error to show for `error`, thrown while `element`'s connection was made: a refused setting ('config')
 * as the setup check explains it, where the entry has one; any other error as it is. Only a refusal is
 * checked: settings that work are never refused for what else the tag holds. A promise only where there is
 * a check to wait for, so that an entry without one shows its errors as soon as before.
 */
export function explainRefusal(error: unknown, element: HTMLElement): unknown {
  return setupCheck && error instanceof HubError && error.kind === 'config'
    ? setupCheck(element).then((better) => better ?? error)
    : error;
}

/**
 * How one <hub-embed> reaches the service with its settings as they are: the token source and the API
 * client over it, made together and handed to the loader and the form half alike, so that the lists and
 * the forms share each token, and a token that either finds refused is dropped for both.
 */
export class Connection {
  readonly tokens: TokenSource;
  readonly client: WebClient;

  /**
   * `hostTokens`: the native host's provider, which comes first, then the page's; else token-endpoint's
   * source, shared by the widgets of the page. No checks of its own: parseFormSite, tokenFromEndpoint and
   * WebClient refuse a missing or bad form-url, token-endpoint and base-url with a 'config' HubError
   * naming the attribute (which explainRefusal may explain better). A connection is there only for
   * settings that passed them.
   */
  constructor(settings: ConnectionSettings, hostTokens?: TokenProvider) {
    parseFormSite(settings.formUrl);
    const provider = hostTokens || settings.tokenProvider;
    this.tokens = provider ? new TokenSource(provider) : sharedTokenSource(settings.tokenEndpoint);
    this.client = new WebClient({ baseUrl: settings.baseUrl, tokens: this.tokens });
    preconnect(settings.baseUrl, true);
  }
}

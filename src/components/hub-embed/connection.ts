import { sharedTokenSource } from '../../core/endpoint.js';
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
 * What hub-embed/define adds to a refused setting (src/define.ts): it throws a 'config' HubError that says
 * better why, or returns to let the refusal's own error stand.
 */
export type SetupCheck = (element: ConnectionSettings & HTMLElement) => void;

let setupCheck: SetupCheck | undefined;

/** Plugs in a setup check of an entry that can afford it (the <script> bundle's first file cannot). */
export function useSetupCheck(check: SetupCheck): void {
  setupCheck = check;
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
   * naming the attribute. A connection is there only for settings that passed them.
   */
  constructor(settings: ConnectionSettings & HTMLElement, hostTokens?: TokenProvider) {
    try {
      parseFormSite(settings.formUrl);
      const provider = hostTokens || settings.tokenProvider;
      this.tokens = provider ? new TokenSource(provider) : sharedTokenSource(settings.tokenEndpoint);
      this.client = new WebClient({ baseUrl: settings.baseUrl, tokens: this.tokens });
    } catch (error) {
      // Only then: settings that work are never refused for what else the tag holds.
      setupCheck?.(settings);
      throw error;
    }
    preconnect(settings.baseUrl, true);
  }
}

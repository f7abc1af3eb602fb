import { sharedTokenSource } from '../../core/endpoint.js';
import { TokenSource, type TokenProvider } from '../../core/token-source.js';
import { WebClient } from '../../core/web-client.js';
import { preconnect } from './dom.js';

/** The settings of <hub-embed> that a connection is made from. */
export interface ConnectionSettings {
  readonly tokenEndpoint: string;
  readonly baseUrl: string;
  readonly tokenProvider?: TokenProvider;
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
   * source, shared by the widgets of the page. No checks of its own: tokenFromEndpoint and WebClient refuse
   * a missing or bad token-endpoint and base-url with a 'config' HubError naming the attribute (which
   * explainError may explain better). form-url is the form half's to check (FormOpener.checkFormSite):
   * the lists need none, and no form URL is made before it passes.
   */
  constructor(settings: ConnectionSettings, hostTokens?: TokenProvider) {
    const provider = hostTokens || settings.tokenProvider;
    this.tokens = provider ? new TokenSource(provider) : sharedTokenSource(settings.tokenEndpoint);
    this.client = new WebClient({ baseUrl: settings.baseUrl, tokens: this.tokens });
    preconnect(settings.baseUrl, true);
  }
}

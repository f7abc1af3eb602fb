import type { TokenProvider } from '../../core/token-source.js';
import { HubElement } from '../base.js';
import type { OpenMode } from './form-opener.js';

/**
 * Properties whose change means a new client, a new token source, and loading everything again. Typed
 * as keys of the element, so that a misspelt key (`'limits'`) fails to compile instead of never matching.
 */
export const SETUP = [
  'tokenEndpoint',
  'baseUrl',
  'formUrl',
  'tokenProvider',
  'limit',
  'bridge',
  'bridgeOrigins',
] as const satisfies readonly (keyof HubEmbedSettings)[];

const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** Reactive internal state: no attribute, so neither observed nor listed in the manifest. */
const internal = { attribute: false };

/**
 * The settings of <hub-embed>: its reactive properties, their attributes and defaults, apart from what the
 * element does with them (hub-embed.ts), so that each file reads as one job. Not registered on its own.
 */
export class HubEmbedSettings extends HubElement {
  static override properties = {
    opening: internal,
    tokenEndpoint: { attribute: 'token-endpoint' },
    baseUrl: { attribute: 'base-url' },
    formUrl: { attribute: 'form-url' },
    tags: { converter: list },
    limit: { type: Number },
    matchesOnly: { type: Boolean, attribute: 'matches-only' },
    theme: { reflect: true },
    openMode: { attribute: 'open-mode' },
    tokenProvider: { attribute: false },
    bridge: {},
    bridgeOrigins: { attribute: 'bridge-origins', converter: list },
  };

  /** The short code of the table whose form is being opened (its card shows busy meanwhile). */
  declare protected opening?: string;

  /** Your backend's route answering `{access_token, expires_in}` for the signed-in user. */
  declare tokenEndpoint: string;
  /**
   * The service's API root, e.g. the deployment's `https://host/api/v1/apihub` (a path ending in
   * `/api/v<n>/<segment>` is taken as given), or its `{base_url}`, which gets the spec's `/api/v1/hub`.
   */
  declare baseUrl: string;
  /** The form site's `{form_url}`; https unless loopback. */
  declare formUrl: string;
  /** The selected tags; the attribute is comma-separated and sets the initial selection. */
  declare tags: string[];
  /** Most tables to list; unset leaves it to the service. */
  declare limit?: number;
  /**
   * With tags selected, show only the tables that match them. By default the tables the service adds
   * to fill `limit` follow, below a divider.
   */
  declare matchesOnly: boolean;
  /** `light`, `dark`, or `auto` (the system's). */
  declare theme: 'light' | 'dark' | 'auto';
  /**
   * `modal` (a dialog), `inline` (replaces the grid) or `navigate` (top-level navigation). In `modal`, the
   * form of a card the pointer rests on loads in the closed dialog beforehand, so that its click shows it.
   */
  declare openMode: OpenMode;
  /**
   * Supplies tokens instead of token-endpoint, e.g. from a native host, or `tokenFromEndpoint(url,
   * {headers})` for a token endpoint on another origin that reads a bearer header (docs/webview-capacitor.md).
   */
  declare tokenProvider?: TokenProvider;
  /**
   * `auto`: talk to a WebView host through the bridge when one answers the handshake. Default `off`:
   * a plain web page then never probes host globals or messages its parent frame.
   */
  declare bridge: 'off' | 'auto';
  /** Exact origins of a parent frame that may act as the host (comma-separated attribute); no wildcard. */
  declare bridgeOrigins: string[];

  constructor() {
    super();
    this.matchesOnly = false;
    this.tokenEndpoint = '';
    this.baseUrl = '';
    this.formUrl = '';
    this.tags = [];
    this.theme = 'auto';
    this.openMode = 'modal';
    this.bridge = 'off';
    this.bridgeOrigins = [];
  }
}

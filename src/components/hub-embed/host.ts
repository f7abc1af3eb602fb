import type { TokenProvider } from '../../core/token-source.js';
import type { HubEventDetails, HubEventName } from '../events.js';

/**
 * What ties one `<hub-embed bridge="auto">` to a native host. The WebView build makes it (src/webview/host-link.ts,
 * on the bridge); the element knows only this, so the plain `<script>` bundle carries no bridge code.
 */
export interface HostLink {
  /** Settles when it is known whether a host answered (at once when there is no host object). */
  readonly ready: Promise<unknown>;
  /**
   * After `ready`: the host's token provider, when the host supplies tokens; undefined, to use the page's
   * own. Throws the `no-host` HubError when no host answered and the page has no token source of its own.
   */
  tokens(): TokenProvider | undefined;
  /** Offers the form to the host: true when the host opened it, false to open it in the page. Never rejects. */
  openForm(request: { shortCode: string; url: string }): Promise<boolean>;
  /** Everything the element tells the page (its `hub-*` events, the form page's messages), for the host. */
  tell<Name extends HubEventName>(type: Name, detail: HostEventDetails[Name]): void;
  close(): void;
}

/** What the host hears of each event: its detail, and for the form page's messages also whose form it is. */
export type HostEventDetails = Omit<HubEventDetails, 'hub-form-message'> & {
  'hub-form-message': HubEventDetails['hub-form-message'] & { shortCode: string };
};

/** What a host may ask of the element (its public methods that answer the host's requests), and its own token source. */
export interface LinkedElement extends Node {
  /** The element's `locale`; the host hears the language it shows (its `lang`'s, else the page's) with widget.ready. */
  readonly locale?: string;
  readonly tokenEndpoint: string;
  readonly tokenProvider?: TokenProvider;
  refresh(): Promise<void>;
  setTags(tags: string[]): void;
  closeForm(): boolean;
}

/** Makes the HostLink of a connected element with bridge="auto" for its `bridge-origins`; undefined: none. */
export type HostLinker = (element: LinkedElement, allowedParentOrigins: string[]) => HostLink | undefined;

let linker: HostLinker | undefined;

/**
 * Plugs in what bridge="auto" connects through: the WebView build's `enableBridge()`, or (as a `fallback`
 * that never replaces a bridge) the plain builds' notice that they have none (src/define-plain.ts).
 */
export function useHostLinker(make: HostLinker, fallback?: boolean): void {
  if (!fallback || !linker) linker = make;
}

/** A <hub-embed> as its host link sees it: with bridge="auto" while connected, it has one. */
export interface BridgedElement extends LinkedElement {
  readonly isConnected: boolean;
  readonly bridge: 'off' | 'auto';
  readonly bridgeOrigins: string[];
}

/**
 * The host link of one element: one while it is connected with bridge="auto", from whatever was plugged in
 * (none in a build without a bridge), made again when its `bridge-origins` change.
 */
export class HostSeat {
  link?: HostLink;
  /** What the link was made for; undefined when there is none. */
  #key?: string;

  sync(element: BridgedElement): void {
    const key = element.isConnected && element.bridge === 'auto' ? element.bridgeOrigins.join(',') : undefined;
    if (key === this.#key) return;
    this.link?.close();
    this.link = undefined;
    this.#key = key;
    if (key !== undefined) this.link = linker?.(element, element.bridgeOrigins);
  }
}

/**
 * Tells `link`'s host one of the element's own events (`go`: no listener cancelled it). The form page's
 * messages reach the host through the form half instead. A table-select the page vetoed opens nothing, so
 * the host hears nothing of it; a hub-error the page handled (kept off the console) the host still hears.
 */
export function tellHost<Name extends HubEventName>(
  link: HostLink | undefined,
  name: Name,
  detail: HubEventDetails[Name],
  go = true,
): void {
  if (name !== 'hub-form-message' && (go || name !== 'hub-table-select'))
    link?.tell(name, detail as HostEventDetails[Name]);
}

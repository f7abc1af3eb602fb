/** Wire protocol v1 of the hub-embed WebView bridge: envelope, error codes, defensive parsing. */
import { isRecord } from '../core/http.js';

export const BRIDGE_NS = 'hub-embed';
export const BRIDGE_VERSION = 1;
/**
 * Larger messages are refused rather than risk silent truncation in some native channels
 * (a ~2 M-character limit was reported for old Android bridges); pass large data by URL.
 */
export const MAX_MESSAGE_CHARS = 4 * 1024 * 1024;

/** The closed set of error codes a bridge call can fail with. */
export const BRIDGE_ERROR_CODES = [
  'E_NO_HANDLER',
  'E_TIMEOUT',
  'E_CANCELLED',
  'E_DENIED',
  'E_UNSUPPORTED',
  'E_VERSION',
  'E_INTERNAL',
] as const;

export type BridgeErrorCode = (typeof BRIDGE_ERROR_CODES)[number];

const isErrorCode = (value: unknown): value is BridgeErrorCode =>
  (BRIDGE_ERROR_CODES as readonly unknown[]).includes(value);

/** A failed bridge call. `code` is from a closed set, so callers can branch on it. */
export class BridgeError extends Error {
  override readonly name = 'BridgeError';

  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type MessageKind = 'req' | 'res' | 'evt' | 'cancel';

/**
 * The ways a page reaches its host, as the host's marker names them (`__HUB_EMBED_BRIDGE__.transport`).
 * Here rather than beside the transports, which read the page's window: the host side (src/host, React
 * Native) names them too, and its declarations must type-check without the DOM library.
 */
export type TransportName = 'react-native' | 'webkit' | 'android' | 'wechat' | 'parent';

/** One message on the wire, always sent as a JSON string. */
export interface BridgeMessage {
  ns: typeof BRIDGE_NS;
  v: typeof BRIDGE_VERSION;
  sid: string;
  id: string;
  kind: MessageKind;
  method?: string;
  params?: unknown;
  ok?: boolean;
  result?: unknown;
  error?: { code: BridgeErrorCode; message: string };
  nonce?: string;
}

/**
 * One message as it goes on the wire: the namespace and version, the message, and the nonce of the host's
 * marker when there is one (JSON.stringify leaves an undefined nonce out). Both sides send every message
 * through it: the host kernel, and the page's bridge (bridge.ts), which also refuses a message over
 * MAX_MESSAGE_CHARS before it reaches a native channel that would truncate it.
 */
export function envelope(message: Partial<BridgeMessage>, nonce?: string): string {
  return JSON.stringify({ ns: BRIDGE_NS, v: BRIDGE_VERSION, ...message, nonce });
}

// JSON.parse makes `__proto__` an own property, which is harmless until some code copies it with
// Object.assign; dropping these keys at parse time closes that door for every consumer.
const dropPollutingKeys = (key: string, value: unknown) =>
  /^(__proto__|constructor|prototype)$/.test(key) ? undefined : value;

/**
 * Parses one inbound message. Returns a reason string instead of throwing, because hostile or
 * foreign traffic is expected on shared channels and must simply be ignored: 'foreign' for another
 * namespace or protocol version, 'malformed' for anything else that is not a valid v1 envelope.
 */
export function parseMessage(raw: unknown): BridgeMessage | string {
  // A non-string is refused before JSON.parse, which would coerce it ("[object Object]").
  if (typeof raw !== 'string' || raw.length > MAX_MESSAGE_CHARS) return 'malformed';
  // Every member unchecked until checked below; optional chaining reads none of null or a primitive.
  let fields: { [Key in keyof BridgeMessage]?: unknown } | null;
  try {
    fields = JSON.parse(raw, dropPollutingKeys) as typeof fields;
  } catch {
    return 'malformed';
  }
  if (fields?.ns !== BRIDGE_NS || fields.v !== BRIDGE_VERSION) return 'foreign';
  const { kind } = fields;
  // Requests and events name a method; responses and cancels refer to a request by its id.
  const kindOk =
    kind === 'req' || kind === 'evt' ? typeof fields.method === 'string' : kind === 'res' || kind === 'cancel';
  if (!kindOk || typeof fields.sid !== 'string' || typeof fields.id !== 'string' || fields.id.length > 64)
    return 'malformed';
  if (kind === 'res' && fields.ok !== true) {
    // A host's error as the page passes it on: a code from the closed set (else E_INTERNAL), a short text.
    const { code, message }: Record<string, unknown> = isRecord(fields.error) ? fields.error : {};
    fields.error = {
      code: isErrorCode(code) ? code : 'E_INTERNAL',
      message: typeof message === 'string' ? message.slice(0, 500) : 'host error',
    };
  }
  return fields as BridgeMessage;
}

/**
 * Any failure as a BridgeError: a BridgeError as it is; a WKScriptMessageHandlerWithReply
 * `errorMessage` of the form "E_DENIED: text" with that code; anything else E_INTERNAL.
 */
export function toBridgeError(reason: unknown): BridgeError {
  if (reason instanceof BridgeError) return reason;
  // An Error's message (or a WKWebView reply's errorMessage as an Error); anything else as text.
  const text = String((isRecord(reason) ? reason.message : undefined) ?? reason).slice(0, 500);
  const code = text.split(':')[0];
  return isErrorCode(code)
    ? new BridgeError(code, text.slice(code.length + 1).trim() || code)
    : new BridgeError('E_INTERNAL', text);
}

/** The `ok: false` part of a reply, for any failure: its code and text as toBridgeError reads them. */
export function failure(reason: unknown): Pick<BridgeMessage, 'ok' | 'error'> {
  const { code, message } = toBridgeError(reason);
  return { ok: false, error: { code, message } };
}

/**
 * The JavaScript string literal a host embeds in `window.__hubEmbedReceive(<literal>)` when it
 * replies through evaluateJavaScript / injectJavaScript. U+2028/U+2029 end lines in pre-ES2019
 * engines and `<` could close a surrounding `<script>`, so all three are escaped; the result is
 * also valid JSON.
 */
export function toScriptLiteral(json: string): string {
  return JSON.stringify(json).replace(
    /[\u2028\u2029<]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

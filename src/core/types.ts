/** The service's shapes as the browser sees them: the response envelope, an access token and a published table. */

/** The service's response envelope, `{code, message, data}`; `code` is 200 on success. */
export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** An access token as the service (and a developer's token endpoint) hands it out. */
export interface AccessToken {
  access_token: string;
  /** Lifetime in seconds, counted from when the token was received. */
  expires_in: number;
}

/** One published project table (an item of `data.list[]` of published-list), normalised by the client. */
export interface PublishedTable {
  short_code: string;
  name: string;
  industry: string;
  /** An http(s) URL, or undefined when the service sent none or something unsafe. */
  icon?: string;
  tags: string[];
  /** The spec lists `total` among the item fields; kept when present. */
  total?: number;
}

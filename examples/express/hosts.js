// @ts-check
// DNS rebinding: a page on a name its owner controls (evil.example) is re-resolved to 127.0.0.1, and the
// browser then treats this app as that page's own origin: it can sign in, and post to every route. The
// browser still sends the page's name as Host, and that name is what gets checked here, on every request.
// Loopback names cannot be rebound; any other name this app is reached by (a tunnel, a proxy) is listed.
import { isLoopbackHost } from 'hub-embed/core';

/** The hostname of a Host header, lowercased, without port or final dot; undefined when malformed. */
export function hostnameOf(/** @type {string | undefined} */ host) {
  if (host === undefined || !/^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i.test(host)) return undefined;
  try {
    return new URL(`http://${host}/`).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/**
 * Express middleware: a request whose Host is neither a loopback name nor one of `allowedHosts` gets 403,
 * and so does a POST whose Origin (browsers send it on every POST) is not one of `allowedOrigins`.
 * @param {{ allowedHosts: readonly string[], allowedOrigins: readonly string[] }} options
 * @returns {import('express').RequestHandler}
 */
export function checkHostAndOrigin({ allowedHosts, allowedOrigins }) {
  const hosts = new Set(allowedHosts.map((host) => hostnameOf(host) ?? host.toLowerCase()));
  const origins = new Set(allowedOrigins.map((origin) => new URL(origin).origin));
  return (req, res, next) => {
    const name = hostnameOf(req.headers.host);
    if (name === undefined || !(isLoopbackHost(name) || hosts.has(name)))
      return void res
        .status(403)
        .type('text')
        .send('This app answers its own host names only (a DNS-rebinding defence); set ALLOWED_HOSTS to add one.');
    const origin = req.headers.origin;
    if (req.method === 'POST' && origin !== undefined && !origins.has(origin))
      return void res.status(403).type('text').send('Cross-site request refused: send it from this app’s own pages.');
    next();
  };
}

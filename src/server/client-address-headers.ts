/**
 * Every request header in which a proxy, load balancer or CDN may name the client's address. One list
 * for the webhook receiver, which through a trusted proxy refuses a delivery when any of them names
 * another client than the header it believes, and for certify, which sends all of them from a stranger.
 * It imports nothing, so the grader may take it without the toolkit.
 */
export const CLIENT_ADDRESS_HEADERS = [
  'x-forwarded-for',
  'x-real-ip',
  'forwarded', // RFC 7239
  'true-client-ip', // Akamai, Cloudflare Enterprise
  'cf-connecting-ip', // Cloudflare
  'x-client-ip',
  'ali-cdn-real-ip', // Alibaba Cloud CDN
  'fastly-client-ip', // Fastly
  'x-cluster-client-ip',
  'x-original-forwarded-for', // ingress-nginx, the X-Forwarded-For it received
  'x-forwarded',
  'forwarded-for',
  'client-ip',
  'x-appengine-user-ip', // Google App Engine
  'cdn-src-ip',
  'x-envoy-external-address', // Envoy
] as const;

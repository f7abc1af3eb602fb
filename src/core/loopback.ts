/**
 * The one loopback rule, for every layer: the widget's form site, <HubEmbedView>'s form Modal, the
 * simulator's Host and CORS checks and the examples. A leaf module (it imports nothing), so the simulator
 * and the form half can share it.
 */

/** localhost, *.localhost, 127.0.0.0/8 and [::1], as the URL parser writes a hostname: plain http is allowed there. */
export function isLoopbackHost(hostname: string): boolean {
  return /^((.+\.)?localhost|\[::1\]|127(\.\d{1,3}){3})$/i.test(hostname);
}

/**
 * The nonce of the marker the WebView injects at its next load start, renewed once per load: the state
 * <HubEmbedView>'s hook (use-hub-embed-view.ts) gives the WebView and the host kernel.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { randomNonce } from '../host/page-scripts.js';

/**
 * react-native-webview takes its injected scripts from the props of that moment, so each load's nonce is
 * chosen before it starts: a fresh one once this load's document has its marker (its page said hello, or
 * it finished loading), so no load shares the nonce of the one before (a frame that learned an old nonce
 * speaks for no later page). Never at the load start itself: iOS re-makes its document-start scripts when
 * the prop changes, and the document being loaded would get the next load's nonce.
 */
export function useMarkerNonce() {
  const [markerNonce, setMarkerNonce] = useState(randomNonce);
  /** The marker nonce the WebView has been given (committed), which the next load carries. */
  const given = useRef(markerNonce);
  useLayoutEffect(() => {
    given.current = markerNonce;
  }, [markerNonce]);
  /** Whether this load's marker nonce was replaced for the next load. */
  const renewed = useRef(false);
  return {
    /** The nonce for the WebView's next load. */
    markerNonce,
    /** The nonce the WebView has been given, which the load that starts now carries. */
    given,
    /** A load started: it may renew the nonce once. */
    loadStarted: () => {
      renewed.current = false;
    },
    /** This load's document has its marker: the next load gets a nonce of its own (once per load). */
    renew: () => {
      if (renewed.current) return;
      renewed.current = true;
      setMarkerNonce(randomNonce());
    },
  };
}

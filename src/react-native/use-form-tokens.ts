/**
 * The tokens of <HubEmbedView>'s form pages: a form opens with a live token once one was refused, and the
 * Modal's form page that refuses its token loads once more with a new one (refused-tokens.ts keeps them).
 */
import { useRef, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { randomNonce } from '../host/page-scripts.js';
import type { OpenForm } from './form-modal.js';
import { RefusedTokens } from './refused-tokens.js';
import type { HubEmbedViewProps } from './view-props.js';

/** `latest`: the view's newest props (their getToken); `setForm`: the view's native form. */
export function useFormTokens(
  latest: RefObject<HubEmbedViewProps>,
  setForm: Dispatch<SetStateAction<OpenForm | undefined>>,
) {
  /** Tokens form pages refused, and what replaced them. */
  const refusedTokens = useRef(new RefusedTokens());
  /** A new token in place of `previous`, which a form page refused: the app's getToken is told so. */
  const getToken = (request: { reason: 'unauthorized'; previous: string }) => {
    const { getToken } = latest.current;
    if (!getToken) throw new TypeError('no getToken');
    return getToken(request);
  };
  const withLiveToken = (url: string) => refusedTokens.current.liveUrl(url, getToken);
  return {
    /** The form URL to open: with a live token in place of a refused one, once any was refused. */
    formUrl: async (url: string) => (refusedTokens.current.any ? await withLiveToken(url).catch(() => url) : url),
    /**
     * The Modal's form page refused its token: the form loads once more with a new one, and a second
     * refusal keeps the page's message (the next open asks for another token: nothing loops).
     */
    formRefused: async (refused: OpenForm) => {
      refusedTokens.current.refuse(new URL(refused.url).searchParams.get('token') ?? '');
      if (refused.renewed) return;
      const url = await withLiveToken(refused.url).catch(() => refused.url);
      // Told twice (the 401 and the report), closed, or another form opened while the token came.
      setForm((open) =>
        open?.relayNonce === refused.relayNonce && url !== refused.url
          ? { ...open, url, relayNonce: randomNonce(), renewed: true }
          : open,
      );
    },
  };
}

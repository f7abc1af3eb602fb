/**
 * The development warning for a controlled selection the app never updates (`tags` without
 * `onTagsChanged`), which undoes every chip the user taps: the same on iOS, Android and the web.
 */
import { useEffect } from 'react';
import type { HubEmbedViewProps } from './view-props.js';
import { TAGS_WITHOUT_ON_TAGS_CHANGED, isDevelopment } from './view-rules.js';

/** Whether the warning was given: once per app run, as React's own warnings. */
let warned = false;

export function useTagsWarning(props: HubEmbedViewProps): void {
  const uncontrolledTags = props.tags !== undefined && !props.onTagsChanged;
  useEffect(() => {
    if (uncontrolledTags && isDevelopment() && !warned) {
      warned = true;
      console.warn(TAGS_WITHOUT_ON_TAGS_CHANGED);
    }
  }, [uncontrolledTags]);
}

/**
 * <HubEmbedView>'s tag selection: kept across reloads without a `tags` prop, held to the prop with one (as a
 * controlled input keeps its value), sent to each new page session, and set by ref.setTags.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { HostKernel } from '../host/types.js';
import type { HubEmbedViewProps } from './view-props.js';
import { useTagsWarning } from './use-tags-warning.js';
import { SET_TAGS_WITH_TAGS_PROP, sameTags } from './view-rules.js';

/** `latest`: the view's newest props; `kernel`: its host kernel, made after this hook runs. */
export function useSelection(props: HubEmbedViewProps, latest: RefObject<HubEmbedViewProps>, kernel: () => HostKernel) {
  /**
   * Without a `tags` prop (the page's selection, changed by ref.setTags), the last selection, the app's or
   * the user's in the page (tags.changed): the first selection of every new page session, so a reload or a
   * killed content process finds it again. With `tags`, that prop is the selection.
   */
  const selection = useRef(props.tags);
  /** The selection the page shows, as far as the view knows: what it sent last, or what the page said. */
  const shown = useRef<string[] | undefined>(undefined);
  /** Bumped when the page's selection changed, so a controlled `tags` that differs is selected again. */
  const [pageTagsChanged, setPageTagsChanged] = useState(0);

  /** Selects `tags` in the page (its newest session) and notes them as shown. */
  const select = (tags: string[]) => {
    shown.current = tags;
    return kernel().setTags(tags);
  };

  useTagsWarning(props);

  const tagKey = props.tags && JSON.stringify(props.tags);
  useEffect(() => {
    if (!props.tags || sameTags(props.tags, shown.current) || !kernel().sessions.length) return;
    void select(props.tags).catch(() => {});
  }, [tagKey, pageTagsChanged]);

  return {
    /** The page says the user selected `tags` (tags.changed). */
    pageSelected: (tags: string[]) => {
      shown.current = tags;
      if (latest.current.tags === undefined) selection.current = tags;
    },
    /** After the app heard of the page's selection: a controlled `tags` it did not change is selected again. */
    pageSelectionHeard: () => setPageTagsChanged((count) => count + 1),
    /** A new page session said hello: it gets the selection before it loads anything. */
    helloHeard: () => {
      const tags = latest.current.tags ?? selection.current;
      if (tags) queueMicrotask(() => void select(tags).catch(() => {}));
    },
    /** ref.setTags: refused while a `tags` prop is the selection. */
    setTags: (tags: string[]) => {
      if (latest.current.tags !== undefined) return Promise.reject(new TypeError(SET_TAGS_WITH_TAGS_PROP));
      selection.current = tags;
      return select(tags);
    },
  };
}

// The web app of web-hub-embed-view.test.ts: <HubEmbedView> from the web entry (src/react-native/web.ts), with
// react-native resolved to react-native-web as a react-native-web app has it, rendered by React DOM. What it
// is given comes from the test (window.rnwApp); what it hears goes to window.rnwSeen, for the test to read.
import { createElement, createRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { EVENT_PROPS } from '../../../src/react-native/view-props.js';
import { HubEmbedView, type HubEmbedViewHandle, type HubEmbedViewProps } from '../../../src/react-native/web.js';

export interface WebAppSettings {
  web?: HubEmbedViewProps['web'];
  tags?: string[];
  /** Whether the app sets its `tags` from onTagsChanged (a controlled view that follows the user). */
  follows?: boolean;
  /** What openForm answers; absent: no openForm prop. */
  openForm?: boolean;
  /** The page's language (`<html lang>`), as a web app's document sets it. */
  lang?: string;
}

/** One thing the app heard: the callback prop and what it was called with. */
export interface Heard {
  prop: string;
  params: unknown;
}

declare global {
  interface Window {
    rnwApp: WebAppSettings;
    rnwSeen: Heard[];
    rnwRef: ReturnType<typeof createRef<HubEmbedViewHandle>>;
    /** Exposed by the test: a token of the simulator, and the request that asked for it. */
    rnwToken(request: { reason: string; previous?: string }): Promise<{ access_token: string; expires_in: number }>;
  }
}

const settings = window.rnwApp;
if (settings.lang) document.documentElement.lang = settings.lang;
const seen: Heard[] = (window.rnwSeen = []);
const ref = (window.rnwRef = createRef<HubEmbedViewHandle>());

/** Every per-event callback, each recording under its own name. */
const callbacks = Object.fromEntries(
  Object.values(EVENT_PROPS).map((prop) => [prop, (params: unknown) => seen.push({ prop, params })]),
);

function App() {
  const [tags, setTags] = useState(settings.tags);
  return createElement(HubEmbedView, {
    ref,
    source: { uri: 'https://app.example/hub-embed.html' },
    web: settings.web,
    getToken: (request) => window.rnwToken(request),
    style: { height: 600 },
    ...callbacks,
    tags,
    onTagsChanged: (params) => {
      seen.push({ prop: 'onTagsChanged', params });
      if (settings.follows) setTags(params.tags);
    },
    onEvent: (event) => seen.push({ prop: 'onEvent', params: event }),
    ...(settings.openForm === undefined ? {} : { openForm: () => settings.openForm! }),
  });
}

createRoot(document.getElementById('root')!).render(createElement(App));

// The texts only an open form shows, in English: they come with the form half of <hub-embed>, so that
// the first file carries none of them. The other locales' tables (src/components/locales/) hold their own
// form texts, and load with the same half. The embedder overrides them through `strings` like any other.
import type { HubStrings, FormStringKey } from '../strings.js';

export const formStrings: Pick<HubStrings, FormStringKey> = {
  close: 'Close',
  form: 'Form: {n}',
  frameError: 'The form did not load.',
};

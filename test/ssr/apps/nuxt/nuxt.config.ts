// #region config
// nuxt.config.ts
import { isCustomElement } from 'hub-embed/vue';

export default defineNuxtConfig({
  compatibilityDate: '2026-11-01',
  // Vue leaves the tags to the browser, on the server and in the browser alike.
  vue: { compilerOptions: { isCustomElement } },
  // Set at start-up from NUXT_PUBLIC_HUB_BASE_URL, NUXT_PUBLIC_HUB_FORM_URL and NUXT_HUB_API_KEY.
  runtimeConfig: { hubApiKey: '', public: { hubBaseUrl: '', hubFormUrl: '' } },
  app: { head: { link: [{ rel: 'icon', href: 'data:,' }] } },
  telemetry: false,
});
// #endregion config

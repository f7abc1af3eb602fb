// #region env
// env.ts, in src: what $app/env/private gives the server modules, from the environment the server starts with.
// Empty while `vite build` analyses the app (`building`): a pipeline builds without secrets.
import { building } from '$app/env';
import { defineEnvVars } from '@sveltejs/kit/env';

const atStart = (name: string) => (value: string | undefined) => {
  if (value) return value;
  if (building) return '';
  throw new Error(`Set ${name} in the server's environment`);
};

export const variables = defineEnvVars({
  HUB_API_KEY: { schema: atStart('HUB_API_KEY'), description: "The service's API key: the token route's only" },
  HUB_BASE_URL: { schema: atStart('HUB_BASE_URL'), description: "The service's base URL" },
  HUB_FORM_URL: { schema: atStart('HUB_FORM_URL'), description: "The service's form site" },
});
// #endregion env

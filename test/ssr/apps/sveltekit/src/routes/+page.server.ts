import { HUB_BASE_URL, HUB_FORM_URL } from '$app/env/private';
import type { PageServerLoad } from './$types';

// The service's addresses come from the environment the server starts with (declared in env.ts).
export const load: PageServerLoad = () => ({ baseUrl: HUB_BASE_URL, formUrl: HUB_FORM_URL });

import { env } from '$env/dynamic/private';
import type { PageServerLoad } from './$types';

// Read on each request: the service's addresses come from the environment the server starts with.
export const load: PageServerLoad = () => ({ baseUrl: env.HUB_BASE_URL!, formUrl: env.HUB_FORM_URL! });

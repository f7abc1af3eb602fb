/**
 * Every route of the API site, in one table per part. The open API is the spec's; the console is
 * the simulator's own (JSON under /console, and its web page at /console/). A new part of the simulator (a web console page, CLI
 * commands such as trigger, resend, reset or clock) adds its table here, and the request pipeline
 * serves it with the same host check, CORS, logging and error handling as the rest.
 */
import { apiRoutes } from './api.js';
import { consolePageRoutes } from './console-page.js';
import { consoleRoutes, type ConsoleTarget } from './console.js';
import type { HubContext, Route } from './context.js';

export function apiSiteRoutes(context: HubContext, consoleTarget: ConsoleTarget | null): Route[] {
  return [...apiRoutes(context), ...(consoleTarget ? [...consoleRoutes(consoleTarget), ...consolePageRoutes()] : [])];
}

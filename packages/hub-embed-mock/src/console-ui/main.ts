/** The console's browser entry: registers its elements (once; the page may be reloaded into a cache). */
import { HubConsole } from './app.js';
import { ConsoleClock } from './clock.js';
import { ConsoleDeliveries } from './deliveries.js';
import { ConsoleKeys } from './keys.js';
import { ConsolePoints } from './points.js';
import { ConsoleRequests } from './requests.js';
import { ConsoleTables } from './tables.js';
import { ConsoleTest } from './test-events.js';
import { ConsoleWebhooks } from './webhooks.js';

const elements: [string, CustomElementConstructor][] = [
  ['hub-console', HubConsole],
  ['hub-console-keys', ConsoleKeys],
  ['hub-console-points', ConsolePoints],
  ['hub-console-webhooks', ConsoleWebhooks],
  ['hub-console-test', ConsoleTest],
  ['hub-console-deliveries', ConsoleDeliveries],
  ['hub-console-requests', ConsoleRequests],
  ['hub-console-tables', ConsoleTables],
  ['hub-console-clock', ConsoleClock],
];
for (const [tag, element] of elements) if (!customElements.get(tag)) customElements.define(tag, element);

// The module HUB_MOCK_CONTRACT_CHECK names (package.json's test:integration and test:e2e set it): the Node
// simulator (packages/hub-embed-mock/src/node.ts) hands it every open-API answer and every webhook delivery, and it fails the
// run loudly on one that openapi.json does not describe: the problem goes to stderr and is thrown where
// nothing catches it (an unhandled error fails Vitest's run and node:test's file), while the answer itself
// still goes out, so no test hangs on it.
import { answerProblems, operationOf, webhookProblems } from './openapi-check.mjs';

/** How many open-API answers and webhook deliveries this process checked. */
export const checked = { answers: 0, deliveries: 0 };

function fail(problems) {
  const message = `The simulator disagrees with openapi.json:\n  ${problems.join('\n  ')}`;
  process.stderr.write(`${message}\n`);
  setImmediate(() => {
    throw new Error(message);
  });
}

export default {
  /**
   * @param {Request} request
   * @param {Response} response a clone the hook may read
   * @param {string} apiPrefix where the simulator serves the open API: what is asked elsewhere is no operation
   */
  async answer(request, response, apiPrefix) {
    const path = new URL(request.url).pathname;
    if (!path.startsWith(`${apiPrefix}/`) || !operationOf(request.method, path)) return;
    // A service profile's gateway page (packages/hub-embed-mock/src/profiles.ts) is the gateway's answer, not
    // the service's: openapi.json describes the service behind it.
    if (response.headers.get('server') === 'nginx' && !response.headers.get('content-type')?.includes('json')) return;
    const problems = answerProblems({
      method: request.method,
      path,
      status: response.status,
      contentType: response.headers.get('content-type'),
      bodyText: await response.text(),
    });
    checked.answers++;
    if (problems.length > 0) fail(problems);
  },
  /** @param {{ event: string, headers: Record<string, string>, body: unknown }} delivery */
  delivery(delivery) {
    const problems = webhookProblems(delivery);
    checked.deliveries++;
    if (problems.length > 0) fail(problems);
  },
};

import type { WrongBackend } from './harness.js';

/**
 * The exchange logged "for debugging": the request with its X-API-Key, or the answer with the token. Only
 * a grader that starts the backend reads its log, so these run as `certify -- <command>`.
 */
export const backends: WrongBackend[] = [
  {
    mistake: 'the API key written to the backend\u2019s log on every exchange',
    fails: ['backend-output-holds-no-secret'],
    startedByCertify: true,
    parts: {
      exchangeLog: (user, config) => `POST /apikeys/token X-API-Key: ${config.apiKey} client_user_id=${user}`,
    },
  },
  {
    mistake: 'the token written to the backend\u2019s log on every exchange',
    fails: ['backend-output-holds-no-secret'],
    startedByCertify: true,
    parts: { exchangeLog: (user, _config, data) => `token for ${user}: ${data.access_token}` },
  },
];

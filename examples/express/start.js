// @ts-check
// `npm run example:express`: the example and the simulator in one process; Ctrl+C stops both.
import { exampleBanner, startExample } from './server.js';

const running = await startExample();
console.log(exampleBanner(running));

const stop = () =>
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

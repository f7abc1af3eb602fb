// The contract app on Node: node:http through toNodeListener, which passes req.socket.remoteAddress.
import { createServer } from 'node:http';
import { toNodeListener } from 'hub-embed/server';
import { createContractApp } from './contract-app.js';
import { contractConfig } from './launch-config.js';

const app = createContractApp(await contractConfig((name) => process.env[name]));
const server = createServer(toNodeListener((request, info) => app(request, info.remoteAddress)));
server.listen(0, '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${(server.address() as { port: number }).port}`);
});

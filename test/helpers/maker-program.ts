/**
 * A market maker's guard as its own process (test/engine/maker-safety-process.test.ts): through the
 * SDK, with the API key of PMX_API_KEY (JSON), it arms the heartbeat (PMX_HEARTBEAT_MS) and keeps it
 * alive, and/or holds a `/user` socket with cancel on disconnect (PMX_CANCEL_ON_DISCONNECT=1), then
 * prints `guarding` and runs until it is killed.
 */
import { createClient } from '../../src/client/index.ts';

const client = createClient({ baseUrl: process.env.PMX_URL!, credentials: { apiKey: JSON.parse(process.env.PMX_API_KEY!) } });
if (process.env.PMX_HEARTBEAT_MS) await client.heartbeat.start(Number(process.env.PMX_HEARTBEAT_MS), (error) => console.error(error));
if (process.env.PMX_CANCEL_ON_DISCONNECT === '1') await client.user({ cancelOnDisconnect: true }).connected();
console.log('guarding');
setInterval(() => {}, 1 << 30);

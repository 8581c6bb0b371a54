import { createPublicClient, http } from 'viem';
import { startTestServer, type TestServer } from './server.ts';

/** A test server on its embedded chain, and a client reading that chain. */
export interface EmbeddedChainServer {
  server: TestServer;
  chain: ReturnType<typeof createPublicClient>;
}

/** Starts a test server with CHAIN=embedded (and `env`), with a client of the chain it runs. */
export async function startOnEmbeddedChain(env: Record<string, string> = {}): Promise<EmbeddedChainServer> {
  const server = await startTestServer({ CHAIN: 'embedded', ...env });
  return { server, chain: createPublicClient({ transport: http(server.ctx.chain.embedded!.url) }) };
}

// A throwaway anvil for one test file (or one bench run): its own free port, silent, stopped by `stop`.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { http, createPublicClient, createTestClient, createWalletClient, defineChain, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

const ANVIL = fileURLToPath(new URL('../../../node_modules/.bin/anvil', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export type Anvil = Awaited<ReturnType<typeof startAnvil>>;

/**
 * Starts anvil with `args` (`--no-mining`, `--block-time 1`, ...) and two funded keys of its own:
 * the operator's and an outsider's. Resolves once it answers RPC.
 */
export async function startAnvil(args: string[] = []) {
  const port = await freePort();
  const child = spawn(ANVIL, ['--silent', '--port', String(port), '--chain-id', '31337', ...args], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const chain = defineChain({ id: 31337, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
  const transport = http(url, { batch: { wait: 0 } });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 });
  const testClient = createTestClient({ chain, transport, mode: 'anvil' });
  for (let attempt = 0; ; attempt++) {
    try {
      await publicClient.getChainId();
      break;
    } catch (error) {
      if (attempt > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const operator = privateKeyToAccount(generatePrivateKey());
  const outsider = privateKeyToAccount(generatePrivateKey());
  for (const account of [operator, outsider]) await testClient.setBalance({ address: account.address, value: parseEther('1000') });
  const operatorWallet = createWalletClient({ chain, transport, account: operator });
  const outsiderWallet = createWalletClient({ chain, transport, account: outsider });
  return {
    url,
    chain,
    publicClient,
    testClient,
    operator,
    operatorWallet,
    outsider,
    outsiderWallet,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

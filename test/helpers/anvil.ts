/**
 * A real local chain for tests and benches: anvil from npm on a port of its own choosing, with its
 * default funded accounts (the well-known "test … junk" mnemonic). Start one per test file, stop it
 * in `after`.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createPublicClient, createTestClient, createWalletClient, defineChain, http, type PublicClient } from 'viem';
import { type HDAccount, type LocalAccount, mnemonicToAccount } from 'viem/accounts';
import { waitForTransactionReceipt } from 'viem/actions';
import { anvilBinaryPath } from '../../src/chain/anvil-binary.ts';
import { callJsonRpc } from '../../src/chain/json-rpc.ts';

const MNEMONIC = 'test test test test test test test test test test test junk';
const CHAIN_ID = 31337;
const READY_TIMEOUT_MS = 10_000;

export interface Anvil {
  readonly rpcUrl: string;
  readonly chain: AnvilChain;
  readonly publicClient: PublicClient;
  /** Increases time and mines: block.timestamp control for expirations. */
  readonly testClient: ReturnType<typeof createTestClient>;
  /** The i-th funded account (10,000 ETH each; index 0 to 9). */
  account(index: number): HDAccount;
  walletClient(account: LocalAccount): ReturnType<typeof walletClientFor>;
  stop(): Promise<void>;
}

/** `args`: anvil's own options besides port, chain id and silence (`--no-mining`, `--block-time 1`, ...). */
export async function startAnvil(args: readonly string[] = []): Promise<Anvil> {
  // Port 0: anvil binds a free port itself and says which. A port picked free beforehand could be
  // taken by another file's anvil before this one binds it, and this one, failing to bind, would
  // leave the other answering on its port: tests that then read or mine another file's chain.
  const child = spawn(anvilBinaryPath(), ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(CHAIN_ID), ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const rpcUrl = `http://127.0.0.1:${await listeningPort(child, exited)}`;
  const chain = anvilChain(rpcUrl);
  const publicClient = minedEvenIfMissed(createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 20 }) as PublicClient, rpcUrl);
  await waitUntilReady(publicClient);
  return {
    rpcUrl,
    chain,
    publicClient,
    testClient: createTestClient({ chain, mode: 'anvil', transport: http(rpcUrl) }),
    account: (index) => mnemonicToAccount(MNEMONIC, { addressIndex: index }),
    walletClient: (account) => walletClientFor(chain, rpcUrl, account),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The one transaction in the anvil's pool (its pending part), once there is one. */
export async function pooledTransaction(anvil: Anvil) {
  for (;;) {
    const [pooled] = Object.values((await anvil.testClient.getTxpoolContent()).pending).flatMap((byNonce) => Object.values(byNonce));
    if (pooled) return pooled;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const anvilChain = (rpcUrl: string) => defineChain({ id: CHAIN_ID, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
type AnvilChain = ReturnType<typeof anvilChain>;

function walletClientFor(chain: AnvilChain, rpcUrl: string, account: LocalAccount) {
  return createWalletClient({ account, chain, transport: http(rpcUrl) });
}

/** The port anvil's log says it listens on; the rest of its log is read and dropped, so it never blocks on a full pipe. */
async function listeningPort(child: ChildProcessByStdio<null, Readable, null>, exited: Promise<void>): Promise<number> {
  const lines = createInterface({ input: child.stdout });
  const listening = new Promise<number>((resolve) => {
    lines.on('line', (line) => {
      const port = /^Listening on 127\.0\.0\.1:(\d+)$/.exec(line.trim())?.[1];
      if (port !== undefined) resolve(Number(port));
    });
  });
  const port = await Promise.race([listening, exited.then(() => undefined), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), READY_TIMEOUT_MS).unref())]);
  if (port === undefined) {
    child.kill('SIGKILL');
    throw new Error('anvil did not say where it listens within 10 s');
  }
  return port;
}

/** How long a transaction waited for may go unmined before a block is mined for it. */
const FLUSH_AFTER_MS = 2_000;

/**
 * The client, its `waitForTransactionReceipt` mining a block every FLUSH_AFTER_MS while the
 * transaction is not mined. Anvil's automine can miss a transaction that became ready while it
 * looked at its pool (foundry-rs/foundry#10122; the server's operator flushes the same way,
 * src/chain/operator.ts): a contract test's transaction waited so for viem's 180 s in CI under
 * load (2026-12-06), failing the file. Automine mines at once otherwise, so a test that mines
 * nothing else never sees an extra block.
 */
function minedEvenIfMissed(client: PublicClient, rpcUrl: string): PublicClient {
  return client.extend((base) => ({
    async waitForTransactionReceipt(args: Parameters<PublicClient['waitForTransactionReceipt']>[0]) {
      const flush = setInterval(() => void callJsonRpc(rpcUrl, 'evm_mine').catch(() => {}), FLUSH_AFTER_MS);
      try {
        return await waitForTransactionReceipt(base, args);
      } finally {
        clearInterval(flush);
      }
    },
  })) as PublicClient;
}

async function waitUntilReady(client: PublicClient): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      await client.getChainId();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error('anvil did not answer within 10 s', { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

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
import { anvilBinaryPath } from '../../src/chain/anvil-binary.ts';

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
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 20 }) as PublicClient;
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

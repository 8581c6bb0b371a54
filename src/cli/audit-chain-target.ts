import { pino } from 'pino';
import { buildOutput } from '../build-output.ts';
import { chainFilesIn, readRecord } from '../chain/chain-files.ts';
import { EmbeddedChain, chainTemplateFiles } from '../chain/index.ts';
import { callJsonRpc } from '../chain/json-rpc.ts';
import type { Config } from '../config.ts';
import type { ChainAuditTarget } from '../engine/chain-audit.ts';

/**
 * Where `pmx audit` reads the chain the ledger is compared with: CHAIN=rpc's CHAIN_RPC_URL; for
 * CHAIN=embedded, CHAIN_RPC_URL when set; else the data directory's anvil, through its running server's `/rpc` (anvil listens
 * on a port only the server knows); else, no server answering, the data directory's chain started
 * from its files as a boot would start it, and stopped after the audit. A chain reached none of
 * these ways is left to the audit to report (`chain-unreachable`). `close` stops what was started.
 */
export async function reachAuditChain(config: Config): Promise<{ target: ChainAuditTarget; close(): Promise<void> } | undefined> {
  if (config.chain === 'rpc') return { target: { url: config.chainRpcUrl!, contracts: configuredContracts(config) }, close: async () => {} };
  if (config.chain !== 'embedded' || config.dataDir.startsWith('memory://')) return undefined;
  const record = readRecord(chainFilesIn(config.dataDir));
  const contracts = record?.contracts ?? configuredContracts(config);
  const served = config.chainRpcUrl ?? `http://127.0.0.1:${config.port}/rpc`;
  const nothing = async () => {};
  if (config.chainRpcUrl || (await answers(served))) return { target: { url: served, contracts }, close: nothing };
  try {
    const chain = await EmbeddedChain.start({
      chainId: config.chainId, exchangeName: config.exchangeName, dataDir: config.dataDir, template: chainTemplateFiles(buildOutput), logger: pino({ level: 'warn' }),
    });
    return { target: { url: chain.url, contracts: chain.deployment.contracts }, close: () => chain.close() };
  } catch {
    return { target: { url: served, contracts }, close: nothing };
  }
}

function configuredContracts(config: Config): ChainAuditTarget['contracts'] {
  return { collateral: config.collateralAddress, conditionalTokens: config.conditionalTokensAddress, exchange: config.exchangeAddress, negRiskExchange: config.negRiskExchangeAddress };
}

async function answers(url: string): Promise<boolean> {
  try {
    await callJsonRpc<string>(url, 'eth_blockNumber', [], 2_000);
    return true;
  } catch {
    return false;
  }
}

import { pino } from 'pino';
import { buildOutput } from '../build-output.ts';
import { chainFilesIn, readRecord } from '../chain/chain-files.ts';
import { EmbeddedChain, chainTemplateFiles } from '../chain/index.ts';
import type { Config } from '../config.ts';
import { dataDirHolder } from '../data-dir-lock.ts';
import type { ChainAuditTarget } from '../engine/chain-audit.ts';

/**
 * Where `pmx audit` reads the chain the ledger is compared with: CHAIN=rpc's CHAIN_RPC_URL; for
 * CHAIN=embedded, CHAIN_RPC_URL when set; else, while the data directory's server runs (its lock
 * names it: data-dir-lock.ts), that server's `/rpc` (anvil listens on a port only the server
 * knows); else the data directory's chain started from its files as a boot would start it, and
 * stopped after the audit. A server on some port is never taken for the data directory's own. A
 * chain reached none of these ways is left to the audit to report (`chain-unreachable`). `close`
 * stops what was started.
 */
export async function reachAuditChain(config: Config): Promise<{ target: ChainAuditTarget; close(): Promise<void> } | undefined> {
  if (config.chain === 'rpc') return { target: { url: config.chainRpcUrl!, contracts: configuredContracts(config) }, close: async () => {} };
  if (config.chain !== 'embedded' || config.dataDir.startsWith('memory://')) return undefined;
  const record = readRecord(chainFilesIn(config.dataDir));
  const contracts = record?.contracts ?? configuredContracts(config);
  const nothing = async () => {};
  if (config.chainRpcUrl) return { target: { url: config.chainRpcUrl, contracts }, close: nothing };
  const holder = dataDirHolder(config.dataDir);
  if (holder) return { target: { url: holder.url ? `${holder.url}/rpc` : `the server of process ${holder.pid}, not listening yet`, contracts }, close: nothing };
  try {
    const chain = await EmbeddedChain.start({
      chainId: config.chainId, exchangeName: config.exchangeName, dataDir: config.dataDir, template: chainTemplateFiles(buildOutput), logger: pino({ level: 'warn' }),
    });
    return { target: { url: chain.url, contracts: chain.deployment.contracts }, close: () => chain.close() };
  } catch (error) {
    return { target: { url: `the data directory's chain, which did not start (${error instanceof Error ? error.message : String(error)})`, contracts }, close: nothing };
  }
}

function configuredContracts(config: Config): ChainAuditTarget['contracts'] {
  return { collateral: config.collateralAddress, conditionalTokens: config.conditionalTokensAddress, exchange: config.exchangeAddress, negRiskExchange: config.negRiskExchangeAddress };
}

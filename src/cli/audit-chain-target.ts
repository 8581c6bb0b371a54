import { pino } from 'pino';
import { buildOutput } from '../build-output.ts';
import { chainFilesIn, readRecord } from '../chain/chain-files.ts';
import { EmbeddedChain, chainTemplateFiles } from '../chain/index.ts';
import type { Config } from '../config.ts';
import { dataDirHolder } from '../data-dir-lock.ts';
import type { ChainAuditTarget } from '../engine/chain-audit.ts';

/**
 * The chain `pmx audit` compares the ledger with: its endpoint and contracts, what it is in words
 * (`source`, for the audit's summary), and `close`, which stops what was started for the audit. Or,
 * when there is a chain but no endpoint to read it at, why (`unreachable`), which the audit reports
 * as a broken invariant of its own (`chain-unreachable`), never a pass.
 */
export type AuditChain = { target: ChainAuditTarget; source: string; close(): Promise<void> } | { unreachable: string };

/**
 * Where `pmx audit` reads the chain: CHAIN=rpc's CHAIN_RPC_URL; for CHAIN=embedded, CHAIN_RPC_URL
 * when set; else, while the data directory's server runs (its lock names it: data-dir-lock.ts),
 * that server's `/rpc` (anvil listens on a port only the server knows); else the data directory's
 * chain started from its files as a boot would start it, and stopped after the audit. A server on
 * some port is never taken for the data directory's own. Undefined without a chain to compare.
 */
export async function reachAuditChain(config: Config): Promise<AuditChain | undefined> {
  const nothing = async () => {};
  if (config.chain === 'rpc') return { target: { url: config.chainRpcUrl!, contracts: configuredContracts(config) }, source: 'the chain at CHAIN_RPC_URL', close: nothing };
  if (config.chain !== 'embedded' || config.dataDir.startsWith('memory://')) return undefined;
  const record = readRecord(chainFilesIn(config.dataDir));
  const contracts = record?.contracts ?? configuredContracts(config);
  if (config.chainRpcUrl) return { target: { url: config.chainRpcUrl, contracts }, source: 'the chain at CHAIN_RPC_URL', close: nothing };
  const holder = dataDirHolder(config.dataDir);
  if (holder?.url) return { target: { url: `${holder.url}/rpc`, contracts }, source: `the chain of the running server at ${holder.url} (its /rpc)`, close: nothing };
  // Its chain runs inside it, on a port only it knows, and it has no /rpc to read it through yet.
  if (holder) return { unreachable: `the data directory's chain belongs to process ${holder.pid}, whose server is not listening yet (run the audit again once it listens)` };
  try {
    const chain = await EmbeddedChain.start({
      chainId: config.chainId, exchangeName: config.exchangeName, dataDir: config.dataDir, template: chainTemplateFiles(buildOutput), logger: pino({ level: 'warn' }),
    });
    return { target: { url: chain.url, contracts: chain.deployment.contracts }, source: "the data directory's chain, started for the audit", close: () => chain.close() };
  } catch (error) {
    return { unreachable: `the data directory's chain did not start (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
}

function configuredContracts(config: Config): ChainAuditTarget['contracts'] {
  return { collateral: config.collateralAddress, conditionalTokens: config.conditionalTokensAddress, exchange: config.exchangeAddress, negRiskExchange: config.negRiskExchangeAddress };
}

import type { ExchangeClient, ExchangeInfo } from '../../client/index.ts';
import { useLoad } from './load.ts';

/**
 * The chain the exchange settles on, as this app reaches it: through the JSON-RPC URL that
 * GET /exchange reports (the server's /rpc when the chain is embedded). Undefined on `none` (the
 * simulated settlement layer has no chain to read) and on a chain reported without a URL.
 */
export interface ReadableChain {
  chainId: number;
  rpcUrl: string;
  collateral: `0x${string}`;
  conditionalTokens: `0x${string}`;
  /** The exchange's own contracts by lower-cased address, so a transaction's page names them. */
  contracts: ReadonlyMap<string, string>;
}

export function readableChain(exchange: ExchangeInfo): ReadableChain | undefined {
  const { kind, chainId, rpcUrl } = exchange.chain;
  if (kind === 'none' || !rpcUrl) return undefined;
  const contracts = new Map([
    [exchange.collateral.address, `${exchange.collateral.symbol} (collateral)`],
    [exchange.conditionalTokens, 'ConditionalTokens'],
    [exchange.eip712.verifyingContract, 'Exchange'],
    [exchange.negRiskVerifyingContract, 'Neg-risk exchange'],
  ].map(([address, name]) => [address!.toLowerCase(), name!]));
  return { chainId, rpcUrl, collateral: exchange.collateral.address as `0x${string}`, conditionalTokens: exchange.conditionalTokens as `0x${string}`, contracts };
}

/**
 * The readable chain of this exchange, or undefined (also while GET /exchange loads; the SDK
 * caches its answer, so every view asking costs one request per client).
 */
export function useChain(client: ExchangeClient): ReadableChain | undefined {
  const exchange = useLoad(() => client.exchange(), [client]);
  return exchange.data ? readableChain(exchange.data) : undefined;
}

/** The app's page of a transaction (pages/Transaction.tsx): the explorer of a chain that has none. */
export const transactionPath = (hash: string) => `/tx/${hash}`;

export const isTransactionHash = (text: string): text is `0x${string}` => /^0x[0-9a-fA-F]{64}$/.test(text);

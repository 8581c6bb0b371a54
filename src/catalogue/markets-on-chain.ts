import type { Address, Hex } from 'viem';
import { onChainOr503 } from '../contract/errors.ts';
import type { MarketIds, MarketIdsDerivation } from '../settlement/market-ids.ts';
import type { Db } from '../store/database.ts';
import { findEventRow } from '../store/catalogue-events-repository.ts';
import { findMarketsOfEvents } from '../store/catalogue-markets-repository.ts';

/**
 * A chain with the exchange's contracts (CHAIN=embedded or rpc; src/server.ts wires it at boot from src/chain's `chainMarkets`): markets get
 * the ids ConditionalTokens mints, with the chain's operator as their oracle, and are prepared on
 * chain before they are published.
 */
export interface MarketsOnChain {
  readonly oracle: Address;
  readonly deriveIds: MarketIdsDerivation;
  /** Prepares the condition and registers the tokens; resolves once mined, with the registration's hash. */
  prepare(market: MarketIds & { readonly negRisk: boolean }): Promise<Hex>;
}

export interface PreparedMarket {
  readonly ids: MarketIds;
  readonly transactionHash: Hex;
}

/**
 * Prepares an event's DRAFT markets on chain, one after the other, and returns what each got. A
 * chain that fails is a 503: nothing is published, and publishing again resumes where it stopped
 * (nothing was committed, so the same call can be made again).
 */
export async function prepareDraftsOnChain(db: Db, chain: MarketsOnChain, eventId: string, collateral: Address): Promise<Map<string, PreparedMarket>> {
  const prepared = new Map<string, PreparedMarket>();
  const event = await findEventRow(db, eventId);
  if (!event) return prepared;
  const drafts = (await findMarketsOfEvents(db, [eventId], true)).filter((m) => m.status === 'DRAFT');
  for (const market of drafts) {
    const ids = chain.deriveIds({ marketUuid: market.id, oracle: chain.oracle, collateral });
    const transactionHash = await onChainOr503(`prepare market ${market.id}`, () => chain.prepare({ ...ids, negRisk: event.neg_risk }));
    prepared.set(market.id, { ids, transactionHash });
  }
  return prepared;
}

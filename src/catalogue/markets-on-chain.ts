import type { Address, Hex } from 'viem';
import { AppError } from '../contract/errors.ts';
import type { MarketIds, MarketIdsDerivation } from '../settlement/market-ids.ts';
import type { Db } from '../store/database.ts';
import { findEventRow } from '../store/catalogue-events-repository.ts';
import { findMarketsOfEvents } from '../store/catalogue-markets-repository.ts';

/**
 * A chain with the exchange's contracts (CHAIN=embedded; src/chain wires it at boot): markets get
 * the ids ConditionalTokens mints, with the chain's operator as their oracle, and are prepared on
 * chain before they are published.
 */
export interface MarketsOnChain {
  readonly oracle: Address;
  readonly deriveIds: MarketIdsDerivation;
  /** Prepares the condition, registers the tokens and sets the maker fee rate; resolves once mined, with the last transaction's hash. */
  prepare(market: MarketIds & { negRisk: boolean; makerFeeRateBps: number }): Promise<Hex>;
}

export interface PreparedMarket {
  readonly ids: MarketIds;
  readonly transactionHash: Hex;
}

/**
 * Prepares an event's DRAFT markets on chain, one after the other, and returns what each got. A
 * chain that fails is a 503: nothing is published, and publishing again resumes where it stopped.
 */
export async function prepareDraftsOnChain(db: Db, chain: MarketsOnChain, eventId: string, collateral: Address): Promise<Map<string, PreparedMarket>> {
  const prepared = new Map<string, PreparedMarket>();
  const event = await findEventRow(db, eventId);
  if (!event) return prepared;
  const drafts = (await findMarketsOfEvents(db, [eventId], true)).filter((m) => m.status === 'DRAFT');
  for (const market of drafts) {
    const ids = chain.deriveIds({ marketUuid: market.id, oracle: chain.oracle, collateral });
    try {
      const transactionHash = await chain.prepare({ ...ids, negRisk: event.neg_risk, makerFeeRateBps: market.passive_order_fee_rate_bps });
      prepared.set(market.id, { ids, transactionHash });
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', `the chain did not prepare market ${market.id}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return prepared;
}

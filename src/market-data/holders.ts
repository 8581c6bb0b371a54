import { unitsToNumber } from '../core/money.ts';
import type { CatalogueReads } from '../catalogue/reads.ts';
import type { Db } from '../store/database.ts';
import { topHolders, type HolderRow } from '../store/market-data-holders-repository.ts';
import { ANONYMOUS_LABEL } from './trade-activity.ts';

export interface MarketHolder {
  userId: string;
  name: string | null;
  anonymous?: true;
  avatarUrl: string | null;
  walletShort: string | null;
  shares: number;
  rank: number;
}

export interface MarketHoldersOutcome {
  label: string;
  tokenId: string | null;
  holders: MarketHolder[];
}

export interface MarketHolders {
  marketId: string;
  outcome1: MarketHoldersOutcome;
  outcome2: MarketHoldersOutcome;
}

/** "0x1234…abcd": enough to tell wallets apart, never the full address. */
export function shortWallet(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

function toHolder(row: HolderRow, index: number): MarketHolder {
  const shares = unitsToNumber(BigInt(row.balance));
  if (row.anonymous) return { userId: row.user_id, name: ANONYMOUS_LABEL, anonymous: true, avatarUrl: null, walletShort: null, shares, rank: index + 1 };
  return {
    userId: row.user_id,
    name: row.display_name,
    avatarUrl: row.avatar_url,
    walletShort: row.display_name === null ? shortWallet(row.proxy_wallet) : null,
    shares,
    rank: index + 1,
  };
}

/** GET /markets/{id_or_slug}/holders (SPEC.md 4.2): top holders of each outcome by shares. */
export class HolderReads {
  constructor(private readonly db: Db, private readonly catalogue: CatalogueReads) {}

  async ofMarket(idOrSlug: string, limit: number, admin: boolean): Promise<MarketHolders> {
    const market = await this.catalogue.getMarket(idOrSlug, admin);
    const outcome = async (label: string, tokenId: string | null): Promise<MarketHoldersOutcome> => ({
      label,
      tokenId,
      holders: tokenId === null ? [] : (await topHolders(this.db, tokenId, limit)).map(toHolder),
    });
    return { marketId: market.id, outcome1: await outcome(market.outcome1, market.tokenId1), outcome2: await outcome(market.outcome2, market.tokenId2) };
  }
}

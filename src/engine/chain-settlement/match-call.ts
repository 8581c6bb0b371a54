import type { Address, Hex } from 'viem';
import type { OrderStruct } from '../../core/orders/eip712-order.ts';
import { costBaseUnits } from '../../core/orders/reservation.ts';
import type { OrderRow } from '../../store/orders-repository.ts';
import { matchIdOf } from '../state/match-parts.ts';
import type { EngineTrade, TradeParty } from '../state/types.ts';

/** The exchange contract's Order tuple (contracts/exchange/OrderStructs.sol): the signed message and its signature, as viem encodes it. */
export type ContractOrder = OrderStruct & { readonly signature: Hex };

/**
 * The arguments of one `matchOrders` call: a taker order against its makers, in units of each
 * order's makerAmount, the fee rate each maker pays, and which part of the taker's match it is
 * (../state/match-parts.ts).
 */
export interface MatchCall {
  takerOrder: ContractOrder;
  makerOrders: ContractOrder[];
  takerFillAmount: bigint;
  makerFillAmounts: bigint[];
  makerFeeRatesBps: bigint[];
  part: bigint;
}

/** One match (or part of one) to settle: a taker order's trades (in match order), the exchange that settles them, and the call. */
export interface MatchFill {
  /** The match's id (`matchIdOf`): a taker order matches once, so its id names its match, and `#part` a part beyond the first. */
  readonly id: string;
  /** The taker order's EIP-712 hash, which the exchange's `OrdersMatched` log and `TakerAlreadyMatched` revert name. */
  readonly takerHash: string;
  readonly tradeIds: readonly string[];
  readonly negRisk: boolean;
  readonly call: MatchCall;
  /** Each order of the call by its EIP-712 hash, and each party's wallet: to name the orders a revert blames. */
  readonly orderIdByHash: ReadonlyMap<string, string>;
  readonly orderIdsByWallet: ReadonlyMap<string, readonly string[]>;
}

/**
 * The `matchOrders` call of a match, from its trades and the stored orders: each maker fills its
 * own making side (collateral for a BUY, tokens for a SELL) at its own price, and the taker the
 * sum of its sides of the fills (contracts/exchange/Trading.sol). An unsigned order (EXTENSIONS.md
 * section 11) goes with empty signature bytes: the operator vouches for it (contracts/README.md).
 */
export function matchFillOf(trades: readonly EngineTrade[], orders: ReadonlyMap<string, OrderRow>, negRisk: boolean): MatchFill {
  const first = trades[0];
  if (!first) throw new Error('a match has at least one trade');
  const taker = rowOf(orders, first.taker.orderId);
  const makerOrders = trades.map((trade) => rowOf(orders, trade.maker.orderId));
  const call: MatchCall = {
    takerOrder: contractOrder(taker),
    makerOrders: makerOrders.map(contractOrder),
    takerFillAmount: trades.reduce((sum, trade) => sum + makingOf(trade.taker, trade.sizeBaseUnits), 0n),
    makerFillAmounts: trades.map((trade) => makingOf(trade.maker, trade.sizeBaseUnits)),
    makerFeeRatesBps: makerOrders.map(makerFeeRateOf),
    part: BigInt(first.matchPart ?? 0),
  };
  const orderIdByHash = new Map<string, string>();
  const orderIdsByWallet = new Map<string, string[]>();
  for (const row of [taker, ...makerOrders]) {
    orderIdByHash.set(row.hash.toLowerCase(), row.id);
    // The wallet the order settles from (an EOA-signed order's maker is the EOA, its funds the wallet's).
    const wallet = row.account.toLowerCase();
    orderIdsByWallet.set(wallet, [...(orderIdsByWallet.get(wallet) ?? []), row.id]);
  }
  return { id: matchIdOf(first), takerHash: taker.hash, tradeIds: trades.map((t) => t.id), negRisk, call, orderIdByHash, orderIdsByWallet };
}

/**
 * The rate a resting order pays, which the ledger charged: the market's passive rate when the
 * order was accepted, at most its signed rate, which the contract enforces (an order accepted
 * before journal version 4 was charged the passive rate uncapped: the chain charges it capped).
 */
function makerFeeRateOf(row: OrderRow): bigint {
  return BigInt(Math.min(row.passive_fee_rate_bps, row.fee_rate_bps));
}

/** What a party gives in the fill, in its order's makerAmount units: a BUY its cost at its own price, a SELL its tokens. */
function makingOf(party: TradeParty, size: bigint): bigint {
  return party.side === 'BUY' ? costBaseUnits(party.priceMicros, size) : size;
}

function rowOf(orders: ReadonlyMap<string, OrderRow>, id: string): OrderRow {
  const row = orders.get(id);
  if (!row) throw new Error(`order ${id} of a trade to settle is not in the store`);
  return row;
}

function contractOrder(row: OrderRow): ContractOrder {
  return {
    salt: BigInt(row.salt),
    maker: row.maker as Address,
    signer: row.signer as Address,
    taker: row.taker as Address,
    tokenId: BigInt(row.token_id),
    makerAmount: BigInt(row.maker_amount),
    takerAmount: BigInt(row.taker_amount),
    expiration: BigInt(row.expiration),
    nonce: BigInt(row.nonce),
    feeRateBps: BigInt(row.fee_rate_bps),
    side: row.side as OrderStruct['side'],
    signatureType: row.signature_type as OrderStruct['signatureType'],
    signature: (row.signature === '' ? '0x' : row.signature) as Hex,
  };
}

/**
 * A trading client as an outside SDK would write it from SPEC.md and EXTENSIONS.md alone: it signs
 * in with a wallet, holds an API key, builds CreateOrder bodies with exact base-unit amounts, and
 * signs them with viem's EIP-712 implementation over the domain `GET /exchange` publishes.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { parseUnits } from 'viem';
import { createApiKey, signedRequest, signIn, type ApiCredentials, type SignedInUser } from './auth-client.ts';
import { get, post, type JsonResponse } from './http.ts';
import { ORDER_TYPES } from '../../src/client/orders/eip712.ts';
import { auditExchange } from '../../src/cli/audit-exchange.ts';
import type { Caller } from '../../src/identity/caller.ts';
import type { ApiServer, TestServer } from './server.ts';

export interface Trader {
  session: SignedInUser;
  creds: ApiCredentials;
  /** Sign-in address (EOA), checksummed. */
  address: `0x${string}`;
  proxyWallet: `0x${string}`;
  userId: string;
  call<T = any>(method: string, path: string, body?: unknown): Promise<JsonResponse<T>>;
}

export interface OrderSpec {
  tokenId: string;
  side: 'BUY' | 'SELL';
  /** Decimal price, e.g. "0.42". */
  price: string;
  /** Decimal token size, e.g. "10". */
  size: string;
  orderType?: 'GTC' | 'FOK' | 'FAK';
  postOnly?: boolean;
  expiration?: number;
  /** Sign the order (EIP-712); default true. */
  signed?: boolean;
  /** 1 (default): the maker is the proxy wallet; 0 (EOA): the maker is the sign-in address. */
  signatureType?: 0 | 1;
  negRisk?: boolean;
  feeRateBps?: number;
  idempotencyKey?: string;
  salt?: string;
}

const ZERO_ADDRESS: `0x${string}` = '0x0000000000000000000000000000000000000000';

/** The trader as the order services see an API-key caller: for tests that call them directly, in one turn. */
export const callerOf = (trader: Trader): Caller => ({ userId: trader.userId, address: trader.address, proxyWallet: trader.proxyWallet, via: 'apiKey' });

/** Signs in a new wallet, makes an API key, and deposits `fund` collateral (display units) when given. */
export async function newTrader(server: ApiServer, options: { fund?: string } = {}): Promise<Trader> {
  const session = await signIn(server);
  const creds = await createApiKey(server, session.token);
  const trader: Trader = {
    session,
    creds,
    address: session.account.address,
    proxyWallet: session.user.proxyWallet as `0x${string}`,
    userId: session.user.userId,
    call: (method, path, body) => signedRequest(server, creds, method, path, body),
  };
  if (options.fund) await credit(server, trader.address, options.fund);
  return trader;
}

/** POST /admin/credits: deposits collateral for a sign-in address. */
export async function credit(server: ApiServer, address: string, amount: string): Promise<void> {
  const response = await post(server.api('/admin/credits'), { address, amount }, server.adminHeaders);
  if (response.status !== 200) throw new Error(`credit failed: ${response.status} ${JSON.stringify(response.body)}`);
}

/** A CreateOrder body: BUY pays makerAmount collateral for takerAmount tokens, SELL the reverse. */
export async function orderBody(server: ApiServer, trader: Trader, spec: OrderSpec): Promise<Record<string, unknown>> {
  const size = parseUnits(spec.size, 6);
  const cost = (parseUnits(spec.price, 6) * size) / 1_000_000n;
  const [makerAmount, takerAmount] = spec.side === 'BUY' ? [cost, size] : [size, cost];
  const salt = spec.salt ?? BigInt(`0x${randomBytes(16).toString('hex')}`).toString();
  const body: Record<string, unknown> = {
    salt,
    taker: ZERO_ADDRESS,
    tokenId: spec.tokenId,
    makerAmount: makerAmount.toString(),
    takerAmount: takerAmount.toString(),
    expiration: spec.expiration ?? 0,
    side: spec.side === 'BUY' ? 0 : 1,
    orderType: spec.orderType ?? 'GTC',
    ...(spec.postOnly === undefined ? {} : { postOnly: spec.postOnly }),
    ...(spec.idempotencyKey ? { idempotencyKey: spec.idempotencyKey } : {}),
  };
  if (spec.signed === false) return body;
  const exchange = (await get(server.api('/exchange'))).body;
  const signatureType = spec.signatureType ?? 1;
  const maker = signatureType === 0 ? trader.address : trader.proxyWallet;
  const message = {
    salt: BigInt(salt),
    maker,
    signer: trader.address,
    taker: ZERO_ADDRESS,
    tokenId: BigInt(spec.tokenId),
    makerAmount,
    takerAmount,
    expiration: BigInt(body.expiration as number),
    nonce: 0n,
    feeRateBps: BigInt(spec.feeRateBps ?? 0),
    side: spec.side === 'BUY' ? 0 : 1,
    signatureType,
  };
  const signature = await trader.session.account.signTypedData({
    domain: { ...exchange.eip712, chainId: exchange.chainId, verifyingContract: spec.negRisk ? exchange.negRiskVerifyingContract : exchange.eip712.verifyingContract },
    types: ORDER_TYPES,
    primaryType: 'Order',
    message,
  });
  return { ...body, maker, signer: trader.address, nonce: 0, signatureType, feeRateBps: spec.feeRateBps ?? 0, signature };
}

/** Builds, signs and places an order; returns the raw response. */
export async function placeOrder(server: ApiServer, trader: Trader, spec: OrderSpec): Promise<JsonResponse> {
  return trader.call('POST', '/orders', await orderBody(server, trader, spec));
}

/** A trade: the maker's order placed (answered 200), then the taker's, which must execute against it at once. */
export async function expectTrade(server: ApiServer, maker: Trader, taker: Trader, makerSpec: OrderSpec, takerSpec: OrderSpec): Promise<void> {
  assert.equal((await placeOrder(server, maker, makerSpec)).status, 200);
  const taken = await placeOrder(server, taker, takerSpec);
  assert.equal(taken.body.status, 'EXECUTED', JSON.stringify(taken.body));
}

/**
 * Runs the exchange's audit (the ledger with what the stored orders, matched trades and oracle
 * bonds must keep locked; orders against trades against the ledger; the journal replayed against
 * the tables; on a chain, the wallets against the ledger) once the tables hold every command the
 * engine answered and the chain every payout the ledger made first.
 */
export async function expectAuditClean(server: TestServer): Promise<void> {
  // What moved on chain behind the exchange's back is in the ledger before it is compared with the chain.
  await server.ctx.trading.engine.chainIndexed();
  await server.ctx.trading.engine.tablesHoldAll();
  // The oracle's payouts the ledger made are made on chain once announced.
  await server.ctx.trading.engine.announced();
  await server.ctx.conditionalTokens.oraclePayouts?.idle();
  const { embedded, deployed, kind } = server.ctx.chain;
  const url = embedded?.url ?? server.ctx.config.chainRpcUrl;
  const chain = url && deployed ? { chain: { url, contracts: deployed } } : {};
  const report = await auditExchange(server.ctx.store.db, { onChain: kind !== 'none', ...chain });
  if (!report.ok) throw new Error(`audit failed: ${JSON.stringify(report.violations, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
}

/** A test file's `after` for its server: the audit clean (expectAuditClean), and the server closed whether it is or not. */
export async function closeAudited(server: TestServer): Promise<void> {
  try {
    await expectAuditClean(server);
  } finally {
    await server.close();
  }
}

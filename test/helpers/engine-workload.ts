import fc from 'fast-check';
import type { EngineCommand } from '../../src/engine/state/commands.ts';
import type { MarketTradingInfo } from '../../src/engine/types.ts';
import type { Approval } from '../../src/engine/state/wallet-approvals.ts';

/**
 * Random workloads for the engine's state machine (test/engine/state-replay.test.ts and the
 * deterministic simulation): users, markets of a binary event and of a neg-risk event, and a
 * script of operations that become journal commands. Operations name orders by a pick among
 * those placed so far, so a script means the same commands whatever ids the engine derived.
 */
export const USERS = ['0x00000000000000000000000000000000000000a1', '0x00000000000000000000000000000000000000a2', '0x00000000000000000000000000000000000000a3', '0x00000000000000000000000000000000000000a4'];
export const userIdOf = (account: string) => `00000000-0000-4000-8000-${account.slice(-12)}`;
/** Each user's one API key; its orders, heartbeat, sockets and MMP settings go with it. */
export const apiKeyOf = (user: number) => `00000000-0000-4000-b000-00000000000${user}`;
/** The node holding a workload socket: two nodes, so an adoption finds some present and some gone. */
const nodeOf = (node: number) => `node-${node}`;
export const UNIT = 1_000_000n;

function market(n: number, eventId: string, negRisk: boolean): MarketTradingInfo {
  const hex = n.toString(16).padStart(2, '0');
  return {
    id: `00000000-0000-4000-9000-0000000000${hex}`, eventId, status: 'ACTIVE', isPaused: false, isResolved: false, negRisk,
    tokenId1: `${1000 + n * 2}`, tokenId2: `${1001 + n * 2}`, conditionId: `0x${hex.repeat(32)}`, outcome1: 'Yes', outcome2: 'No',
    tickSize: '0.01', orderFeeRateBps: 100, passiveOrderFeeRateBps: 20, speedBumpDelayMs: n === 2 ? 2000 : 0,
    // The third market's reward is not escrowed: paid at settlement when the treasury covers it then.
    ...(n === 3 ? {} : { oracleReward: '2000000' }),
  };
}

export const MARKETS: MarketTradingInfo[] = [
  market(1, '00000000-0000-4000-a000-000000000001', false),
  market(2, '00000000-0000-4000-a000-000000000002', true),
  market(3, '00000000-0000-4000-a000-000000000002', true),
];

export type Op =
  /** `key`: one of a few idempotency keys, so credits are asked again, and keys reused for other credits. */
  | { kind: 'credit'; user: number; units: number; key?: number }
  | { kind: 'split'; user: number; market: number; units: number }
  | { kind: 'place'; user: number; market: number; outcome: 0 | 1; side: 'BUY' | 'SELL'; cents: number; units: number; type: 'GTC' | 'FOK' | 'FAK'; postOnly: boolean; expiresInSec: number }
  | { kind: 'cancel'; user: number; pick: number }
  | { kind: 'cancel-all'; user: number }
  | { kind: 'tick'; advanceMs: number }
  | { kind: 'settle' }
  /** `units`: the amount of each market a chain merged first (the command's `amounts`), some above what is available; null merges what is. */
  | { kind: 'merge'; user: number; units: number | null }
  | { kind: 'redeem'; user: number }
  | { kind: 'propose'; user: number; market: number; outcome: 'YES' | 'NO' | 'TIE' }
  | { kind: 'dispute'; user: number; market: number }
  | { kind: 'decide'; market: number; outcome: 'YES' | 'NO' }
  | { kind: 'settle-question'; market: number }
  | { kind: 'pause'; market: number; paused: boolean }
  | { kind: 'treasury'; units: number }
  | { kind: 'claim'; user: number; units: number; claim: number }
  /** `toUser`: sent to that user's wallet (the collateral stays in the exchange); null, out of it. */
  | { kind: 'withdraw'; user: number; units: number; nonce: number; toUser: number | null }
  | { kind: 'heartbeat'; user: number; timeoutMs: number }
  | { kind: 'heartbeat-off'; user: number }
  | { kind: 'session'; user: number; change: 'open' | 'close'; socket: number; resumes: number | null; node: number | null }
  | { kind: 'sessions-adopted'; present: number[] }
  | { kind: 'mmp-set'; user: number; market: number; byEvent: boolean; windowMs: number; maxFills: number | null; maxUnits: number | null; maxNotional: number | null; frozenMs: number }
  | { kind: 'mmp-remove'; user: number; market: number; byEvent: boolean }
  /** What a real chain did with a pick among the unsettled matches (CHAIN≠none), and a settlement sender's record put or dropped. */
  | { kind: 'chain-fill'; event: 'mined' | 'confirmed' | 'reorged' | 'failed'; pick: number }
  | { kind: 'chain-tx'; put: boolean; nonce: number }
  /**
   * Value moved on chain behind the exchange's back, as the indexer reports it, with an approval a
   * wallet gave or revoked in the same range, before or after the transfer: `blocks` 0 repeats the
   * last range (changing nothing).
   */
  | {
    kind: 'chain-transfer'; user: number; asset: 'collateral' | { market: number; outcome: 0 | 1 }; direction: 'in' | 'out'; units: number; blocks: number;
    approval: { user: number; approval: Approval; approved: boolean; before: boolean } | null;
  };

const user = fc.nat(USERS.length - 1);
const marketIndex = fc.nat(MARKETS.length - 1);
export const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('credit' as const), user, units: fc.integer({ min: 1, max: 200 }), key: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('split' as const), user, market: marketIndex, units: fc.integer({ min: 1, max: 50 }) }) },
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('place' as const), user, market: marketIndex, outcome: fc.constantFrom(0 as const, 1 as const), side: fc.constantFrom('BUY' as const, 'SELL' as const),
      cents: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(45, 50, 55) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 99 }) }), units: fc.integer({ min: 1, max: 30 }), type: fc.constantFrom('GTC' as const, 'GTC' as const, 'GTC' as const, 'GTC' as const, 'FOK' as const, 'FAK' as const),
      postOnly: fc.integer({ min: 0, max: 9 }).map((n) => n === 0), expiresInSec: fc.constantFrom(0, 0, 0, 3, 30),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel' as const), user, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel-all' as const), user }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('tick' as const), advanceMs: fc.integer({ min: 0, max: 8_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('settle' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('merge' as const), user, units: fc.option(fc.integer({ min: 1, max: 30 })) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redeem' as const), user }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('propose' as const), user, market: marketIndex, outcome: fc.constantFrom('YES' as const, 'NO' as const, 'TIE' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dispute' as const), user, market: marketIndex }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('decide' as const), market: marketIndex, outcome: fc.constantFrom('YES' as const, 'NO' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('settle-question' as const), market: marketIndex }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pause' as const), market: marketIndex, paused: fc.integer({ min: 0, max: 3 }).map((n) => n === 0) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('treasury' as const), units: fc.integer({ min: 1, max: 20 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('claim' as const), user, units: fc.integer({ min: 1, max: 10 }), claim: fc.nat(5) }) },
  // Few nonces, so a run spends one twice; amounts up to all of a user's start, so some exceed available.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), user, units: fc.integer({ min: 1, max: 1_000 }), nonce: fc.nat(3), toUser: fc.option(user) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('heartbeat' as const), user, timeoutMs: fc.integer({ min: 5_000, max: 12_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('heartbeat-off' as const), user }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('session' as const), user, change: fc.constantFrom('open' as const, 'close' as const), socket: fc.nat(2), resumes: fc.option(fc.nat(2), { nil: null }), node: fc.option(fc.nat(1), { nil: null }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sessions-adopted' as const), present: fc.subarray([0, 1]) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('mmp-set' as const), user, market: marketIndex, byEvent: fc.boolean(), windowMs: fc.integer({ min: 1_000, max: 10_000 }),
      maxFills: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }), maxUnits: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
      maxNotional: fc.option(fc.integer({ min: 1, max: 20 }), { nil: null }), frozenMs: fc.integer({ min: 0, max: 6_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mmp-remove' as const), user, market: marketIndex, byEvent: fc.boolean() }) },
);

/**
 * Settlement on a real chain instead of the simulated rounds: the same workload with `settle`
 * replaced by what the chain reports (a run never mixes the two, as a server never does).
 */
const chainOpArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: opArbitrary.filter((op) => op.kind !== 'settle') },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('chain-fill' as const), event: fc.constantFrom('mined' as const, 'mined' as const, 'confirmed' as const, 'reorged' as const, 'failed' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('chain-tx' as const), put: fc.boolean(), nonce: fc.nat(3) }) },
  {
    // Amounts up to more than a user holds, so transfers out cancel orders and leave shortfalls.
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('chain-transfer' as const), user, asset: fc.oneof(fc.constant('collateral' as const), fc.record({ market: marketIndex, outcome: fc.constantFrom(0 as const, 1 as const) })),
      direction: fc.constantFrom('in' as const, 'out' as const), units: fc.integer({ min: 1, max: 1_200 }), blocks: fc.nat(3),
      approval: fc.option(fc.record({
        user, approval: fc.constantFrom<Approval>('exchange:collateral', 'exchange:outcome-tokens', 'neg-risk-exchange:collateral', 'neg-risk-exchange:outcome-tokens'),
        approved: fc.boolean(), before: fc.boolean(),
      }), { nil: null }),
    }),
  },
);

/** Records of operations: each inner array is one record (one batch). `chain`: settlement on a chain rather than in rounds. */
export const scriptArbitrary = (maxRecords = 30, { chain = false } = {}) =>
  fc.array(fc.array(chain ? chainOpArbitrary : opArbitrary, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: maxRecords });

/** The terms of every question of the workload: a bond of 5, a reward of 2, a liveness of 4 s, markets ended. */
const TERMS = { endMs: 0, proposalBondBaseUnits: 5n * UNIT, rewardBaseUnits: 2n * UNIT, livenessMs: 4_000 };

/**
 * Turns operations into commands, resolving picks against the orders placed so far (`openIds`,
 * which the caller keeps from the engine's outcomes). `nextHash` makes each order's hash unique.
 */
export class WorkloadCommands {
  private hashes = 0;
  /** The last block a chain-transfer op indexed to. */
  private block = 0;
  readonly markets = MARKETS.map((m) => ({ ...m }));

  /**
   * The first record of every run: the reward treasury with 50, the markets published (two of them
   * escrowing their oracle reward of 2), every user funded with 1,000 and holding 100 of both tokens
   * of every market.
   */
  publish(): EngineCommand[] {
    return [
      { kind: 'credit', account: 'system:reward-treasury', amount: 50n * UNIT, reason: 'TREASURY_DEPOSIT', ref: 'start' },
      ...this.markets.map((info): EngineCommand => ({ kind: 'market', info })),
      ...USERS.map((account): EngineCommand => ({ kind: 'credit', account, amount: 1000n * UNIT, reason: 'DEPOSIT', ref: 'start' })),
      ...USERS.flatMap((account) => this.markets.map((m): EngineCommand => ({ kind: 'split', account, marketId: m.id, amount: 100n * UNIT }))),
    ];
  }

  toCommands(op: Op, openIds: readonly string[], nowSec: number, matchIds: readonly string[] = []): { commands: EngineCommand[]; advanceMs: number } {
    const account = (n: number) => USERS[n]!;
    const one = (command: EngineCommand) => ({ commands: [command], advanceMs: 0 });
    switch (op.kind) {
      case 'credit':
        return one({ kind: 'credit', account: account(op.user), amount: BigInt(op.units) * UNIT, reason: 'DEPOSIT', ref: `credit:${op.user}`, ...(op.key === undefined ? {} : { idempotencyKey: `key-${op.key}` }) });
      case 'split':
        return one({ kind: 'split', account: account(op.user), marketId: this.markets[op.market]!.id, amount: BigInt(op.units) * UNIT });
      case 'place':
        return one({ kind: 'place', order: this.order(op, nowSec) });
      case 'cancel': {
        const orderId = openIds.length === 0 ? '00000000-0000-4000-8000-000000000000' : openIds[op.pick % openIds.length]!;
        return one({ kind: 'cancel', userId: userIdOf(account(op.user)), orderId });
      }
      case 'cancel-all':
        return one({ kind: 'cancel-markets', userId: userIdOf(account(op.user)), marketIds: this.markets.map((m) => m.id) });
      case 'tick':
        return { commands: [{ kind: 'tick' }], advanceMs: op.advanceMs };
      case 'settle':
        return one({ kind: 'settle' });
      case 'merge':
        return one({ kind: 'merge', account: account(op.user), marketIds: this.markets.map((m) => m.id), ...(op.units === null ? {} : { amounts: this.markets.map(() => BigInt(op.units!) * UNIT) }) });
      case 'redeem':
        return one({ kind: 'redeem', userId: userIdOf(account(op.user)), account: account(op.user), marketIds: this.markets.map((m) => m.id) });
      case 'propose':
        return one({ kind: 'oracle', marketId: this.markets[op.market]!.id, command: { kind: 'propose', by: { kind: 'user', account: account(op.user), userId: userIdOf(account(op.user)) }, outcome: op.outcome }, terms: TERMS });
      case 'dispute':
        return one({ kind: 'oracle', marketId: this.markets[op.market]!.id, command: { kind: 'dispute', by: { kind: 'user', account: account(op.user), userId: userIdOf(account(op.user)) } }, terms: TERMS });
      case 'decide':
        return one({ kind: 'oracle', marketId: this.markets[op.market]!.id, command: { kind: 'decide', outcome: op.outcome }, terms: TERMS });
      case 'settle-question':
        return one({ kind: 'oracle', marketId: this.markets[op.market]!.id, command: { kind: 'tick' }, terms: TERMS });
      case 'pause': {
        const info = this.markets[op.market]!;
        info.isPaused = op.paused;
        return one({ kind: 'market', info: { ...info } });
      }
      case 'treasury':
        return one({ kind: 'credit', account: 'system:reward-treasury', amount: BigInt(op.units) * UNIT, reason: 'TREASURY_DEPOSIT', ref: 'treasury' });
      case 'claim':
        return one({ kind: 'transfer', from: 'system:reward-treasury', to: account(op.user), asset: 'collateral', amount: BigInt(op.units) * UNIT, why: 'REWARD', ref: `reward-claim:${op.claim}`, once: true });
      case 'withdraw':
        return one({
          kind: 'withdraw', account: account(op.user), to: op.toUser === null ? '0x000000000000000000000000000000000000dead' : account(op.toUser), amount: BigInt(op.units) * UNIT, nonce: BigInt(op.nonce),
          ...(op.toUser === null ? {} : { toAccount: account(op.toUser) }),
        });
      case 'heartbeat':
        return one({ kind: 'heartbeat', apiKey: apiKeyOf(op.user), timeoutMs: op.timeoutMs });
      case 'heartbeat-off':
        return one({ kind: 'heartbeat-off', apiKey: apiKeyOf(op.user) });
      case 'session': {
        const socket = (n: number) => `socket-${op.user}-${n}`;
        return one({ kind: 'session', apiKey: apiKeyOf(op.user), change: op.change, sessionId: socket(op.socket), resumes: op.resumes === null ? null : socket(op.resumes), node: op.node === null ? null : nodeOf(op.node) });
      }
      case 'sessions-adopted':
        return one({ kind: 'sessions-adopted', present: op.present.map(nodeOf) });
      case 'mmp-set': {
        // A setting with no limit is refused by the API; the workload gives it a count of fills.
        const maxFills = op.maxFills ?? (op.maxUnits === null && op.maxNotional === null ? 2 : null);
        const setting = {
          apiKey: apiKeyOf(op.user), userId: userIdOf(account(op.user)), scope: this.scopeOf(op), windowMs: op.windowMs, maxFills, frozenMs: op.frozenMs,
          maxQuantityBaseUnits: op.maxUnits === null ? null : BigInt(op.maxUnits) * UNIT, maxNotionalBaseUnits: op.maxNotional === null ? null : BigInt(op.maxNotional) * UNIT,
        };
        return one({ kind: 'mmp-set', setting });
      }
      case 'mmp-remove':
        return one({ kind: 'mmp-remove', apiKey: apiKeyOf(op.user), scope: this.scopeOf(op) });
      case 'chain-fill': {
        const matchId = matchIds.length === 0 ? '00000000-0000-4000-8000-000000000000' : matchIds[op.pick % matchIds.length]!;
        // One transaction per match, so a confirmation names the transaction its mining did.
        const txHash = `0x${matchId.replaceAll('-', '').padStart(64, '0')}`;
        const event = op.event === 'failed' ? { type: op.event, matchId, reason: 'ERC20InsufficientBalance', faultOrderIds: [matchId] }
          : op.event === 'reorged' ? { type: op.event, matchId } : op.event === 'mined' ? { type: op.event, matchId, txHash, blockNumber: 7 } : { type: op.event, matchId, txHash };
        return one({ kind: 'chain-fills', events: [event] });
      }
      case 'chain-tx': {
        const record = { nonce: op.nonce, fillIds: matchIds.slice(0, 1), to: `0x${'ee'.repeat(20)}` as const, data: '0x' as const, gas: '100000', versions: [], mined: null };
        return one({ kind: 'chain-tx', change: op.put ? { sender: 'exchange', kind: 'put', record } : { sender: 'exchange', kind: 'drop', record } });
      }
      case 'chain-transfer': {
        this.block += op.blocks;
        const asset = op.asset === 'collateral' ? 'collateral' : op.asset.outcome === 0 ? this.markets[op.asset.market]!.tokenId1 : this.markets[op.asset.market]!.tokenId2;
        const ref = (logIndex: number) => `0x${this.block.toString(16).padStart(64, '0')}:${logIndex}`;
        const transfer = { ref: ref(0), account: account(op.user), asset, amount: BigInt(op.units) * UNIT, direction: op.direction };
        if (!op.approval) return one({ kind: 'chain-transfers', toBlock: this.block, events: [transfer] });
        const approval = { ref: ref(1), account: account(op.approval.user), approval: op.approval.approval, approved: op.approval.approved };
        return one({ kind: 'chain-transfers', toBlock: this.block, events: op.approval.before ? [approval, transfer] : [transfer, approval] });
      }
    }
  }

  private scopeOf(op: { market: number; byEvent: boolean }) {
    const info = this.markets[op.market]!;
    return op.byEvent ? { kind: 'event' as const, id: info.eventId } : { kind: 'market' as const, id: info.id };
  }

  private order(op: Extract<Op, { kind: 'place' }>, nowSec: number): Extract<EngineCommand, { kind: 'place' }>['order'] {
    const info = this.markets[op.market]!;
    const account = USERS[op.user]!;
    const size = BigInt(op.units) * UNIT;
    const priceMicros = op.cents * 10_000;
    const cost = (BigInt(priceMicros) * size) / UNIT;
    this.hashes += 1;
    return {
      userId: userIdOf(account),
      account,
      apiKey: apiKeyOf(op.user),
      marketId: info.id,
      hash: `0x${this.hashes.toString(16).padStart(64, '0')}`,
      idempotencyKey: null,
      order: {
        tokenId: op.outcome === 0 ? info.tokenId1 : info.tokenId2, outcome: op.outcome, side: op.side, priceMicros, sizeBaseUnits: size,
        makerAmount: op.side === 'BUY' ? cost : size, takerAmount: op.side === 'BUY' ? size : cost, orderType: op.type, postOnly: op.type === 'GTC' && op.postOnly,
        expirationSec: op.expiresInSec === 0 ? 0 : nowSec + op.expiresInSec, maker: account as `0x${string}`, signer: account as `0x${string}`, taker: '0x0000000000000000000000000000000000000000', nonce: 0n,
        feeRateBps: info.orderFeeRateBps, signatureType: 1, salt: BigInt(this.hashes), signature: '',
      },
    };
  }
}

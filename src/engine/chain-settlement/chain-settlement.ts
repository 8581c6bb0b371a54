import type { FastifyBaseLogger } from 'fastify';
import { encodeFunctionData, type Abi, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createSettlementSender, DeepReorgError, type FillEvent, type SettlementSender } from '../../settlement/chain/sender/index.ts';
import { loadArtifact } from '../../settlement/contracts/index.ts';
import type { OrderRow } from '../../store/orders-repository.ts';
import { journaledChainTxChange, type ChainFillEvent, type ChainTxChange } from '../state/chain-settlement-commands.ts';
import type { EngineState } from '../state/engine-state.ts';
import { tradesByMatch } from '../state/match-parts.ts';
import type { EngineTrade } from '../state/types.ts';
import { earlierSettlement } from './earlier-settlement.ts';
import { matchFillOf, type MatchFill } from './match-call.ts';
import { faultOrderIds } from './revert-fault.ts';

/** One exchange contract and the key that settles on it: each key has its own nonces, so each exchange its own sender. */
export interface SettlementKey {
  readonly exchange: Address;
  readonly key: Hex;
}

export interface ChainSettlementOptions {
  /** The chain's client: its transport follows an embedded anvil restarted on another port. */
  client: PublicClient;
  /** Blocks on top of a trade's block before it is CONFIRMED (CONFIRMATIONS). */
  confirmations: number;
  /** MAX_FEE_PER_GAS_GWEI, in wei: no settlement transaction is signed above it. */
  maxFeePerGas?: bigint;
  /** The standard exchange's and the neg-risk exchange's. */
  keys: { exchange: SettlementKey; negRisk: SettlementKey };
  /** Matches in one transaction at most (`matchOrdersBatch`). */
  maxMatchesPerTx?: number;
  /** A transaction that is not full leaves at most once every this many milliseconds (SETTLEMENT_GATHER_MS; the sender's `gatherMs`). */
  gatherMs?: number;
  pollIntervalMs?: number;
  /** How the senders simulate a batch (src/settlement/chain/sender/README.md): `call` on the embedded chain. */
  simulation?: 'estimateGas' | 'call';
  /**
   * Mines an empty block (a local chain that mines only when sent a transaction): called every
   * CONFIRMATION_BLOCK_MS while matches wait, so the last ones are confirmed without more traffic.
   */
  mineEmptyBlock?(): Promise<void>;
}

const CONFIRMATION_BLOCK_MS = 500;

export interface ChainSettlementDeps {
  state(): EngineState;
  /** Journals a command; resolves once it is durable. Commands are journaled in the order of these calls. */
  journal(command: { kind: 'chain-tx'; change: ChainTxChange } | { kind: 'chain-fills'; events: ChainFillEvent[] }): Promise<unknown>;
  /** The stored orders (signed fields included), by id: the records the tables lack first. */
  orders(ids: string[]): Promise<Map<string, OrderRow>>;
  logger: FastifyBaseLogger;
}

const SENDERS = ['exchange', 'negRisk'] as const;
type SenderName = (typeof SENDERS)[number];

/** The exchange's ABI, with the collateral's errors so a revert for an unfunded wallet names the wallet. */
export const SETTLEMENT_ABI: Abi = [...loadArtifact('PmxExchange').abi, ...loadArtifact('LocalCollateral').abi.filter((item) => item.type === 'error')];

/**
 * Settlement on a real chain, run by the leader (src/engine/chain-settlement/README.md):
 * every MATCHED trade, in journal order, goes to the settlement sender of its market's exchange as
 * part of its match (one `matchOrders` per taker order, or per part of a match of more than 100
 * makers: ../state/match-parts.ts); each sender's write-ahead records and what
 * the chain did with each match come back into the journal as commands. A takeover or a restart
 * resumes the records the state holds and submits again the matches in none of them.
 */
export class ChainSettlement {
  private readonly senders = new Map<SenderName, SettlementSender<MatchFill>>();
  /** What the senders reported and the journal has not been handed yet. */
  private pending: ChainFillEvent[] = [];
  /** Matches reach the senders in journal order, though building each reads the store. */
  private intake: Promise<void> = Promise.resolve();
  private running = false;
  private starting: Promise<void> | undefined;
  private blockTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: ChainSettlementOptions,
    private readonly deps: ChainSettlementDeps,
  ) {}

  /** Resumes the records the state holds, starts the senders, and submits every MATCHED match in none of them. */
  async start(): Promise<void> {
    this.starting = this.startSenders();
    try {
      await this.starting;
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  private async startSenders(): Promise<void> {
    const { client } = this.options;
    const state = this.deps.state();
    const matches = tradesByMatch(state.unsettled.values());
    const inRecords = new Set<string>();
    this.running = true;
    for (const name of SENDERS) {
      const sender = this.createSender(name, client);
      const records = [...state.chainTxs.values()].filter((tx) => tx.sender === name).map((tx) => tx.record);
      const ids = records.flatMap((record) => record.fillIds);
      for (const id of ids) inRecords.add(id);
      sender.resume(records, await this.fillsOf(ids.map((id) => matches.get(id)).filter((trades) => trades !== undefined)));
      await sender.start();
      this.senders.set(name, sender);
    }
    const waiting = [...matches.entries()].filter(([id, trades]) => !inRecords.has(id) && trades.every((t) => t.status === 'MATCHED'));
    this.enqueue(waiting.map(([, trades]) => trades));
    const mine = this.options.mineEmptyBlock;
    if (mine) {
      this.blockTimer = setInterval(() => {
        if (this.outstanding() > 0) mine().catch((error) => this.deps.logger.debug({ err: error }, 'an empty block for confirmations was not mined'));
      }, CONFIRMATION_BLOCK_MS);
      this.blockTimer.unref();
    }
  }

  /** The trades a durable record matched, in its order. */
  matched(trades: readonly EngineTrade[]): void {
    if (this.running && trades.length > 0) this.enqueue([...tradesByMatch(trades).values()]);
  }

  async stop(): Promise<void> {
    this.running = false;
    // A start under way (a close right after the node took the engine) ends first: a sender it
    // started after this point would poll forever, keeping the process alive.
    await this.starting?.catch(() => {});
    clearInterval(this.blockTimer);
    await this.intake;
    await Promise.all([...this.senders.values()].map((sender) => sender.stop()));
    this.senders.clear();
    this.pending = [];
  }

  /** Matches sent or queued and not yet confirmed or failed. */
  outstanding(): number {
    let count = 0;
    for (const sender of this.senders.values()) count += sender.outstanding();
    return count;
  }

  private enqueue(matches: EngineTrade[][]): void {
    if (matches.length === 0) return;
    this.intake = this.intake
      .then(async () => {
        const fills = await this.fillsOf(matches);
        for (const name of SENDERS) {
          const mine = fills.filter((fill) => senderOf(fill) === name);
          if (this.running && mine.length > 0) this.senders.get(name)!.submit(mine);
        }
      })
      .catch((error) => this.deps.logger.error({ err: error }, 'matches could not be handed to settlement; the next start submits them again'));
  }

  private async fillsOf(matches: EngineTrade[][]): Promise<MatchFill[]> {
    const state = this.deps.state();
    const orderIds = matches.flatMap((trades) => trades.flatMap((t) => [t.taker.orderId, t.maker.orderId]));
    const orders = await this.deps.orders([...new Set(orderIds)]);
    return matches.map((trades) => matchFillOf(trades, orders, state.markets.get(trades[0]!.marketId)?.negRisk === true));
  }

  private createSender(name: SenderName, client: PublicClient): SettlementSender<MatchFill> {
    const { exchange, key } = this.options.keys[name];
    return createSettlementSender<MatchFill>({
      client,
      account: privateKeyToAccount(key),
      abi: SETTLEMENT_ABI,
      encode: (batch) => ({ to: exchange, data: encodeMatches(batch) }),
      ...earlierSettlement(client, exchange),
      confirmations: this.options.confirmations,
      ...(this.options.maxFeePerGas ? { maxFeePerGasCap: this.options.maxFeePerGas } : {}),
      maxFillsPerTx: this.options.maxMatchesPerTx ?? 100,
      ...(this.options.gatherMs ? { gatherMs: this.options.gatherMs } : {}),
      ...(this.options.pollIntervalMs ? { pollIntervalMs: this.options.pollIntervalMs } : {}),
      ...(this.options.simulation ? { simulation: this.options.simulation } : {}),
      onEvent: (event) => this.heard(event),
      // Write-ahead: the record is durable in the journal before its transaction is broadcast; what was heard before it goes first.
      persist: (change) => {
        this.flushEvents();
        return this.deps.journal({ kind: 'chain-tx', change: journaledChainTxChange(this.deps.state(), name, change) }).then(() => {});
      },
      onError: (error) => {
        if (error instanceof DeepReorgError) this.deps.logger.error({ err: error }, `the ${name} settlement sender met a reorg deeper than CONFIRMATIONS`);
        else this.deps.logger.warn({ err: error }, `the ${name} settlement sender's step failed; it tries again`);
      },
    });
  }

  private heard(event: FillEvent<MatchFill>): void {
    const matchId = event.fill.id;
    switch (event.type) {
      case 'mined':
        this.pending.push({ type: 'mined', matchId, txHash: event.txHash, blockNumber: event.blockNumber });
        break;
      case 'confirmed':
        this.pending.push({ type: 'confirmed', matchId, txHash: event.txHash });
        break;
      case 'reorged':
        this.pending.push({ type: 'reorged', matchId });
        break;
      case 'failed':
        this.deps.logger.warn({ matchId, reason: event.reason.message }, 'a match failed on chain; the orders at fault are cancelled');
        this.pending.push({ type: 'failed', matchId, reason: event.reason.name, faultOrderIds: faultOrderIds(event.fill, event.reason) });
        break;
    }
    if (this.pending.length === 1) queueMicrotask(() => this.flushEvents());
  }

  /** Hands what was heard to the journal as one command. Lost if the engine stops first: a resumed sender reports it again. */
  private flushEvents(): void {
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    this.deps.journal({ kind: 'chain-fills', events }).catch((error) => {
      if (this.running) this.deps.logger.error({ err: error }, 'what the chain did with matches could not be journaled');
    });
  }
}

function senderOf(fill: MatchFill): SenderName {
  return fill.negRisk ? 'negRisk' : 'exchange';
}

/** One match is `matchOrders`; several go in one `matchOrdersBatch`, all or nothing (the sender bisects a batch that reverts). */
export function encodeMatches(batch: readonly MatchFill[]): Hex {
  if (batch.length === 1) {
    const { takerOrder, makerOrders, takerFillAmount, makerFillAmounts, makerFeeRatesBps, part } = batch[0]!.call;
    return encodeFunctionData({ abi: SETTLEMENT_ABI, functionName: 'matchOrders', args: [takerOrder, makerOrders, takerFillAmount, makerFillAmounts, makerFeeRatesBps, part] });
  }
  return encodeFunctionData({ abi: SETTLEMENT_ABI, functionName: 'matchOrdersBatch', args: [batch.map((fill) => fill.call)] });
}

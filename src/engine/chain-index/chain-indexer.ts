import type { FastifyBaseLogger } from 'fastify';
import { numberToHex, type Address, type PublicClient } from 'viem';
import { COLLATERAL } from '../../settlement/types.ts';
import type { ChainIndexEvent } from '../state/chain-transfer-commands.ts';
import type { EngineState } from '../state/engine-state.ts';
import { INDEXED_TOPICS, indexedLogsOf, WALLET_TOPICS, type IndexedLog, type LogApproval } from './indexed-logs.ts';

export interface ChainIndexOptions {
  /** The chain's client: its transport follows an embedded anvil restarted on another port. */
  client: PublicClient;
  /** Only blocks with this many blocks on top are indexed (CONFIRMATIONS), so no indexed block is undone. */
  confirmations: number;
  collateral: Address;
  conditionalTokens: Address;
  /** The two exchanges: the approvals users' wallets give them are followed. */
  exchange: Address;
  negRiskExchange: Address;
  /** The exchange's own keys (the operator, the settlement senders): what their transactions move, the ledger holds already. */
  ownSenders: readonly Address[];
  pollIntervalMs?: number;
  /** Mines an empty block (anvil mines only when sent a transaction), so a transfer in the newest block gets its confirmations. */
  mineEmptyBlock?(): Promise<void>;
}

export interface ChainIndexDeps {
  state(): EngineState;
  journal(command: { kind: 'chain-transfers'; toBlock: number; events: ChainIndexEvent[] }): Promise<unknown>;
  /** Which of these lowercase addresses are users' wallets the ledger has no balance of yet (a first deposit made on chain). */
  walletsAmong(addresses: string[]): Promise<Set<string>>;
  logger: FastifyBaseLogger;
}

/** Blocks read in one look at most: a long way behind (a first start) is caught up over several. */
const MAX_BLOCKS_PER_LOOK = 2_000;
/** A cursor that moved this far over blocks without foreign transfers is journaled anyway, bounding what a takeover reads again. */
const CURSOR_STEP = 1_000;
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
/** Transactions whose sender is remembered: a transfer waiting for its confirmations is looked at again at each look. */
const MAX_SENDERS_KEPT = 10_000;

/**
 * The chain's indexer, run by the leader (src/engine/chain-index/README.md): it
 * follows the confirmed blocks from the state's cursor, reads the transfers of collateral and
 * outcome tokens that touch users' wallets, leaves out those of transactions the exchange's own
 * keys sent, reads the approvals users' wallets give or revoke the exchanges, and journals both
 * as one `chain-transfers` command per range read, the cursor moving in it. A takeover resumes
 * from the cursor the journal holds.
 */
export class ChainIndexer {
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private look: Promise<void> = Promise.resolve();
  /** Read up to here: ranges without foreign transfers are not journaled each time. */
  private readTo = 0;
  private readonly ownSenders: Set<string>;
  /** The sender of each transaction looked up, by hash. */
  private readonly senders = new Map<string, string>();

  constructor(
    private readonly options: ChainIndexOptions,
    private readonly deps: ChainIndexDeps,
  ) {
    this.ownSenders = new Set(options.ownSenders.map((address) => address.toLowerCase()));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.readTo = 0;
    this.schedule(0);
  }

  /**
   * Stops looking. A look under way is not awaited: a rebuild of the engine stops the indexer while
   * the look's command may wait in the engine's queue behind that very rebuild. Such a command
   * journaled late changes nothing a range's cursor has not covered, and one refused is read again.
   */
  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
  }

  /** Reads the chain until the ledger holds every transfer of its blocks as they are now, confirmed first (tests and the audit wait on it). */
  async caughtUp(): Promise<void> {
    for (let looks = 0; looks < 1_000; looks += 1) if (!(await this.lookOnce())) return;
  }

  private position(): number {
    return Math.max(this.readTo, this.deps.state().chainIndex.cursor);
  }

  /** One look after the ones under way (looks never overlap); whether there is more to read. */
  private lookOnce(): Promise<boolean> {
    const look = this.look.then(() => this.step()).catch((error) => {
      this.deps.logger.warn({ err: error }, 'the chain indexer could not read the chain; it tries again');
      return true;
    });
    this.look = look.then(() => {});
    return look;
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => void this.lookOnce().finally(() => this.schedule(this.options.pollIntervalMs ?? 250)), delayMs);
    this.timer.unref();
  }

  /**
   * One look: the blocks after the cursor, up to the newest confirmed one (at most
   * MAX_BLOCKS_PER_LOOK). Whether there is more: blocks beyond those read, or transfers and
   * approvals waiting for their confirmations.
   */
  private async step(): Promise<boolean> {
    const { client } = this.options;
    const head = Number(await client.getBlockNumber({ cacheTime: 0 }));
    const from = this.position() + 1;
    if (from > head) return false;
    const to = Math.min(head, from + MAX_BLOCKS_PER_LOOK - 1);
    const range = { fromBlock: numberToHex(from), toBlock: numberToHex(to) };
    const [assetLogs, walletLogs] = await Promise.all([
      client.request({ method: 'eth_getLogs', params: [{ address: [this.options.collateral, this.options.conditionalTokens], topics: INDEXED_TOPICS, ...range }] }),
      // Wallets log their own switches: any address, one topic.
      client.request({ method: 'eth_getLogs', params: [{ topics: WALLET_TOPICS, ...range }] }),
    ]);
    const read = indexedLogsOf([...assetLogs, ...walletLogs], this.options);
    const confirmedTo = Math.min(to, head - this.options.confirmations);
    // Events too new to index wait for blocks on top; on anvil those come only with a transaction, or this one.
    const waiting = (await this.ledgerEvents(read.filter((e) => e.blockNumber > confirmedTo))).length > 0;
    if (waiting) await this.options.mineEmptyBlock?.();
    if (confirmedTo < from) return waiting;
    const events = await this.ledgerEvents(read.filter((e) => e.blockNumber <= confirmedTo));
    const cursor = this.deps.state().chainIndex.cursor;
    if (events.length > 0 || confirmedTo - cursor >= CURSOR_STEP) {
      if (!this.running) return false;
      await this.deps.journal({ kind: 'chain-transfers', toBlock: confirmedTo, events });
    }
    this.readTo = confirmedTo;
    return waiting || to < head;
  }

  /**
   * What the ledger takes of these logs, in chain order: the transfers that touch users' wallets, of
   * transactions the exchange's keys did not send, as the ledger's moves; and the approvals of
   * users' wallets that change what the state holds missing, whoever sent them (the owner's own
   * `execute`; a wallet's deployment, which gives approvals it has, changes nothing).
   */
  private async ledgerEvents(read: IndexedLog[]): Promise<ChainIndexEvent[]> {
    const state = this.deps.state();
    const counted = read.filter((e) => 'approval' in e || e.asset === COLLATERAL || state.marketOfTokenId(e.asset) !== undefined);
    const wallets = await this.walletsIn(counted);
    const touching = counted.filter((e) => ('approval' in e ? wallets.has(e.account) : wallets.has(e.from) || wallets.has(e.to)));
    const senders = new Map<string, string>();
    for (const txHash of new Set(touching.flatMap((e) => ('approval' in e ? [] : [e.txHash])))) senders.set(txHash, await this.senderOf(txHash));
    const changes = approvalChanges(state);
    const events: ChainIndexEvent[] = [];
    for (const e of touching) {
      if ('approval' in e) {
        if (changes(e)) events.push({ ref: e.ref, account: e.account, approval: e.approval, approved: e.approved });
        continue;
      }
      if (this.ownSenders.has(senders.get(e.txHash)!)) continue;
      const move = { ref: e.ref, asset: e.asset, amount: e.amount };
      if (wallets.has(e.from)) events.push({ ...move, account: e.from, direction: 'out' });
      if (wallets.has(e.to)) events.push({ ...move, account: e.to, direction: 'in' });
    }
    return events;
  }

  private async senderOf(txHash: string): Promise<string> {
    const known = this.senders.get(txHash);
    if (known) return known;
    const tx = await this.options.client.getTransaction({ hash: txHash as `0x${string}` });
    if (this.senders.size >= MAX_SENDERS_KEPT) this.senders.clear();
    this.senders.set(txHash, tx.from.toLowerCase());
    return tx.from.toLowerCase();
  }

  /** The users' wallets among the addresses the logs name: the ledger's accounts, then the users the store knows. */
  private async walletsIn(read: IndexedLog[]): Promise<Set<string>> {
    const state = this.deps.state();
    const named = new Set(read.flatMap((e) => ('approval' in e ? [e.account] : [e.from, e.to])).filter((address) => address !== ZERO_ADDRESS));
    const wallets = new Set([...named].filter((address) => state.balances.of(address).size > 0));
    const unknown = [...named].filter((address) => !wallets.has(address));
    for (const wallet of await this.deps.walletsAmong(unknown)) wallets.add(wallet);
    return wallets;
  }
}

/**
 * Whether each approval, taken in chain order, changes what is missing as the state and the
 * approvals before it in the range leave it: a range whose approvals change nothing need not be
 * journaled, nor wait for its confirmations.
 */
function approvalChanges(state: EngineState): (e: LogApproval) => boolean {
  const missing = new Map<string, boolean>();
  return (e) => {
    const key = `${e.account}|${e.approval}`;
    const was = missing.get(key) ?? state.chainIndex.missingApprovals.has(e.account, e.approval);
    missing.set(key, !e.approved);
    return was === e.approved;
  };
}

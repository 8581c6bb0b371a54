import { keccak256HexOf } from '../../core/keccak.ts';
import type { OracleState } from '../../core/oracle/state-machine.ts';
import type { MarketTradingInfo } from '../types.ts';
import { bookOrderOf } from './book-orders.ts';
import { encodeOrderLine, OrderLineReader } from './order-lines.ts';
import { decodeMmpState, encodeMmpState } from './mmp-codec.ts';
import { EngineState } from './engine-state.ts';
import type { EngineOrder, EngineTrade } from './types.ts';
import type { Approval } from './wallet-approvals.ts';

/**
 * The engine's state as text, at a journal position (README.md "Snapshots"): what a restart loads
 * before it replays the journal's tail, and, hashed, the state hash two replays must agree on.
 * The encoding is canonical (every collection in a fixed order: ids, keys, acceptance order), so
 * equal states give equal text whatever path reached them. It comes as chunks of whole lines, so
 * a million open orders never make one string too long for V8.
 *
 * One line per item, led by its kind: `H` the header (sequence, hash, counters, the ledger's
 * head), `M` a market, `L` a ledger market, `Q` a question, `W` a neg-risk event's winner, `B` a
 * balance, `O` an open order (comma-separated: the hot part), `T` an unsettled trade, `P` a last
 * trade price, `R` a once-only reference, `D` an armed heartbeat (dead-man's switch), `C` a key's
 * cancel-on-disconnect sockets, `X` an MMP setting with its window and freeze, `S` a settlement
 * sender's live transaction record (CHAIN≠none), `I` the chain index's cursor, shortfalls and the
 * approvals wallets revoked (only once it has indexed a block: a state without a chain index
 * encodes as before), `E` a market's oracle reward escrowed in the reward treasury, `K` a credit
 * made with an idempotency key.
 *
 * v2 added `D`, `C`, `X` and an order's API key (the last field of `O`); a v1 snapshot reads as
 * a state without them, its orders placed by no key. v3 added `S` (and a trade's `inLedger`, a
 * field of `T`'s JSON); earlier snapshots read as a state without them. v4 added `I`. v5 added the
 * revoked approvals to `I` (its third element); a v4 `I` reads as every wallet approving all. `E`
 * came later within v5: a state without escrows encodes as before, and a build before it refuses a
 * snapshot that has them (an unknown line) rather than forget them. An unsigned order's `O` line
 * ends in `,u` (also within v5, order-lines.ts): a build before it reads such an order as signed,
 * which only a build that follows operator trading (wallet-approvals.ts) tells apart. `K` came
 * later within v5, as `E` did: a state without keyed credits encodes as before. A `C` line's
 * sockets' nodes and unconfirmed sockets (two more arrays) came later within v5 too, only on a
 * line that has them.
 */
const FORMAT = 'pmx-engine-snapshot v5';
const READABLE_FORMATS = new Set(['pmx-engine-snapshot v1', 'pmx-engine-snapshot v2', 'pmx-engine-snapshot v3', 'pmx-engine-snapshot v4', FORMAT]);
const CHUNK_CHARS = 8 << 20;

export interface EncodedSnapshot {
  seq: bigint;
  chunks: string[];
  /** keccak-256 of the chunks' text: the state hash. */
  stateHash: string;
}

export function encodeSnapshot(state: EngineState): EncodedSnapshot {
  const out = new ChunkWriter();
  out.line(FORMAT);
  out.line(`H${JSON.stringify({
    seq: state.seq.toString(), hash: state.hash, nextBookSeq: state.nextBookSeq.toString(), nextTradeSeq: state.nextTradeSeq.toString(),
    ledgerSeq: state.ledger.nextSeq.toString(), credited: state.ledger.credited.toString(), head: { number: state.ledger.head.number.toString(), hash: state.ledger.head.hash },
    unsealed: state.ledger.unsealed.map((t) => [t.seq.toString(), t.txHash]),
  })}`);
  for (const info of sortedBy(state.markets.values(), (m) => m.id)) out.line(`M${JSON.stringify(info)}`);
  for (const m of sortedBy(state.ledger.markets.values(), (m) => m.conditionId)) {
    out.line(`L${JSON.stringify([m.conditionId, m.tokenId1, m.tokenId2, m.payout, m.resolvedAtMs])}`);
  }
  for (const [marketId, question] of sortedBy(state.questions, ([id]) => id)) out.line(`Q${JSON.stringify([marketId, encodeQuestion(question)])}`);
  for (const [eventId, marketId] of sortedBy(state.winningMarketOfEvent, ([id]) => id)) out.line(`W${eventId},${marketId}`);
  for (const [marketId, amount] of sortedBy(state.oracleEscrows, ([id]) => id)) out.line(`E${marketId},${amount}`);
  const balances = [...state.balances.rows()].map((b) => ({ key: `${b.account}\u0000${b.asset}`, line: `B${b.account},${b.asset},${b.row.balance},${b.row.locked}` }));
  for (const { line } of sortedBy(balances, (b) => b.key)) out.line(line);
  for (const order of [...state.open.values()].sort((a, b) => compareBigints(a.bookSeq, b.bookSeq))) out.line(`O${encodeOrderLine(order)}`);
  for (const trade of [...state.unsettled.values()].sort((a, b) => compareBigints(a.seq, b.seq))) out.line(`T${JSON.stringify(encodeTrade(trade))}`);
  for (const [tokenId, last] of sortedBy(state.lastTrade, ([id]) => id)) out.line(`P${tokenId},${last.price},${last.side}`);
  for (const [ref, txHash] of sortedBy(state.ledger.onceRefs, ([ref]) => ref)) out.line(`R${ref},${txHash}`);
  for (const [key, c] of sortedBy(state.ledger.creditKeys, ([key]) => key)) out.line(`K${JSON.stringify([key, c.account, c.amount.toString(), c.txHash])}`);
  encodeSafety(state, out);
  for (const [key, tx] of sortedBy(state.chainTxs, ([key]) => key)) out.line(`S${JSON.stringify([key, tx.sender, tx.record])}`);
  const index = state.chainIndex;
  if (index.cursor > 0 || index.shortfalls.size > 0 || index.missingApprovals.size > 0) {
    const shortfalls = sortedBy(index.shortfalls, ([key]) => key).map(([, s]) => [s.account, s.asset, s.amount.toString()]);
    out.line(`I${JSON.stringify([index.cursor, shortfalls, index.missingApprovals.entries()])}`);
  }
  const chunks = out.finish();
  return { seq: state.seq, chunks, stateHash: keccak256HexOf(...chunks) };
}

/** The state a snapshot holds: books rebuilt from its open orders in acceptance order (time priority kept). */
export function decodeSnapshot(chunks: readonly string[]): EngineState {
  const state = new EngineState();
  const orders: EngineOrder[] = [];
  const orderLines = new OrderLineReader();
  let format = false;
  for (const chunk of chunks) {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf('\n', start);
      // Open orders, most of a snapshot's lines, are read in place.
      if (format && chunk.charCodeAt(start) === ORDER_LINE) {
        orders.push(orderLines.read(chunk, start + 1, end));
        start = end + 1;
        continue;
      }
      const line = chunk.slice(start, end);
      start = end + 1;
      if (!format) {
        if (!READABLE_FORMATS.has(line)) throw new Error(`not an engine snapshot (${line.slice(0, 40)})`);
        format = true;
        continue;
      }
      readLine(state, line);
    }
  }
  for (const order of orders) {
    state.open.set(order.id, order);
    const runtime = state.runtimes.get(order.marketId);
    if (!runtime) throw new Error(`snapshot: open order ${order.id} of a market without a book`);
    if (order.delayedUntilMs !== null) runtime.delayed.push({ orderId: order.id, dueMs: order.delayedUntilMs });
    else runtime.book.restore(bookOrderOf(order, order.sizeBaseUnits));
  }
  return state;
}

const ORDER_LINE = 'O'.charCodeAt(0);

function readLine(state: EngineState, line: string): void {
  const body = line.slice(1);
  switch (line[0]) {
    case 'H': {
      const h = JSON.parse(body) as { seq: string; hash: string; nextBookSeq: string; nextTradeSeq: string; ledgerSeq: string; credited: string; head: { number: string; hash: string }; unsealed: [string, string][] };
      state.seq = BigInt(h.seq);
      state.hash = h.hash;
      state.nextBookSeq = BigInt(h.nextBookSeq);
      state.nextTradeSeq = BigInt(h.nextTradeSeq);
      state.ledger.nextSeq = BigInt(h.ledgerSeq);
      state.ledger.credited = BigInt(h.credited);
      state.ledger.head = { number: BigInt(h.head.number), hash: h.head.hash };
      state.ledger.unsealed = h.unsealed.map(([seq, txHash]) => ({ seq: BigInt(seq), txHash }));
      return;
    }
    case 'M':
      state.putMarket(JSON.parse(body) as MarketTradingInfo);
      return;
    case 'L': {
      const [conditionId, tokenId1, tokenId2, payout, resolvedAtMs] = JSON.parse(body);
      state.ledger.markets.set(conditionId, { conditionId, tokenId1, tokenId2, payout, resolvedAtMs });
      return;
    }
    case 'Q': {
      const [marketId, question] = JSON.parse(body);
      state.questions.set(marketId, decodeQuestion(question));
      return;
    }
    case 'W': {
      const [eventId, marketId] = body.split(',');
      state.winningMarketOfEvent.set(eventId!, marketId!);
      return;
    }
    case 'E': {
      const [marketId, amount] = body.split(',');
      state.oracleEscrows.set(marketId!, BigInt(amount!));
      return;
    }
    case 'B': {
      const [account, asset, balance, locked] = body.split(',');
      state.balances.restore(account!, asset!, { balance: BigInt(balance!), locked: BigInt(locked!) });
      return;
    }
    case 'T': {
      const trade = decodeTrade(JSON.parse(body));
      state.unsettled.set(trade.id, trade);
      return;
    }
    case 'P': {
      const [tokenId, price, side] = body.split(',');
      state.lastTrade.set(tokenId!, { price: price!, side: side as 'buy' | 'sell' });
      return;
    }
    case 'R': {
      const comma = body.lastIndexOf(',');
      state.ledger.onceRefs.set(body.slice(0, comma), body.slice(comma + 1));
      return;
    }
    case 'K': {
      const [key, account, amount, txHash] = JSON.parse(body) as [string, string, string, string];
      state.ledger.creditKeys.set(key, { account, amount: BigInt(amount), txHash });
      return;
    }
    case 'D': {
      const [apiKey, deadlineMs] = JSON.parse(body);
      state.safety.heartbeats.set(apiKey, deadlineMs);
      return;
    }
    case 'C': {
      const [apiKey, live, closing, nodes = [], unconfirmed = []] = JSON.parse(body);
      state.safety.sessions.set(apiKey, { live: new Set(live), closing: new Map(closing), nodes: new Map(nodes), unconfirmed: new Map(unconfirmed) });
      return;
    }
    case 'X': {
      const setting = decodeMmpState(JSON.parse(body));
      state.safety.mmp.set(setting.apiKey, [...(state.safety.mmp.get(setting.apiKey) ?? []), setting]);
      return;
    }
    case 'S': {
      const [key, sender, record] = JSON.parse(body);
      state.chainTxs.set(key, { sender, record });
      return;
    }
    case 'I': {
      const [cursor, shortfalls, missing = []] = JSON.parse(body) as [number, [string, string, string][], [string, Approval[]][]?];
      state.chainIndex.cursor = cursor;
      for (const [account, asset, amount] of shortfalls) state.chainIndex.shortfalls.set(`${account}|${asset}`, { account, asset, amount: BigInt(amount) });
      for (const [account, approvals] of missing) for (const approval of approvals) state.chainIndex.missingApprovals.set(account, approval, false);
      return;
    }
    default:
      throw new Error(`snapshot: unknown line ${line.slice(0, 40)}`);
  }
}

/** Heartbeats, sessions and MMP settings, each in key order (a key's settings are kept in scope order). */
function encodeSafety(state: EngineState, out: ChunkWriter): void {
  const { heartbeats, sessions, mmp } = state.safety;
  for (const [apiKey, deadlineMs] of sortedBy(heartbeats, ([key]) => key)) out.line(`D${JSON.stringify([apiKey, deadlineMs])}`);
  for (const [apiKey, s] of sortedBy(sessions, ([key]) => key)) {
    // Sockets' nodes and confirmations after them, only when there are any: a state without them encodes as before.
    const held = s.nodes.size + s.unconfirmed.size === 0 ? [] : [sortedBy(s.nodes, ([id]) => id), sortedBy(s.unconfirmed, ([id]) => id)];
    out.line(`C${JSON.stringify([apiKey, sortedBy(s.live, (id) => id), sortedBy(s.closing, ([id]) => id), ...held])}`);
  }
  for (const [, settings] of sortedBy(mmp, ([key]) => key)) for (const setting of settings) out.line(`X${JSON.stringify(encodeMmpState(setting))}`);
}

const encodeTrade = (t: EngineTrade) => ({
  ...t, seq: t.seq.toString(), sizeBaseUnits: t.sizeBaseUnits.toString(), notionalBaseUnits: t.notionalBaseUnits.toString(),
  taker: { ...t.taker, feeBaseUnits: t.taker.feeBaseUnits.toString() }, maker: { ...t.maker, feeBaseUnits: t.maker.feeBaseUnits.toString() },
});

function decodeTrade(t: ReturnType<typeof encodeTrade>): EngineTrade {
  return {
    ...t, seq: BigInt(t.seq), sizeBaseUnits: BigInt(t.sizeBaseUnits), notionalBaseUnits: BigInt(t.notionalBaseUnits),
    taker: { ...t.taker, feeBaseUnits: BigInt(t.taker.feeBaseUnits) }, maker: { ...t.maker, feeBaseUnits: BigInt(t.maker.feeBaseUnits) },
  };
}

const encodeParty = (p: OracleState['proposer']) => p && { ...p, bondBaseUnits: p.bondBaseUnits.toString() };
const decodeParty = (p: ReturnType<typeof encodeParty>) => p && { ...p, bondBaseUnits: BigInt(p.bondBaseUnits) };
const encodeQuestion = (q: OracleState) => ({ ...q, proposer: encodeParty(q.proposer), disputer: encodeParty(q.disputer) });
const decodeQuestion = (q: ReturnType<typeof encodeQuestion>): OracleState => ({ ...q, proposer: decodeParty(q.proposer), disputer: decodeParty(q.disputer) });

function sortedBy<T>(items: Iterable<T>, key: (item: T) => string): T[] {
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

const compareBigints = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/** Lines gathered into chunks of about CHUNK_CHARS, each ending with a whole line. */
class ChunkWriter {
  private readonly chunks: string[] = [];
  private lines: string[] = [];
  private size = 0;

  line(text: string): void {
    this.lines.push(text);
    this.size += text.length + 1;
    if (this.size >= CHUNK_CHARS) this.flush();
  }

  finish(): string[] {
    this.flush();
    return this.chunks;
  }

  private flush(): void {
    if (this.lines.length === 0) return;
    this.chunks.push(`${this.lines.join('\n')}\n`);
    this.lines = [];
    this.size = 0;
  }
}

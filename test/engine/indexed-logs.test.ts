// The indexer's own log decoding against viem's: random logs of the indexed events (and ones that
// are not theirs, or malformed), encoded by viem, give what viem's parseEventLogs gives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { encodeAbiParameters, encodeEventTopics, numberToHex, parseAbi, parseEventLogs, type Hex } from 'viem';
import { indexedLogsOf, type IndexedContracts, type RawLog } from '../../src/engine/chain-index/indexed-logs.ts';
import { COLLATERAL } from '../../src/settlement/types.ts';

const EVENTS = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event OperatorTradingSet(bool allowed)',
]);
const CONTRACTS: IndexedContracts = {
  collateral: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  conditionalTokens: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  exchange: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  negRiskExchange: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
};
/** A proxy wallet: it logs its own operator-trading switch. */
const WALLET: Hex = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const address = fc.constantFrom<Hex>(CONTRACTS.exchange, CONTRACTS.negRiskExchange, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '0x0000000000000000000000000000000000000000');
const amount = fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }));

const log = fc.oneof(
  fc.record({ name: fc.constant('Transfer' as const), from: address, to: address, value: amount }),
  fc.record({ name: fc.constant('TransferSingle' as const), from: address, to: address, id: amount, value: amount }),
  fc.record({ name: fc.constant('TransferBatch' as const), from: address, to: address, pairs: fc.array(fc.tuple(amount, amount), { maxLength: 4 }) }),
  fc.record({ name: fc.constant('Approval' as const), from: address, to: address, value: amount }),
  fc.record({ name: fc.constant('ApprovalForAll' as const), from: address, to: address, approved: fc.boolean() }),
  fc.record({ name: fc.constant('OperatorTradingSet' as const), allowed: fc.boolean() }),
).chain((event) => fc.record({
  event: fc.constant(event),
  // A switch counts from any contract (the indexer keeps users' wallets'); the other events from the collateral or ConditionalTokens.
  emitter: event.name === 'OperatorTradingSet' ? fc.constantFrom(WALLET, CONTRACTS.collateral) : fc.constantFrom(CONTRACTS.collateral, CONTRACTS.conditionalTokens),
  truncate: fc.boolean(),
}));

type GeneratedLog = typeof log extends fc.Arbitrary<infer T> ? T : never;

function encoded({ event, emitter, truncate }: GeneratedLog, at: number): RawLog {
  const [topics, data] = (() => {
    switch (event.name) {
      case 'Transfer':
        return [encodeEventTopics({ abi: EVENTS, eventName: 'Transfer', args: { from: event.from, to: event.to } }), encodeAbiParameters([{ type: 'uint256' }], [event.value])];
      case 'TransferSingle':
        return [encodeEventTopics({ abi: EVENTS, eventName: 'TransferSingle', args: { operator: event.to, from: event.from, to: event.to } }), encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [event.id, event.value])];
      case 'TransferBatch': {
        const ids = event.pairs.map(([id]) => id);
        const values = event.pairs.map(([, value]) => value);
        return [encodeEventTopics({ abi: EVENTS, eventName: 'TransferBatch', args: { operator: event.to, from: event.from, to: event.to } }), encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [ids, values])];
      }
      case 'Approval':
        return [encodeEventTopics({ abi: EVENTS, eventName: 'Approval', args: { owner: event.from, spender: event.to } }), encodeAbiParameters([{ type: 'uint256' }], [event.value])];
      case 'ApprovalForAll':
        return [encodeEventTopics({ abi: EVENTS, eventName: 'ApprovalForAll', args: { owner: event.from, operator: event.to } }), encodeAbiParameters([{ type: 'bool' }], [event.approved])];
      default:
        return [encodeEventTopics({ abi: EVENTS, eventName: 'OperatorTradingSet' }), encodeAbiParameters([{ type: 'bool' }], [event.allowed])];
    }
  })();
  // A malformed log (its data cut short) is left out by both.
  const cut = truncate && data.length > 2 ? (data.slice(0, data.length - 64) as Hex) : data;
  return { address: emitter.toLowerCase(), topics: topics as Hex[], data: cut, blockNumber: numberToHex(1 + (at % 3)), logIndex: numberToHex(at), transactionHash: `0x${String(at).padStart(64, '0')}` };
}

/** What the indexer took from viem's decoding before it decoded logs itself. */
function throughViem(logs: RawLog[]) {
  const exchanges = new Map([[CONTRACTS.exchange.toLowerCase(), 'exchange'], [CONTRACTS.negRiskExchange.toLowerCase(), 'neg-risk-exchange']]);
  const parsed = parseEventLogs({ abi: EVENTS, strict: true, logs: logs.map((l) => ({ ...l, topics: l.topics as [Hex, ...Hex[]], blockNumber: BigInt(l.blockNumber!), logIndex: Number(l.logIndex), transactionIndex: 0, blockHash: null, removed: false, transactionHash: l.transactionHash })) as any });
  const out: unknown[] = [];
  for (const p of parsed.sort((a, b) => Number(a.blockNumber! - b.blockNumber!) || a.logIndex! - b.logIndex!)) {
    const at = { blockNumber: Number(p.blockNumber), txHash: p.transactionHash, ref: `${p.transactionHash}:${p.logIndex}` };
    const collateral = p.address === CONTRACTS.collateral.toLowerCase();
    const moved = (t: { from: string; to: string; amount: bigint } & Record<string, unknown>) => {
      if (t.amount > 0n && t.from !== t.to) out.push(t);
    };
    const args = p.args as any;
    if (p.eventName === 'Transfer' && collateral) moved({ ...at, from: args.from.toLowerCase(), to: args.to.toLowerCase(), asset: COLLATERAL, amount: args.value });
    else if (p.eventName === 'TransferSingle' && !collateral) moved({ ...at, from: args.from.toLowerCase(), to: args.to.toLowerCase(), asset: args.id.toString(), amount: args.value });
    else if (p.eventName === 'TransferBatch' && !collateral) for (const [i, id] of (args.ids as bigint[]).entries()) moved({ ...at, ref: `${at.ref}/${i}`, from: args.from.toLowerCase(), to: args.to.toLowerCase(), asset: id.toString(), amount: args.values[i] });
    else if (p.eventName === 'Approval' && collateral && exchanges.has(args.spender.toLowerCase())) out.push({ ...at, account: args.owner.toLowerCase(), approval: `${exchanges.get(args.spender.toLowerCase())}:collateral`, approved: args.value > 0n });
    else if (p.eventName === 'ApprovalForAll' && !collateral && exchanges.has(args.operator.toLowerCase())) out.push({ ...at, account: args.owner.toLowerCase(), approval: `${exchanges.get(args.operator.toLowerCase())}:outcome-tokens`, approved: args.approved });
    else if (p.eventName === 'OperatorTradingSet') out.push({ ...at, account: p.address.toLowerCase(), approval: 'wallet:operator-trading', approved: args.allowed });
  }
  return out;
}

test('indexedLogsOf reads the indexed events as viem decodes them, malformed ones left out', () => {
  fc.assert(
    fc.property(fc.array(log, { maxLength: 12 }), (events) => {
      const logs = events.map((e, i) => encoded(e, i)).reverse();
      assert.deepEqual(indexedLogsOf(logs, CONTRACTS), throughViem(logs));
    }),
    { numRuns: 300 },
  );
});

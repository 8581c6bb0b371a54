// A settlement sender on a test anvil, with its records persisted in a Map and its events in an array.
import { createSettlementSender, type FillEvent, type RecordChange, recordKey, type SenderOptions, type SettlementSender, type TxRecord } from '../../../src/settlement/chain/sender/index.ts';
import { after, before, test } from 'node:test';
import { storeIndependent } from '../../helpers/store-independent.ts';
import { type Anvil, startAnvil } from './anvil.ts';
import { deploySettle, SETTLE_ABI, type TestFill } from './settle-contract.ts';

export type SettleContract = Awaited<ReturnType<typeof deploySettle>>;

/** The sender uses no store: its tests on a chain run in one of CI's two suites (test/helpers/store-independent.ts). */
const skip = storeIndependent('the chain');

/** A test of the sender on a chain: skipped where the chain's tests do not run. */
export const chainTest = (name: string, fn: () => Promise<void>) => test(name, { skip }, fn);

/**
 * The senders the file's tests made: stopped after the file, so that a test that fails before its
 * own `stop` leaves no sender polling (its timer would keep the file's process, and the run, alive).
 */
const senders: SettlementSender<TestFill>[] = [];

/** An anvil started with `args` and a Settle contract on it for the test file, stopped after it: read them inside tests. */
export function chainPerFile(args: string[] = []) {
  const chain = {} as { anvil: Anvil; contract: SettleContract };
  if (skip) return chain;
  before(async () => {
    chain.anvil = await startAnvil(args);
    chain.contract = await deploySettle(chain.anvil);
  });
  after(async () => {
    await Promise.all(senders.splice(0).map((sender) => sender.stop()));
    await chain.anvil?.stop();
  });
  return chain;
}

export function senderOn(anvil: Anvil, contract: SettleContract, overrides: Partial<SenderOptions<TestFill>> = {}) {
  const events: FillEvent<TestFill>[] = [];
  const store = new Map<string, TxRecord>();
  const changes: RecordChange[] = [];
  const sender = createSettlementSender<TestFill>({
    client: anvil.publicClient,
    account: anvil.operator,
    encode: contract.encode,
    abi: SETTLE_ABI,
    onEvent: (event) => events.push(event),
    persist: (change) => {
      changes.push(change);
      if (change.kind === 'put') store.set(recordKey(change.record), change.record);
      else store.delete(recordKey(change.record));
    },
    isAlreadySettled: (reason) => reason.name === 'AlreadySettled',
    findSettlement: contract.findSettlement,
    logIndexesOf: contract.logIndexesOf,
    pollIntervalMs: 20,
    onError: () => {},
    ...overrides,
  });
  senders.push(sender);
  const of = <T extends FillEvent<TestFill>['type']>(type: T) => events.filter((e): e is Extract<FillEvent<TestFill>, { type: T }> => e.type === type);
  return { sender, events, store, changes, of, idsOf: (type: FillEvent<TestFill>['type']) => of(type).map((e) => e.fill.id) };
}

export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

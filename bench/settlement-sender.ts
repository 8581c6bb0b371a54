/**
 * The settlement sender on its own anvil, with the test contract of test/chain/sender (one
 * storage write and one log per fill): fills/s settled from a backlog, and MATCHED → MINED
 * latency at a steady 200 fills/s, with automine and with `--block-time 1`.
 *
 *   npm run bench -- settlement-sender [--seconds 10]
 */
import { createSettlementSender, type FillEvent } from '../src/settlement/chain/sender/index.ts';
import { type Anvil, startAnvil } from '../test/chain/sender/anvil.ts';
import { deploySettle, fills, SETTLE_ABI, type TestFill } from '../test/chain/sender/settle-contract.ts';

const secondsArg = process.argv.indexOf('--seconds');
const SECONDS = secondsArg === -1 ? 10 : Number(process.argv[secondsArg + 1]);
const BACKLOG = 20_000;
const RATE_PER_S = 200;
const TICK_MS = 50;

async function onChain(anvilArgs: string[], run: (anvil: Anvil, contract: Awaited<ReturnType<typeof deploySettle>>) => Promise<void>) {
  const anvil = await startAnvil(anvilArgs);
  try {
    await run(anvil, await deploySettle(anvil));
  } finally {
    await anvil.stop();
  }
}

/** Every fill of the bench is good: a failure is a fault of the sender, printed. */
function senderFor(anvil: Anvil, contract: Awaited<ReturnType<typeof deploySettle>>, onMined: (event: FillEvent<TestFill>) => void) {
  const onEvent = (event: FillEvent<TestFill>) => {
    if (event.type === 'failed') console.error(`fill ${event.fill.id} failed: ${event.reason.message}`);
    if (event.type === 'mined') onMined(event);
  };
  return createSettlementSender<TestFill>({
    client: anvil.publicClient,
    account: anvil.operator,
    encode: contract.encode,
    abi: SETTLE_ABI,
    onEvent,
    persist: () => {},
    isAlreadySettled: (reason) => reason.name === 'AlreadySettled',
    findSettlement: contract.findSettlement,
    onError: (error) => console.error(error),
  });
}

async function backlog(label: string, anvilArgs: string[]) {
  await onChain(anvilArgs, async (anvil, contract) => {
    let mined = 0;
    let done: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const sender = senderFor(anvil, contract, () => {
      if (++mined === BACKLOG) done();
    });
    await sender.start();
    const started = performance.now();
    sender.submit(fills(1, BACKLOG));
    await finished;
    const seconds = (performance.now() - started) / 1000;
    await sender.stop();
    console.log(`${label}: ${BACKLOG} fills mined in ${seconds.toFixed(2)} s = ${Math.round(BACKLOG / seconds)} fills/s`);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function steadyRate(label: string, anvilArgs: string[]) {
  await onChain(anvilArgs, async (anvil, contract) => {
    const submittedAt = new Map<string, number>();
    const latenciesMs: number[] = [];
    const sender = senderFor(anvil, contract, (event) => latenciesMs.push(performance.now() - submittedAt.get(event.fill.id)!));
    await sender.start();
    const perTick = (RATE_PER_S * TICK_MS) / 1000;
    const total = RATE_PER_S * SECONDS;
    const started = performance.now();
    for (let next = 0; next < total; next += perTick) {
      const wait = started + (next / RATE_PER_S) * 1000 - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const batch = fills(1 + next, perTick);
      for (const fill of batch) submittedAt.set(fill.id, performance.now());
      sender.submit(batch);
    }
    while (latenciesMs.length < total) await new Promise((resolve) => setTimeout(resolve, 20));
    await sender.stop();
    latenciesMs.sort((a, b) => a - b);
    console.log(`${label}: ${total} fills at ${RATE_PER_S}/s, MATCHED -> MINED p50 ${percentile(latenciesMs, 50).toFixed(0)} ms, p99 ${percentile(latenciesMs, 99).toFixed(0)} ms, max ${latenciesMs.at(-1)!.toFixed(0)} ms`);
  });
}

await backlog('backlog, automine', []);
await backlog('backlog, --block-time 1', ['--block-time', '1']);
await steadyRate('steady, automine', []);
await steadyRate('steady, --block-time 1', ['--block-time', '1']);

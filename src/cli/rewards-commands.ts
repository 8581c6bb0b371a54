import type { Command } from 'commander';
import type { MarketRewardDetail, RewardConfig } from '../client/index.ts';
import { depositOnce } from './deposit-once.ts';
import { examples, output, printTable } from './output.ts';
import { CliError, clientFor, count, globals, run } from './sdk-client.ts';
import { marketIdOf } from './refs.ts';

const marketName = (row: { marketDisplayName: string | null; marketName: string | null; marketId: string }) => row.marketDisplayName ?? row.marketName ?? row.marketId;

/** `start,end,multiplier` → a boost window; the server checks the times and the multiplier. */
function boostWindow(text: string): { startAt: string; endAt: string; multiplier: string } {
  const parts = text.split(',');
  if (parts.length !== 3 || parts.some((p) => p === '')) throw new CliError(`--boost takes start,end,multiplier, got "${text}"`);
  const [startAt, endAt, multiplier] = parts as [string, string, string];
  return { startAt, endAt, multiplier };
}

function printPool(json: boolean, pool: MarketRewardDetail): void {
  output(json, pool, () => printTable([{ ...pool, market: marketName(pool) }], ['market', 'rewardUsdc', 'rewardStatus', 'rewardStartAt', 'rewardEndAt', 'maxDistanceFromMid', 'minOrderSizeUsdc']));
}

/**
 * Maker rewards from the shell (SPEC.md 4.7): the trader's summary, history and claim, and the
 * operator's configuration, pause and treasury (EXTENSIONS.md section 5; ADMIN_TOKEN), under one
 * `rewards` group as `oracle` holds both sides of a resolution.
 */
export function registerRewardsCommands(program: Command): void {
  const rewards = program.command('rewards').description('maker rewards: summary, history, claim; operator: config, pause, treasury')
    .addHelpText('after', examples(['pmx rewards summary', 'pmx rewards claim', 'ADMIN_TOKEN=… pmx rewards config 6f1c… --reward 14.4 --max-distance 0.05 --min-size 1']));

  rewards.command('summary').description("today's accrual per market, yesterday's settlement, what you can claim")
    .addHelpText('after', examples(['pmx rewards summary', 'pmx rewards summary --json | jq .claimableUsdc']))
    .action(run(async (_options: unknown, command: Command) => {
      const summary = await clientFor(command, 'trader').rewards.summary();
      output(!!globals(command).json, summary, () => {
        console.log(`claimable ${summary.claimableUsdc} USDC (minimum payout ${summary.minPayoutUsdc}${summary.claimInFlight ? ', a claim is in flight' : ''}): ${summary.canClaim ? 'run `pmx rewards claim`' : 'nothing to claim yet'}`);
        console.log(`earned today ${summary.earnedSoFarUsdc}, paid yesterday ${summary.yesterdaySettled.totalPaidUsdc}, all time ${summary.allTimeEarnedUsdc}`);
        printTable(summary.todayByMarket.map((r) => ({ ...r, market: marketName(r) })), ['market', 'earnedSoFarUsdc', 'estimatedRewardUsdc', 'pendingSettlement']);
      });
    }));

  rewards.command('history').description('your daily payout rows, newest first')
    .option('--page <n>', 'page number', '1')
    .option('--limit <n>', 'rows per page, at most 100', '20')
    .addHelpText('after', examples(['pmx rewards history', 'pmx rewards history --limit 100 --json']))
    .action(run(async (options: { page: string; limit: string }, command: Command) => {
      const page = await clientFor(command, 'trader').rewards.history({ page: count('--page', options.page), limit: count('--limit', options.limit) });
      output(!!globals(command).json, page, () => printTable(page.data.map((r) => ({ ...r, market: marketName(r) })), ['epochDate', 'market', 'earnedUsdc', 'carriedInUsdc', 'amountUsdc', 'status', 'paidAt']));
    }));

  rewards.command('claim').description('claim every claimable row (paid asynchronously; see `rewards history`)')
    .addHelpText('after', examples(['pmx rewards claim', 'pmx rewards claim --json']))
    .action(run(async (_options: unknown, command: Command) => {
      const claim = await clientFor(command, 'trader').rewards.claim();
      output(!!globals(command).json, claim, () => console.log(`${claim.outcome}: ${claim.claimableAmountUsdc} USDC${claim.message ? ` (${claim.message})` : ''}`));
    }));

  rewards.command('config <market>').description("set a market's reward configuration for a UTC date (operator; frozen once its window opens, except --enable/--disable)")
    .requiredOption('--reward <usdc>', 'USDC paid over the day (or the window)')
    .requiredOption('--max-distance <price>', 'how far from the midpoint an order still earns, e.g. 0.05')
    .requiredOption('--min-size <usdc>', 'smallest qualifying order, USDC')
    .option('--date <yyyy-mm-dd>', 'the UTC date (default today)')
    .option('--extreme-max-distance <price>', 'the distance while the midpoint is outside 0.10 to 0.90 (default --max-distance)')
    .option('--start <iso>', 'window start within the date').option('--end <iso>', 'window end within the date')
    .option('--boost <start,end,multiplier...>', 'boost windows, e.g. 2030-01-01T10:00:00Z,2030-01-01T12:00:00Z,2')
    .option('--enable', 'accrue (the default)').option('--disable', 'stop accruing on this market')
    .addHelpText('after', examples(['ADMIN_TOKEN=… pmx rewards config 6f1c… --reward 14.4 --max-distance 0.05 --min-size 1', 'pmx rewards config 6f1c… --reward 100 --max-distance 0.03 --min-size 5 --date 2030-01-01 --json']))
    .action(run(async (marketId: string, options: { reward: string; maxDistance: string; minSize: string; date?: string; extremeMaxDistance?: string; start?: string; end?: string; boost?: string[]; enable?: boolean; disable?: boolean }, command: Command) => {
      if (options.enable && options.disable) throw new CliError('pass --enable or --disable, not both');
      const config: RewardConfig = {
        rewardUsdc: options.reward,
        maxDistanceFromMid: options.maxDistance,
        minOrderSizeUsdc: options.minSize,
        ...(options.date ? { date: options.date } : {}),
        ...(options.extremeMaxDistance ? { extremeMaxDistanceFromMid: options.extremeMaxDistance } : {}),
        ...(options.start ? { startAt: options.start } : {}),
        ...(options.end ? { endAt: options.end } : {}),
        ...(options.boost ? { boostWindows: options.boost.map(boostWindow) } : {}),
        ...(options.enable || options.disable ? { enabled: !!options.enable } : {}),
      };
      const client = clientFor(command, 'admin');
      printPool(!!globals(command).json, await client.admin.configureRewards(await marketIdOf(client, marketId), config));
    }));

  rewards.command('pause').description('pause reward accrual on every market (operator); --resume to restart it')
    .option('--resume', 'accrue again')
    .addHelpText('after', examples(['ADMIN_TOKEN=… pmx rewards pause', 'ADMIN_TOKEN=… pmx rewards pause --resume']))
    .action(run(async (options: { resume?: boolean }, command: Command) => {
      const result = await clientFor(command, 'admin').admin.pauseRewards(!options.resume);
      output(!!globals(command).json, result, () => console.log(result.paused ? 'rewards paused' : 'rewards accruing'));
    }));

  rewards.command('treasury <amount>').description('deposit collateral into the reward treasury every payout comes from (operator)')
    .option('--idempotency-key <uuid>', 'deposit once per key (one is made when not given, and named if the deposit may have been made): after a timeout or an error, run the command again with the same key')
    .addHelpText('after', examples(['ADMIN_TOKEN=… pmx rewards treasury 1000']))
    .action(run(async (amount: string, options: { idempotencyKey?: string }, command: Command) => {
      const admin = clientFor(command, 'admin').admin;
      const result = await depositOnce(options.idempotencyKey, (key) => `pmx rewards treasury ${amount} --idempotency-key ${key}`, (idempotencyKey) => admin.fundRewardTreasury(amount, { idempotencyKey }));
      output(!!globals(command).json, result, () => console.log(`reward treasury holds ${result.balance}`));
    }));
}

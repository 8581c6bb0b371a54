import type { Command } from 'commander';
import type { MmpScope, MmpSetting } from '../client/index.ts';
import { examples, output, printTable } from './output.ts';
import { marketIdOf } from './refs.ts';
import { CliError, clientFor, globals, run } from './sdk-client.ts';

/** Market makers' safety through the SDK (EXTENSIONS.md section 15): `pmx heartbeat` and `pmx mmp`. */
export function registerMakerSafetyCommands(program: Command): void {
  const heartbeat = program.command('heartbeat').description("the API key's dead-man's switch: without a heartbeat in time, its open orders are cancelled")
    .addHelpText('after', examples(['pmx heartbeat keep --timeout 10000', 'pmx heartbeat send', 'pmx heartbeat stop']));
  heartbeat.command('send').description('arm or refresh it once')
    .option('--timeout <ms>', 'milliseconds until the orders go (5000 to 60000)', '10000')
    .addHelpText('after', examples(['pmx heartbeat send --timeout 15000']))
    .action(run(async (options: { timeout: string }, command: Command) => {
      const answer = await clientFor(command, 'trader').heartbeat.send(Number(options.timeout));
      output(!!globals(command).json, answer, () => console.log(`armed until ${answer.expiresAt}`));
    }));
  heartbeat.command('keep').description('arm it and keep it alive until interrupted (Ctrl-C leaves it armed: the orders go when it expires)')
    .option('--timeout <ms>', 'milliseconds until the orders go (5000 to 60000)', '10000')
    .addHelpText('after', examples(['pmx heartbeat keep --timeout 10000']))
    .action(run(async (options: { timeout: string }, command: Command) => {
      const client = clientFor(command, 'trader');
      const first = await client.heartbeat.start(Number(options.timeout), (error) => console.error(`a heartbeat failed: ${error instanceof Error ? error.message : String(error)}`));
      console.log(`armed until ${first.expiresAt}; beating every ${Math.floor(Number(options.timeout) / 3)} ms until interrupted`);
      // The SDK's timer does not hold the process open on its own: this does, until a signal ends it.
      await new Promise<void>((resolve) => { process.once('SIGINT', resolve); process.once('SIGTERM', resolve); setInterval(() => {}, 1 << 30); });
      process.exit(0);
    }));
  heartbeat.command('stop').description('disarm it (the orders stay)')
    .addHelpText('after', examples(['pmx heartbeat stop']))
    .action(run(async (_options: unknown, command: Command) => {
      await clientFor(command, 'trader').heartbeat.stop();
      output(!!globals(command).json, { armed: false }, () => console.log('disarmed'));
    }));

  const mmp = program.command('mmp').description("market-maker protection of the API key, per market or event")
    .addHelpText('after', examples(['pmx mmp set --event 6f1c… --window 1000 --max-notional 500 --frozen 10000', 'pmx mmp list', 'pmx mmp remove --event 6f1c…']));
  mmp.command('set').description('cancel the key’s orders in the scope, and refuse new ones for --frozen ms, when its fills there reach a limit within --window ms')
    .option('--market <market>', 'a market (id or slug)')
    .option('--event <eventId>', 'an event id (every market of it)')
    .requiredOption('--window <ms>', 'the sliding window')
    .option('--max-fills <n>', 'fills in the window')
    .option('--max-quantity <tokens>', 'tokens filled in the window')
    .option('--max-notional <usd>', 'USD notional filled in the window')
    .requiredOption('--frozen <ms>', 'how long new orders are refused after a trip')
    .addHelpText('after', examples(['pmx mmp set --market demo-btc-above-150k --window 1000 --max-fills 3 --frozen 5000']))
    .action(run(async (options: MmpOptions, command: Command) => {
      const client = clientFor(command, 'trader');
      // Numbers as given: the server refuses what is not one (400 VALIDATION_FAILED, exit 1); amounts stay decimal strings.
      const setting = await client.mmp.set({
        scope: await scopeOf(client, options), windowMs: Number(options.window), frozenMs: Number(options.frozen),
        ...(options.maxFills !== undefined ? { maxFills: Number(options.maxFills) } : {}),
        ...(options.maxQuantity !== undefined ? { maxQuantity: options.maxQuantity } : {}),
        ...(options.maxNotional !== undefined ? { maxNotionalUsd: options.maxNotional } : {}),
      });
      output(!!globals(command).json, setting, () => printSettings([setting]));
    }));
  mmp.command('list').description("the key's settings, with their freezes")
    .addHelpText('after', examples(['pmx mmp list', 'pmx mmp list --json']))
    .action(run(async (_options: unknown, command: Command) => {
      const settings = await clientFor(command, 'trader').mmp.list();
      output(!!globals(command).json, settings, () => printSettings(settings));
    }));
  mmp.command('remove').description('remove the setting of one scope')
    .option('--market <market>', 'a market (id or slug)')
    .option('--event <eventId>', 'an event id')
    .addHelpText('after', examples(['pmx mmp remove --market demo-btc-above-150k', 'pmx mmp remove --event 6f1c…']))
    .action(run(async (options: Pick<MmpOptions, 'market' | 'event'>, command: Command) => {
      const client = clientFor(command, 'trader');
      const scope = await scopeOf(client, options);
      await client.mmp.remove(scope);
      output(!!globals(command).json, { removed: scope }, () => console.log('removed'));
    }));
}

interface MmpOptions {
  market?: string;
  event?: string;
  window: string;
  maxFills?: string;
  maxQuantity?: string;
  maxNotional?: string;
  frozen: string;
}

async function scopeOf(client: ReturnType<typeof clientFor>, options: { market?: string; event?: string }): Promise<MmpScope> {
  if ((options.market === undefined) === (options.event === undefined)) throw new CliError('name exactly one scope: --market or --event');
  return options.market !== undefined ? { marketId: await marketIdOf(client, options.market) } : { eventId: options.event! };
}

function printSettings(settings: MmpSetting[]): void {
  printTable(settings.map((s) => ({
    scope: 'marketId' in s.scope ? `market ${s.scope.marketId}` : `event ${s.scope.eventId}`,
    windowMs: s.windowMs, maxFills: s.maxFills ?? '', maxQuantity: s.maxQuantity ?? '', maxNotionalUsd: s.maxNotionalUsd ?? '', frozenMs: s.frozenMs, frozenUntil: s.frozenUntil ?? '',
  })), ['scope', 'windowMs', 'maxFills', 'maxQuantity', 'maxNotionalUsd', 'frozenMs', 'frozenUntil']);
}

import type { Command } from 'commander';
import type { OracleOutcome, Resolution } from '../client/index.ts';
import { examples, output, printTable } from './output.ts';
import { CliError, clientFor, globals, run } from './sdk-client.ts';
import { marketIdOf } from './refs.ts';

const OUTCOMES: readonly OracleOutcome[] = ['YES', 'NO', 'TIE'];

function outcomeOf(value: string): OracleOutcome {
  const outcome = value.toUpperCase() as OracleOutcome;
  if (!OUTCOMES.includes(outcome)) throw new CliError(`the outcome is YES, NO or TIE, not "${value}"`);
  return outcome;
}

function printResolution(json: boolean, resolution: Resolution): void {
  output(json, resolution, () => printTable([resolution], ['marketId', 'status', 'proposedOutcome', 'disputeEndsAt', 'disputed', 'finalOutcome', 'resolvedAt']));
}

/**
 * A market's oracle question from the shell (EXTENSIONS.md sections 3 and 4): read it, propose
 * (a trader's bond, or `--operator` without one), dispute, and the operator's decision. Settlement
 * has no command: the question settles by itself when its dispute window ends.
 */
export function registerOracleCommands(program: Command): void {
  const oracle = program.command('oracle').description("a market's resolution: status, propose, dispute, decide")
    .addHelpText('after', examples(['pmx oracle status 6f1c…', 'pmx oracle propose 6f1c… YES', 'ADMIN_TOKEN=… pmx oracle propose 6f1c… NO --operator']));

  oracle.command('status <market>').description("the market's oracle question and resolution")
    .addHelpText('after', examples(['pmx oracle status 6f1c…', 'pmx oracle status 6f1c… --json | jq .status']))
    .action(run(async (marketId: string, _options: unknown, command: Command) => {
      const client = clientFor(command);
      printResolution(!!globals(command).json, await client.oracle.resolution(await marketIdOf(client, marketId)));
    }));

  oracle.command('propose <market> <outcome>').description("propose YES, NO or TIE once the market has ended, locking the event's proposal bond")
    .option('--operator', 'propose as the operator (admin token; no bond, any time)')
    .addHelpText('after', examples(['pmx oracle propose 6f1c… YES', 'ADMIN_TOKEN=… pmx oracle propose 6f1c… TIE --operator']))
    .action(run(async (marketId: string, outcome: string, options: { operator?: boolean }, command: Command) => {
      const chosen = outcomeOf(outcome);
      const client = clientFor(command, options.operator ? 'admin' : 'trader');
      const id = await marketIdOf(client, marketId);
      const resolution = options.operator ? await client.admin.oraclePropose(id, chosen) : await client.oracle.propose(id, chosen);
      printResolution(!!globals(command).json, resolution);
    }));

  oracle.command('dispute <market>').description("dispute someone else's open proposal inside its window, locking a bond of the same size")
    .addHelpText('after', examples(['pmx oracle dispute 6f1c…']))
    .action(run(async (marketId: string, _options: unknown, command: Command) => {
      const client = clientFor(command, 'trader');
      printResolution(!!globals(command).json, await client.oracle.dispute(await marketIdOf(client, marketId)));
    }));

  oracle.command('decide <market> <outcome>').description('the operator decides a DISPUTED question; the market resolves at once')
    .addHelpText('after', examples(['ADMIN_TOKEN=… pmx oracle decide 6f1c… YES']))
    .action(run(async (marketId: string, outcome: string, _options: unknown, command: Command) => {
      const client = clientFor(command, 'admin');
      printResolution(!!globals(command).json, await client.admin.oracleDecide(await marketIdOf(client, marketId), outcomeOf(outcome)));
    }));
}

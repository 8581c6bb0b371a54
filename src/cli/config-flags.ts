import type { Command } from 'commander';
import { flagOf, strayArguments, unknownFlags } from '../config.ts';
import { EXIT_LOCAL_ERROR } from './sdk-client.ts';

/**
 * `serve`, `migrate`, `audit` and `deploy` take the variables they read as flags (`--port 4000`),
 * which commander does not know, so they let any word and flag through to the configuration. What
 * the configuration would not read is refused here, in one line and exit code 2, before anything
 * starts: a word (`pmx ordres` runs `serve`, the default command) and a flag that names no
 * variable (`--prot 3001` would start on the default port).
 */
export function refuseWhatIsNotRead(command: Command, variables: readonly string[]): void {
  const argv = process.argv.slice(2);
  const own = [...command.options, ...(command.parent?.options ?? [])].flatMap((option) => option.long ?? []);
  const known = [...new Set([...own, ...variables.map(flagOf)])];
  // The server reads some fifty variables: a line naming them all says nothing, so a long list
  // is pointed to where it is written, with the rule that turns each into its flag.
  const flags = known.length <= LISTED_FLAGS
    ? `known flags: ${known.join(', ')}`
    : `every variable of README.md's Configuration table is also a flag (DATA_DIR is --data-dir), and pmx ${command.name()} --help lists its own`;
  const [stray] = strayArguments(argv).filter((word, index) => !(index === 0 && word === command.name()));
  // A short flag (`-p 3000`) is no command: say that the flags are written whole.
  if (stray?.startsWith('-')) {
    const example = known.includes('--port') ? '--port 3000' : `${flagOf(variables[0] ?? 'DATA_DIR')} …`;
    refuse(`pmx ${command.name()}: unknown flag '${stray}': flags are written whole, as ${example}; ${flags}`);
  }
  if (stray !== undefined) refuse(`pmx: unknown command '${stray}' (pmx --help lists the commands; ${command.name()} takes flags only)`);
  const [flag] = unknownFlags(argv, own, variables);
  if (flag === undefined) return;
  const meant = known.filter((candidate) => distance(flag, candidate) <= 2);
  refuse(`pmx ${command.name()}: unknown flag '${flag}'${meant.length > 0 ? ` (did you mean ${meant.join(' or ')}?)` : ''}; ${flags}`);
}

/** The most flags a refusal lists (deploy's nine); more are pointed to instead. */
const LISTED_FLAGS = 12;

/** Levenshtein's edit distance: how many letters to insert, delete or change to turn `a` into `b`. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

function refuse(message: string): never {
  console.error(message);
  process.exit(EXIT_LOCAL_ERROR);
}

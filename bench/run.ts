/**
 * `npm run bench` runs every benchmark in turn; `npm run bench -- book` (or `fanout`, ...) runs
 * the named ones. Each benchmark is a script that measures and prints when imported; options
 * after the names (`--seeds 50`) are the benchmarks' own, read from process.argv. `simulate` is
 * not a measurement but the engine's deterministic simulation over many seeds: it runs only
 * when named.
 */
const BENCHMARKS = ['boot', 'demo-idle', 'book', 'signatures', 'http-orders', 'reads-under-load', 'recovery', 'takeover', 'fanout', 'portfolio-reads', 'price-history', 'rewards', 'portfolio', 'contracts-gas', 'settlement-sender', 'settlement', 'ledger-moves', 'large-tables', 'journal-compression'] as const;
const ON_DEMAND = ['simulate'] as const;

const firstOption = process.argv.findIndex((arg, i) => i >= 2 && arg.startsWith('--'));
const asked = process.argv.slice(2, firstOption === -1 ? undefined : firstOption);
const unknown = asked.filter((name) => ![...BENCHMARKS, ...ON_DEMAND].includes(name as never));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; choose from ${[...BENCHMARKS, ...ON_DEMAND].join(', ')}`);
  process.exit(1);
}
for (const name of asked.length > 0 ? asked : BENCHMARKS) {
  console.log(`\n== ${name} ==`);
  await import(`./${name}.ts`);
}

/**
 * `npm run bench` runs every benchmark in turn; `npm run bench -- book` (or `fanout`, ...) runs
 * the named ones. Each benchmark is a script that measures and prints when imported.
 */
const BENCHMARKS = ['boot', 'demo-idle', 'book', 'signatures', 'http-orders', 'recovery', 'fanout', 'portfolio-reads', 'price-history', 'rewards', 'portfolio'] as const;

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(BENCHMARKS as readonly string[]).includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; choose from ${BENCHMARKS.join(', ')}`);
  process.exit(1);
}
for (const name of asked.length > 0 ? asked : BENCHMARKS) {
  console.log(`\n== ${name} ==`);
  await import(`./${name}.ts`);
}

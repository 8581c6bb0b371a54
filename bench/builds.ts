import { join } from 'node:path';

/**
 * The servers a benchmark compares: this checkout's build (no `cli`: the test helper builds it),
 * preceded, with BENCH_REFERENCE=<another checkout>, by that checkout's built server (its
 * dist/server/main.js), so one run prints a before/after store by store.
 */
export function benchBuilds(): { name: string; cli?: string }[] {
  const reference = process.env.BENCH_REFERENCE;
  return [...(reference ? [{ name: 'reference ', cli: join(reference, 'dist/server/main.js') }] : []), { name: '' }];
}

/**
 * The values of unlabelled series in a server's `GET /metrics` (Prometheus text), by name; a
 * series the server does not serve is absent (an older build, in a benchmark's reference).
 */
export async function metricValues(server: { url: string }, names: readonly string[]): Promise<Map<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const values = new Map<string, number>();
  for (const name of names) {
    const value = metricSample(text, name);
    if (value !== undefined) values.set(name, value);
  }
  return values;
}

/** The value of the one sample of `name` in Prometheus text whose labels include every pair given; undefined when absent. */
export function metricSample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const pairs = new Map([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    // Prometheus writes infinities as +Inf and -Inf.
    if (Object.entries(labels).every(([key, value]) => pairs.get(key) === value)) return Number(match[3]!.replace(/Inf$/, 'Infinity'));
  }
  return undefined;
}

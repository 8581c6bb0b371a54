/**
 * The values of unlabelled series in a server's `GET /metrics` (Prometheus text), by name; a
 * series the server does not serve is absent (an older build, in a benchmark's reference).
 */
export async function metricValues(server: { url: string }, names: readonly string[]): Promise<Map<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const values = new Map<string, number>();
  for (const name of names) {
    const value = text.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1];
    if (value !== undefined) values.set(name, Number(value));
  }
  return values;
}

/** Exclusions grouped by reason, in the order given, each group in the order the request named its markets. */
export function byReason<R extends string>(excluded: { marketId: string; reason: R }[], order: R[], requested: string[]): { marketId: string; reason: R }[] {
  const position = (marketId: string) => requested.indexOf(marketId);
  return order.flatMap((reason) => excluded.filter((e) => e.reason === reason).sort((a, b) => position(a.marketId) - position(b.marketId)));
}

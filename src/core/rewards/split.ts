/**
 * Splits `budget` base units between makers in proportion to their scores, exactly: each gets
 * floor(budget × score / total), and the base units left over (fewer than the number of makers)
 * go one each to the largest fractional parts, ties to the smaller maker id. The shares always
 * sum to the budget when anyone scored, so a day's payouts sum to what its samples distributed.
 */
export function splitBudget(budget: bigint, scores: ReadonlyMap<string, bigint>): Map<string, bigint> {
  const shares = new Map<string, bigint>();
  let total = 0n;
  for (const score of scores.values()) total += score;
  if (total === 0n || budget <= 0n) return shares;
  const fractions: { makerId: string; fraction: bigint }[] = [];
  let given = 0n;
  for (const [makerId, score] of scores) {
    const product = budget * score;
    const share = product / total;
    shares.set(makerId, share);
    given += share;
    fractions.push({ makerId, fraction: product % total });
  }
  let left = budget - given;
  fractions.sort((a, b) => (a.fraction === b.fraction ? (a.makerId < b.makerId ? -1 : 1) : a.fraction > b.fraction ? -1 : 1));
  for (const { makerId } of fractions) {
    if (left === 0n) break;
    shares.set(makerId, shares.get(makerId)! + 1n);
    left -= 1n;
  }
  return shares;
}

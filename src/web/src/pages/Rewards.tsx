import { cents, errorText, usd } from '../format.ts';
import { useLoad } from '../load.ts';
import { Link, marketPath, useTitle } from '../router.tsx';
import { useAction } from '../action.ts';
import { useSession } from '../session.ts';

/** Maker rewards: the public pools, and for a signed-in trader earnings, qualifying orders and the claim. */
export default function RewardsPage() {
  useTitle('Rewards');
  const { client, wallet } = useSession();
  const pools = useLoad(() => client.rewards.pools({ limit: 50 }), [client]);
  return (
    <div className="stack">
      {wallet && <Mine />}
      <section className="panel" aria-label="Reward pools" data-testid="reward-pools">
        <h1>Reward pools</h1>
        <p className="muted">Resting orders near the midpoint earn a share of each market's daily pool. Total today: {usd(pools.data?.totalRewardUsdc)}</p>
        {pools.error ? <p className="error">{errorText(pools.error)}</p> : null}
        {pools.data && pools.data.data.length === 0 && <p className="muted">No market pays rewards now.</p>}
        {pools.data && pools.data.data.length > 0 && <table>
          <thead><tr><th scope="col">Market</th><th scope="col" className="num">Pool</th><th scope="col" className="num">Max spread</th><th scope="col" className="num">Min size</th><th scope="col">Status</th></tr></thead>
          <tbody>
            {pools.data.data.flatMap((event) => event.markets.map((market) => (
              <tr key={market.marketId}>
                <td>{market.marketSlug ? <Link to={marketPath(market.marketSlug)}>{market.marketDisplayName ?? market.marketName}</Link> : market.marketName}</td>
                <td className="num">{usd(market.rewardUsdc)}</td>
                <td className="num">±{cents(market.maxDistanceFromMid)}</td>
                <td className="num">{usd(market.minOrderSizeUsdc)}</td>
                <td>{market.accruingNow ? 'accruing' : market.rewardStatus.toLowerCase()}</td>
              </tr>
            )))}
          </tbody>
        </table>}
      </section>
    </div>
  );
}

function Mine() {
  const { client, revision } = useSession();
  const [busy, run] = useAction();
  const mine = useLoad(async () => {
    const [summary, qualifying] = await Promise.all([client.rewards.summary(), client.rewards.qualifyingOrders()]);
    return { summary, qualifying };
  }, [client, revision]);
  const claim = () => run(async () => {
    const answer = await client.rewards.claim();
    return answer.outcome === 'dispatched' ? `Claim of ${usd(answer.claimableAmountUsdc)} sent; its status follows live` : answer.message ?? answer.outcome.replaceAll('-', ' ');
  });
  const summary = mine.data?.summary;
  return (
    <section className="panel" aria-label="My rewards" data-testid="my-rewards">
      <h2>My rewards</h2>
      <dl className="stats num">
        <div><dt>Earned today</dt><dd>{usd(summary?.earnedSoFarUsdc)}</dd></div>
        <div><dt>Claimable</dt><dd>{usd(summary?.claimableUsdc)}</dd></div>
        <div><dt>All time</dt><dd>{usd(summary?.allTimeEarnedUsdc)}</dd></div>
      </dl>
      <button type="button" className="primary" disabled={busy || !summary?.canClaim} onClick={claim}>
        {summary?.claimInFlight ? 'Claim in flight…' : `Claim${summary ? ` (minimum ${usd(summary.minPayoutUsdc)})` : ''}`}
      </button>
      <h3>Qualifying orders</h3>
      {mine.data?.qualifying.length ? (
        <ul className="plain">
          {mine.data.qualifying.map((order) => (
            <li key={order.orderId}><span>{order.marketDisplayName ?? order.marketName} · {order.side} {order.outcome}</span><span className="num">{usd(order.sizeUsdc)}</span></li>
          ))}
        </ul>
      ) : <p className="muted">None of your resting orders qualifies now.</p>}
    </section>
  );
}

import type { RedeemablePosition, UserPosition } from '../../../client/index.ts';
import { useAction } from '../action.ts';
import { describeBatch, group, money, units } from '../format.ts';
import { useLoad } from '../load.ts';
import { MAX_PAGES, resolvedPositions } from '../resolved-positions.ts';
import { Link, marketPath } from '../router.tsx';
import { useSession } from '../session.ts';

/** A resolved market the trader still holds shares of, and what redeeming them pays (undefined: not among the positions read). */
interface Redemption {
  market: RedeemablePosition;
  pays: bigint | undefined;
}

/**
 * What each redeemable market pays: its held positions' `current`, which for a resolved market is
 * the shares times what they redeem for (1, 0, or 0.5 on a tie: EXTENSIONS.md section 11).
 */
function redemptions(markets: RedeemablePosition[], resolved: UserPosition[]): Redemption[] {
  return markets.map((market) => {
    const held = resolved.filter((row) => row.market_uuid === market.marketId);
    return { market, pays: held.length === 0 ? undefined : held.reduce((sum, row) => sum + (units(row.current) ?? 0n), 0n) };
  });
}

/**
 * Resolved markets whose shares are still held. Those that pay are redeemed (one by one or all at
 * once, the button saying how much comes back); those whose shares lost are shown as lost, paying
 * $0, and can be cleared (the server burns them and pays nothing: EXTENSIONS.md section 11), never
 * offered as a "Redeem" that sounds like money coming back.
 */
export function Redeemable() {
  const { client, revision } = useSession();
  const [busy, act] = useAction();
  const loaded = useLoad(async () => {
    const [markets, resolved] = await Promise.all([client.portfolio.redeemable(), resolvedPositions(client)]);
    return { rows: redemptions(markets, resolved.rows), complete: resolved.complete };
  }, [client, revision]);
  const rows = loaded.data?.rows ?? [];
  const unread = rows.some((row) => row.pays === undefined) && loaded.data?.complete === false;
  const paying = rows.filter((row) => row.pays !== 0n);
  // A whole that left out an unread amount would say less than comes back: none is said then.
  const total = paying.every((row) => row.pays !== undefined) ? paying.reduce((sum, row) => sum + (row.pays ?? 0n), 0n) : 0n;
  const run = (label: string, ids: string[]) => act(async () => describeBatch(label, await client.portfolio.redeemMany(ids)));
  return (
    <section className="panel" aria-label="Redeemable" data-testid="redeemable">
      <header className="panel-head">
        <h2>Redeemable</h2>
        {paying.length > 0 && (
          <button type="button" className="primary" disabled={busy} onClick={() => run('Redeem', paying.map((row) => row.market.marketId))}>
            Redeem all{total > 0n ? ` · ${money(total)}` : ''}
          </button>
        )}
      </header>
      {rows.length === 0 ? <p className="muted">None.</p> : (
        <ul className="plain">
          {rows.map(({ market, pays }) => (
            <li key={market.marketId} data-testid={pays === 0n ? 'lost' : 'pays'}>
              <Link to={marketPath(market.slug)}>{market.name}</Link>
              {pays === 0n ? (
                <span>
                  <span className="muted">Lost: pays $0</span>{' '}
                  <button type="button" className="ghost" disabled={busy} title="Removes the shares that lost from your positions; nothing is paid" onClick={() => run('Cleared, nothing paid', [market.marketId])}>Clear</button>
                </span>
              ) : (
                <button type="button" disabled={busy} onClick={() => run('Redeem', [market.marketId])}>Redeem{pays ? ` ${money(pays)}` : ''}</button>
              )}
            </li>
          ))}
        </ul>
      )}
      {unread && <p className="muted" data-testid="redeem-unread">A Redeem without an amount is of a market beyond your first {group(String(MAX_PAGES * 100))} resolved positions, which are all that is read here; it pays what its shares redeem for.</p>}
    </section>
  );
}

import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { createClient, ExchangeError, type ExchangeClient, type Market, type OracleOutcome } from '../../../client/index.ts';
import { counted, errorText, usd } from '../format.ts';
import { useLoad } from '../load.ts';
import { useTitle } from '../router.tsx';
import { useAction } from '../action.ts';
import { useDepositKey } from '../deposit-key.ts';
import { offers } from '../capabilities.ts';

/** The operator's token lives in sessionStorage: it goes when the tab closes. */
const TOKEN_KEY = 'pmx.adminToken';

/**
 * Operating the exchange behind the admin token: catalogue, publishing, market controls and fees,
 * credits, rewards and treasury, and the oracle's operator proposal and dispute decision.
 */
export default function AdminPage() {
  useTitle('Operate');
  const [token, setToken] = useState(() => sessionStorage.getItem(TOKEN_KEY) ?? '');
  const [draft, setDraft] = useState('');
  const [refused, setRefused] = useState(false);
  const admin = useMemo(() => (token ? createClient({ baseUrl: location.origin, credentials: { adminToken: token } }) : undefined), [token]);
  const forget = (wasRefused: boolean) => {
    sessionStorage.removeItem(TOKEN_KEY);
    setToken('');
    setDraft('');
    setRefused(wasRefused);
  };
  if (!admin) {
    const save = (event: FormEvent) => {
      event.preventDefault();
      sessionStorage.setItem(TOKEN_KEY, draft);
      setToken(draft);
    };
    return (
      <form className="panel narrow" onSubmit={save}>
        <h1>Operate</h1>
        {refused && <p className="error" role="alert">The server refused that admin token. Enter it again.</p>}
        <p className="muted">The admin token is kept in this tab only (sessionStorage).</p>
        <label>Admin token <input type="password" autoComplete="off" value={draft} onChange={(e) => setDraft(e.target.value)} minLength={16} required /></label>
        <button type="submit" className="primary">Continue</button>
      </form>
    );
  }
  return <Console admin={admin} onForget={() => forget(false)} onRefused={() => forget(true)} />;
}

/** A form whose submit runs `action` and puts its answer (or the server's refusal) in words. */
function Form({ title, action, children, label = 'Save' }: { title: string; action: (data: FormData) => Promise<string>; children: ReactNode; label?: string }) {
  const [busy, run] = useAction();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    void run(() => action(data));
  };
  return (
    <form className="panel admin-form" onSubmit={submit} aria-label={title}>
      <h2>{title}</h2>
      {children}
      <button type="submit" className="primary" disabled={busy}>{label}</button>
    </form>
  );
}

const text = (data: FormData, name: string) => String(data.get(name) ?? '').trim();

/** Whether the server refused the admin token itself (not one request's content). */
const refusesToken = (error: unknown) => error instanceof ExchangeError && (error.status === 401 || error.status === 403);

function Console({ admin, onForget, onRefused }: { admin: ExchangeClient; onForget: () => void; onRefused: () => void }) {
  const [revision, setRevision] = useState(0);
  const bump = () => setRevision((value) => value + 1);
  const taxonomy = useLoad(async () => ({ categories: await admin.admin.categories(), tags: await admin.admin.tags() }), [admin, revision]);
  const events = useLoad(() => admin.events.list({ limit: 100, total: false, sortBy: 'createdAt', order: 'DESC' }), [admin, revision]);
  // Drafts are read from the server (the admin's event list by status), so a reload still offers to publish them.
  const drafts = useLoad(() => admin.admin.events({ eventStatus: 'DRAFT', limit: 100, total: false, sortBy: 'createdAt', order: 'DESC' }), [admin, revision]);
  // The clock's route exists on a manual-clock server only (tests, demos); the real clock has nothing to move.
  const manualClock = useLoad(() => offers('manualClock'), []);
  const [publishing, publish] = useAction();
  // A deposit sent again after an error keeps its key, so one whose answer was lost is made once.
  const creditKey = useDepositKey();
  const treasuryKey = useDepositKey();
  const markets: Market[] = (events.data?.data ?? []).flatMap((event) => event.markets);
  // A refused token is forgotten and asked for again, rather than every form failing with 401.
  useEffect(() => {
    if (refusesToken(taxonomy.error)) onRefused();
  }, [taxonomy.error, onRefused]);

  return (
    <div className="stack">
      <header className="panel-head">
        <h1>Operate</h1>
        <button type="button" className="ghost" onClick={onForget}>Forget token</button>
      </header>
      {taxonomy.error ? <p className="error" role="alert">{errorText(taxonomy.error)}</p> : null}
      <div className="admin-grid">
        <Form title="New category" action={async (data) => {
          const category = await admin.admin.createCategory({ name: text(data, 'name') });
          bump();
          return `Category ${category.name} created`;
        }}>
          <label>Name <input name="name" required maxLength={100} /></label>
        </Form>
        <Form title="New tag" action={async (data) => {
          const tag = await admin.admin.createTag({ slug: text(data, 'slug'), label: text(data, 'label'), type: text(data, 'type') || 'topic' });
          bump();
          return `Tag ${tag.label} created`;
        }}>
          <label>Slug <input name="slug" required /></label>
          <label>Label <input name="label" required /></label>
          <label>Type <input name="type" placeholder="topic" /></label>
        </Form>
        <Form title="New event" label="Create draft" action={async (data) => {
          const names = text(data, 'markets').split('\n').map((line) => line.trim()).filter(Boolean);
          const category = text(data, 'category');
          const endDate = text(data, 'endDate');
          const event = await admin.admin.createEvent({
            name: text(data, 'name'),
            description: text(data, 'description'),
            ...(endDate ? { endDate: new Date(endDate).toISOString() } : {}),
            negRisk: data.get('negRisk') === 'on',
            ...(category ? { categories: [category] } : {}),
            ...(text(data, 'liveness') ? { liveness: Number(text(data, 'liveness')) } : {}),
            markets: (names.length ? names : [text(data, 'name')]).map((name) => ({ name })),
          });
          bump();
          return `Draft event ${event.name} created with ${counted(event.markets.length, 'market')}`;
        }}>
          <label>Name <input name="name" required maxLength={200} /></label>
          <label>Description <textarea name="description" rows={2} /></label>
          <label>End date <input name="endDate" type="datetime-local" /></label>
          <label>Dispute window (seconds) <input name="liveness" inputMode="numeric" placeholder="7200" /></label>
          <label>Category <select name="category"><option value="">none</option>{taxonomy.data?.categories.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}</select></label>
          <label className="check"><input type="checkbox" name="negRisk" /> negRisk (exactly one market wins)</label>
          <label>Markets, one per line (empty: one market named like the event) <textarea name="markets" rows={3} /></label>
        </Form>
      </div>

      {(drafts.data?.data.length ?? 0) > 0 && (
        <section className="panel" aria-label="Drafts">
          <h2>Drafts</h2>
          <ul className="plain">
            {drafts.data?.data.map((event) => (
              <li key={event.id}>
                <span>{event.name} <small className="muted">{event.markets.length} {event.markets.length === 1 ? 'market' : 'markets'}</small></span>
                <button type="button" className="primary" disabled={publishing} onClick={() => publish(async () => {
                  const published = await admin.admin.publishEvent(event.id);
                  bump();
                  return `Published ${published.name}`;
                })}>Publish</button>
              </li>
            ))}
          </ul>
        </section>
      )}

      <MarketControls admin={admin} markets={markets} onChange={bump} />

      <div className="admin-grid">
        <Form title="Credit collateral" label="Credit" action={async (data) => {
          const [address, amount] = [text(data, 'address'), text(data, 'amount')];
          const answer = await admin.admin.credit(address, amount, { idempotencyKey: creditKey.keyFor(`${address.toLowerCase()} ${amount}`) });
          creditKey.answered();
          return `Credited; balance now ${usd(answer.balance)}`;
        }}>
          <label>Sign-in address <input name="address" required pattern="^0x[0-9a-fA-F]{40}$" /></label>
          <label>Amount (USDC) <input name="amount" required inputMode="decimal" /></label>
        </Form>
        <Form title="Reward treasury" label="Fund" action={async (data) => {
          const amount = text(data, 'amount');
          const answer = await admin.admin.fundRewardTreasury(amount, { idempotencyKey: treasuryKey.keyFor(amount) });
          treasuryKey.answered();
          return `Treasury now ${usd(answer.balance)}`;
        }}>
          <label>Amount (USDC) <input name="amount" required inputMode="decimal" /></label>
        </Form>
        <Form title="Reward accrual" label="Apply" action={async (data) => ((await admin.admin.pauseRewards(data.get('paused') === 'on')).paused ? 'Rewards paused' : 'Rewards accruing')}>
          <label className="check"><input type="checkbox" name="paused" /> Pause every market's rewards</label>
        </Form>
        {manualClock.data && (
          <Form title="Manual clock" label="Advance" action={async (data) => `Server time now ${(await admin.admin.clock({ advanceMs: Number(text(data, 'minutes')) * 60_000 })).now}`}>
            <p className="muted">This server runs on a manual clock (CLOCK=manual): its time moves only when advanced here.</p>
            <label>Minutes <input name="minutes" required inputMode="numeric" defaultValue="60" /></label>
          </Form>
        )}
      </div>
    </div>
  );
}

function MarketControls({ admin, markets, onChange }: { admin: ExchangeClient; markets: Market[]; onChange: () => void }) {
  const [marketId, setMarketId] = useState('');
  const market = markets.find((m) => m.id === marketId);
  const oracle = (kind: 'propose' | 'decide') => async (data: FormData) => {
    const outcome = text(data, 'outcome') as OracleOutcome;
    const resolution = kind === 'propose' ? await admin.admin.oraclePropose(marketId, outcome) : await admin.admin.oracleDecide(marketId, outcome);
    onChange();
    return `Oracle: ${resolution.status.toLowerCase()}${resolution.disputeEndsAt ? `, dispute window until ${new Date(resolution.disputeEndsAt).toLocaleString()}` : ''}`;
  };
  const outcomeSelect = <label>Outcome <select name="outcome">{(['YES', 'NO', 'TIE'] as const).map((o) => <option key={o}>{o}</option>)}</select></label>;
  return (
    <section className="panel" aria-label="Market controls">
      <h2>Markets</h2>
      <label>Market
        <select value={marketId} onChange={(e) => setMarketId(e.target.value)} data-testid="admin-market">
          <option value="">choose a market</option>
          {markets.map((m) => <option key={m.id} value={m.id}>{m.name} ({m.status.toLowerCase()}{m.isPaused ? ', paused' : ''})</option>)}
        </select>
      </label>
      {market && (
        <div className="admin-grid">
          <Form title={market.isPaused ? 'Resume trading' : 'Pause trading'} label={market.isPaused ? 'Resume' : 'Pause'} action={async () => {
            const patched = await admin.admin.patchMarket(market.id, { isPaused: !market.isPaused });
            onChange();
            return `${patched.name} ${patched.isPaused ? 'paused' : 'resumed'}`;
          }}><p className="muted">Paused markets refuse new orders.</p></Form>
          <Form title="Fees" action={async (data) => {
            const patched = await admin.admin.patchMarket(market.id, { orderFeeRateBps: Number(text(data, 'taker')), passiveOrderFeeRateBps: Number(text(data, 'maker')) });
            onChange();
            return `Fees of ${patched.name}: taker ${patched.orderFeeRateBps} bps, maker ${patched.passiveOrderFeeRateBps} bps`;
          }}>
            <label>Taker bps <input name="taker" inputMode="numeric" defaultValue={market.orderFeeRateBps} /></label>
            <label>Maker bps <input name="maker" inputMode="numeric" defaultValue={market.passiveOrderFeeRateBps} /></label>
          </Form>
          <Form title="Rewards" action={async (data) => {
            const detail = await admin.admin.configureRewards(market.id, { rewardUsdc: text(data, 'reward'), maxDistanceFromMid: text(data, 'distance'), minOrderSizeUsdc: text(data, 'minSize') });
            return `Rewards of ${detail.marketName ?? market.name}: ${usd(detail.rewardUsdc)} a day`;
          }}>
            <label>Daily pool (USDC) <input name="reward" required inputMode="decimal" /></label>
            <label>Max distance from mid <input name="distance" required inputMode="decimal" defaultValue="0.03" /></label>
            <label>Min order size (USDC) <input name="minSize" required inputMode="decimal" defaultValue="10" /></label>
          </Form>
          <Form title="Oracle: propose (no bond)" label="Propose" action={oracle('propose')}>{outcomeSelect}</Form>
          <Form title="Oracle: decide a dispute" label="Decide" action={oracle('decide')}>{outcomeSelect}</Form>
        </div>
      )}
    </section>
  );
}

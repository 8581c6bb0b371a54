import { useState } from 'react';
import { Link, usePath } from '../router.tsx';
import { injectedProvider, notify, refresh, signIn, signOut, useSession } from '../session.ts';
import { errorText, shortAddress, usd } from '../format.ts';
import { useLoad } from '../load.ts';

const FAUCET_AMOUNT = '1000';

export function Header() {
  const path = usePath();
  const nav = [['/', 'Markets'], ['/portfolio', 'Portfolio'], ['/rewards', 'Rewards'], ['/admin', 'Operate']] as const;
  return (
    <header className="header">
      <Link to="/" className="brand" aria-label="PMX home">
        <img src="/favicon.svg" alt="" width="24" height="24" /> PMX
      </Link>
      <nav aria-label="Main">
        {nav.map(([to, label]) => (
          <Link key={to} to={to} aria-current={path === to ? 'page' : undefined}>{label}</Link>
        ))}
      </nav>
      <div className="header-end">
        <Account />
        <ThemeToggle />
      </div>
    </header>
  );
}

function Account() {
  const { wallet, client, revision, faucet, user } = useSession();
  const [busy, setBusy] = useState(false);
  const balance = useLoad(() => (wallet ? client.account.balance() : Promise.resolve(undefined)), [client, wallet, revision]);

  const act = (what: () => Promise<unknown>) => async () => {
    setBusy(true);
    try {
      await what();
    } catch (error) {
      notify(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  if (!wallet) {
    return (
      <div className="account">
        {injectedProvider() && <button type="button" disabled={busy} onClick={act(() => signIn('injected'))}>Connect wallet</button>}
        <button type="button" className="primary" disabled={busy} onClick={act(() => signIn('dev'))} title="A key generated and kept in this browser: unsafe for real money">
          Sign in with dev wallet
        </button>
      </div>
    );
  }
  return (
    <div className="account">
      <span className="balance num" data-testid="cash" title="Available collateral">{usd(balance.data?.collateral.available)}</span>
      {faucet && (
        <button type="button" disabled={busy} onClick={act(async () => {
          await client.account.faucet(FAUCET_AMOUNT);
          notify(`Faucet: ${FAUCET_AMOUNT} USDC credited`);
          refresh();
        })}>Faucet</button>
      )}
      <Link to={user?.displayName ? `/profile/${encodeURIComponent(user.displayName)}` : '/portfolio'} className="who" title={wallet.address}>
        {wallet.kind === 'dev' && <span className="badge warn" title="The key is stored in this browser: never use it for real money">dev wallet</span>}
        {shortAddress(wallet.address)}
      </Link>
      <button type="button" className="ghost" onClick={signOut}>Sign out</button>
    </div>
  );
}

function ThemeToggle() {
  const toggle = () => {
    const root = document.documentElement;
    const dark = root.dataset.theme ? root.dataset.theme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
    root.dataset.theme = dark ? 'light' : 'dark';
    localStorage.setItem('pmx.theme', root.dataset.theme);
  };
  return <button type="button" className="ghost icon" onClick={toggle} aria-label="Switch light or dark theme">◐</button>;
}

import { useEffect, useRef, useState } from 'react';
import { Link, usePath } from '../router.tsx';
import { useAction } from '../action.ts';
import { injectedProvider, signIn, signOut, useSession } from '../session.ts';
import { money, shortAddress, units, usd } from '../format.ts';
import { useLoad } from '../load.ts';
import { useWalletOnChain } from '../wallet-on-chain.ts';

const FAUCET_AMOUNT = '1000';
/** The header reads the wallet's collateral only, no outcome token. */
const NO_TOKENS: readonly string[] = [];

/**
 * The header. On a desktop: brand, navigation, cash, account and theme on one line. Narrower
 * (styles.css, up to 1180 px: a tablet, a phone) it stays one row too: brand, cash (or sign-in)
 * and a menu button; the navigation and account actions open under it (Escape closes them).
 */
export function Header() {
  const path = usePath();
  // The phone menu is open on the page it was opened on: a page change closes it.
  const [openOn, setOpenOn] = useState<string | undefined>(undefined);
  const open = openOn === path;
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  // Escape closes the open menu, as a disclosure does, and a focus inside it goes back to its
  // button: the closed menu is hidden, and the focus was lost to the page's body.
  useEffect(() => {
    if (!open) return;
    const close = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      if (menu.current?.contains(document.activeElement)) toggle.current?.focus();
      setOpenOn(undefined);
    };
    document.addEventListener('keydown', close);
    return () => document.removeEventListener('keydown', close);
  }, [open]);
  const nav = [['/', 'Markets'], ['/portfolio', 'Portfolio'], ['/rewards', 'Rewards'], ['/admin', 'Operate']] as const;
  return (
    <header className="header">
      <Link to="/" className="brand" aria-label="PMX home">
        <img src="/favicon.svg" alt="" width="24" height="24" /> PMX
      </Link>
      <Quick />
      <button ref={toggle} type="button" className="ghost menu-toggle" aria-expanded={open} aria-controls="header-menu" onClick={() => setOpenOn(open ? undefined : path)}>
        <span aria-hidden="true">☰</span><span className="sr-only">Menu</span>
      </button>
      <div ref={menu} id="header-menu" className="header-menu" data-open={open}>
        <nav aria-label="Main">
          {nav.map(([to, label]) => (
            <Link key={to} to={to} aria-current={path === to ? 'page' : undefined}>{label}</Link>
          ))}
        </nav>
        <div className="header-end">
          <Account />
          <ThemeToggle />
        </div>
      </div>
    </header>
  );
}

/**
 * What the header's one row always shows: the cash when signed in, else the dev wallet's sign-in.
 * The cash is the ledger's available collateral (what orders can spend); with a chain, the
 * wallet's collateral on chain is in its title, and a mark shows while the two differ.
 */
function Quick() {
  const { wallet, client, revision } = useSession();
  const [busy, run] = useAction();
  const balance = useLoad(() => (wallet ? client.account.balance() : Promise.resolve(undefined)), [client, wallet, revision]);
  const { onChain } = useWalletOnChain(NO_TOKENS);
  if (wallet) {
    const ledger = units(balance.data?.collateral.balance);
    const settling = onChain !== undefined && ledger !== undefined && onChain.collateral !== ledger;
    const title = `Available collateral${onChain ? `; ${money(onChain.collateral)} in your wallet on chain${settling ? ', which differs from the ledger while funds are in flight' : ''}` : ''}`;
    return (
      <span className="balance num" data-testid="cash" title={title}>
        {usd(balance.data?.collateral.available)}
        {settling && <><span className="settling" aria-hidden="true">⇄</span><span className="sr-only"> (funds in flight on chain)</span></>}
      </span>
    );
  }
  return (
    <button type="button" className="primary sign-in" disabled={busy} onClick={() => run(async () => void (await signIn('dev')))} title="A key generated and kept in this browser: unsafe for real money. While signed in, this browser's storage also holds your API key and session token (any script of this site could read them); signing out revokes both">
      Sign in with dev wallet
    </button>
  );
}

function Account() {
  const { wallet, client, faucet } = useSession();
  const [busy, run] = useAction();
  if (!wallet) {
    return injectedProvider() ? (
      <div className="account">
        <button type="button" disabled={busy} onClick={() => run(async () => void (await signIn('injected')))}>Connect wallet</button>
      </div>
    ) : null;
  }
  return (
    <div className="account">
      {faucet && (
        <button type="button" disabled={busy} onClick={() => run(async () => {
          await client.account.faucet(FAUCET_AMOUNT);
          return `Faucet: ${FAUCET_AMOUNT} USDC credited`;
        })}>Faucet</button>
      )}
      <Link to="/account" className="who" title={`${wallet.address}: account settings (display name, API keys)`}>
        {wallet.kind === 'dev' && <span className="badge warn" title="The key is stored in this browser: never use it for real money">unsafe dev wallet</span>}
        <span className="address">{shortAddress(wallet.address)}</span>
      </Link>
      <button type="button" className="ghost" onClick={() => void signOut()} title="Revokes this browser's API key and ends the session">Sign out</button>
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

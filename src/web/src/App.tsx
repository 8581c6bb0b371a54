import { lazy, Suspense, type ReactNode } from 'react';
import { isTransactionHash } from './chain.ts';
import { Header } from './components/Header.tsx';
import { Notices } from './components/Notices.tsx';
import { Home } from './pages/Home.tsx';
import { Link, match, usePath } from './router.tsx';

// Every page but the markets home loads on first visit, so the home's initial script stays small.
const MarketPage = lazy(() => import('./pages/Market.tsx'));
const EventPage = lazy(() => import('./pages/Event.tsx'));
const PortfolioPage = lazy(() => import('./pages/Portfolio.tsx'));
const RewardsPage = lazy(() => import('./pages/Rewards.tsx'));
const ProfilePage = lazy(() => import('./pages/Profile.tsx'));
const AccountPage = lazy(() => import('./pages/Account.tsx'));
const AdminPage = lazy(() => import('./pages/Admin.tsx'));
const TransactionPage = lazy(() => import('./pages/Transaction.tsx'));

function route(path: string): ReactNode {
  if (path === '/') return <Home />;
  const market = match('/market/:slug', path);
  if (market) return <MarketPage key={market.slug} slug={market.slug!} />;
  const event = match('/event/:slug', path);
  if (event) return <EventPage key={event.slug} slug={event.slug!} />;
  if (path === '/portfolio') return <PortfolioPage />;
  if (path === '/rewards') return <RewardsPage />;
  const profile = match('/profile/:name', path);
  if (profile) return <ProfilePage key={profile.name} name={profile.name!} />;
  if (path === '/account') return <AccountPage />;
  if (path === '/admin') return <AdminPage />;
  const transaction = match('/tx/:hash', path);
  if (transaction && isTransactionHash(transaction.hash!)) return <TransactionPage key={transaction.hash} hash={transaction.hash} />;
  return (
    <section className="panel">
      <h1>Page not found</h1>
      <p>There is nothing at {path}.</p>
      <p><Link to="/">Back to the markets</Link></p>
    </section>
  );
}

export function App() {
  const path = usePath();
  return (
    <>
      <a className="skip" href="#main">Skip to content</a>
      {/* First after the skip link: a notice is reached at once, not after the whole page (it shows at the bottom, fixed). */}
      <Notices />
      <Header />
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p className="muted" role="status">Loading…</p>}>{route(path)}</Suspense>
      </main>
    </>
  );
}

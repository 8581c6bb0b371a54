import { ApiKeys } from '../components/ApiKeys.tsx';
import { ProfileSettings } from '../components/ProfileSettings.tsx';
import { useTitle } from '../router.tsx';
import { useSession } from '../session.ts';

/** The signed-in trader's settings: the public profile (display name, avatar, anonymity) and API keys. */
export default function AccountPage() {
  useTitle('Account');
  const { user, wallet } = useSession();
  if (!wallet || !user) {
    return (
      <section className="panel">
        <h1>Account</h1>
        <p>Sign in to change your display name and manage your API keys.</p>
      </section>
    );
  }
  return (
    <div className="stack">
      <header>
        <h1>Account</h1>
        <p className="muted">Signed in as <span className="hash">{wallet.address}</span></p>
      </header>
      <ProfileSettings key={user.userId} account={user} />
      <ApiKeys />
    </div>
  );
}

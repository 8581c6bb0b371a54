import { useState, type FormEvent } from 'react';
import { ExchangeError, type Account, type AccountPatch } from '../../../client/index.ts';
import { DISPLAY_NAME_PATTERN } from '../../../contract/formats.ts';
import { errorText } from '../format.ts';
import { Link } from '../router.tsx';
import { notify, setUser, useSession } from '../session.ts';

const DISPLAY_NAME = new RegExp(DISPLAY_NAME_PATTERN);
const AVATAR_URL_MAX = 2048;

/** What is wrong with a display name by the server's rule (EXTENSIONS.md section 2), in words; undefined when nothing. */
function displayNameProblem(name: string): string | undefined {
  if (name === '' || DISPLAY_NAME.test(name)) return undefined;
  if (name.length < 3) return 'At least 3 characters.';
  if (name.length > 30) return `At most 30 characters (this is ${name.length}).`;
  return 'Only letters A to Z, digits, _ and - (no spaces or accents).';
}

/** What is wrong with an avatar URL by the server's rule, in words; undefined when nothing. */
function avatarProblem(url: string): string | undefined {
  if (url === '') return undefined;
  if (url.length > AVATAR_URL_MAX) return `At most ${AVATAR_URL_MAX} characters.`;
  if (!/^https?:\/\//.test(url) || !URL.canParse(url)) return 'A web address starting with http:// or https://.';
  return undefined;
}

/** The fields that differ from the account's; an empty text clears its field (null). */
function changes(account: Account, name: string, avatar: string, anonymous: boolean): AccountPatch {
  const patch: AccountPatch = {};
  if (name !== (account.displayName ?? '')) patch.displayName = name || null;
  if (avatar !== (account.avatarUrl ?? '')) patch.avatarUrl = avatar || null;
  if (anonymous !== account.anonymous) patch.anonymous = anonymous;
  return patch;
}

/**
 * The public side of the account: display name (set, changed or cleared: the profile's address
 * and the P&L chart go with it), avatar URL and anonymity. The server's rules are checked as the
 * trader types; a name someone else holds (409, names are unique ignoring case) is said under it.
 */
export function ProfileSettings({ account }: { account: Account }) {
  const { client } = useSession();
  const [name, setName] = useState(account.displayName ?? '');
  const [avatar, setAvatar] = useState(account.avatarUrl ?? '');
  const [anonymous, setAnonymous] = useState(account.anonymous);
  const [taken, setTaken] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const nameProblem = displayNameProblem(name) ?? (taken !== undefined && taken.toLowerCase() === name.toLowerCase() ? `${taken} is taken: display names are unique, whatever the letter case. Try another.` : undefined);
  const urlProblem = avatarProblem(avatar);
  const patch = changes(account, name, avatar, anonymous);
  const unchanged = Object.keys(patch).length === 0;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      setUser(await client.account.update(patch));
      notify('Account saved');
    } catch (error) {
      if (error instanceof ExchangeError && error.status === 409) setTaken(name);
      else notify(errorText(error), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel narrow settings" onSubmit={save} aria-label="Public profile" noValidate>
      <h2>Public profile</h2>
      <p className="muted">
        {account.displayName
          ? <>Your profile is at <Link to={`/profile/${encodeURIComponent(account.displayName)}`}>/profile/{account.displayName}</Link>{account.anonymous ? ', hidden while you are anonymous' : ''}.</>
          : 'Without a display name you have no public profile and no P&L chart.'}
      </p>
      <label>Display name
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={60} autoComplete="nickname" spellCheck={false} aria-invalid={nameProblem !== undefined} aria-describedby="display-name-rule" />
      </label>
      <p id="display-name-rule" className={nameProblem ? 'error' : 'muted'} aria-live="polite" data-testid="display-name-rule">
        {nameProblem ?? (name === '' && account.displayName ? 'Empty: saving clears your display name and hides your public profile.' : '3 to 30 letters, digits, _ or -; unique ignoring case.')}
      </p>
      <label>Avatar URL
        <input value={avatar} onChange={(e) => setAvatar(e.target.value)} inputMode="url" placeholder="https://…" aria-invalid={urlProblem !== undefined} aria-describedby={urlProblem ? 'avatar-rule' : undefined} />
      </label>
      {urlProblem && <p id="avatar-rule" className="error" role="alert">{urlProblem}</p>}
      <label className="check">
        <input type="checkbox" checked={anonymous} onChange={(e) => setAnonymous(e.target.checked)} />
        Anonymous: hide my public profile, and show me as "Anonymous" on the rewards leaderboard
      </label>
      <button type="submit" className="primary" disabled={busy || unchanged || nameProblem !== undefined || urlProblem !== undefined}>Save</button>
    </form>
  );
}

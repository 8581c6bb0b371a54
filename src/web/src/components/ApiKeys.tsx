import { Fragment, useState } from 'react';
import type { ApiKeyCredentials, ApiKeySummary } from '../../../client/index.ts';
import { useAction } from '../action.ts';
import { date } from '../format.ts';
import { useLoad } from '../load.ts';
import { createApiKey, useSession } from '../session.ts';

/**
 * The wallet's API keys, for the trader's own programs: each with when it was made and last used,
 * revoked after a confirmation; a new one's secret and passphrase shown once (the server never
 * shows them again). The key the app itself signs with is marked and cannot be revoked here:
 * revoking it would sign this browser out mid-use; signing out revokes it.
 */
export function ApiKeys() {
  const { client, appKey, revision } = useSession();
  const keys = useLoad(() => client.auth.listApiKeys(), [client, revision]);
  const [created, setCreated] = useState<ApiKeyCredentials | undefined>(undefined);
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  const [busy, run] = useAction();

  const create = () => run(async () => {
    setCreated(await createApiKey());
    return undefined;
  });
  const revoke = (apiKey: string) => run(async () => {
    await client.auth.revokeApiKey(apiKey);
    setConfirming(undefined);
    return `API key ${apiKey.slice(0, 8)}… revoked`;
  });

  return (
    <section className="panel" aria-label="API keys">
      <div className="panel-head">
        <h2>API keys</h2>
        <button type="button" className="primary" disabled={busy} onClick={() => void create()}>Create API key</button>
      </div>
      <p className="muted">Keys let your own programs trade for this wallet (HMAC-signed requests). Anyone with a key's secret and passphrase can trade your funds.</p>
      {created && <NewKey credentials={created} onDone={() => setCreated(undefined)} />}
      {keys.data && (
        <table className="stacking" data-testid="api-keys">
          <thead><tr><th>Key</th><th>Created</th><th>Last used</th><th><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {keys.data.map((key) => (
              <KeyRow key={key.apiKey} summary={key} own={key.apiKey === appKey} confirming={confirming === key.apiKey} busy={busy}
                onAsk={() => setConfirming(key.apiKey)} onCancel={() => setConfirming(undefined)} onRevoke={() => void revoke(key.apiKey)} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function KeyRow({ summary, own, confirming, busy, onAsk, onCancel, onRevoke }: {
  summary: ApiKeySummary; own: boolean; confirming: boolean; busy: boolean; onAsk: () => void; onCancel: () => void; onRevoke: () => void;
}) {
  return (
    <tr data-testid={own ? 'app-key' : undefined}>
      <td data-label="Key"><span className="hash">{summary.apiKey}</span>{own && <span className="badge">this browser</span>}</td>
      <td data-label="Created">{date(summary.createdAt)}</td>
      <td data-label="Last used">{summary.lastUsedAt ? date(summary.lastUsedAt) : 'never'}</td>
      <td className="actions-cell">
        {own ? (
          <small className="muted">The app signs your orders with this key; signing out revokes it.</small>
        ) : confirming ? (
          <span className="actions" role="group" aria-label="Confirm revoking">
            <span>Programs using it stop working at once.</span>
            <button type="button" className="primary sell" disabled={busy} onClick={onRevoke}>Revoke</button>
            <button type="button" onClick={onCancel}>Keep</button>
          </span>
        ) : (
          <button type="button" onClick={onAsk}>Revoke…</button>
        )}
      </td>
    </tr>
  );
}

/** A new key's credentials, shown this once, each with a copy button. */
function NewKey({ credentials, onDone }: { credentials: ApiKeyCredentials; onDone: () => void }) {
  const fields = [['API key', credentials.apiKey], ['Secret', credentials.secret], ['Passphrase', credentials.passphrase]] as const;
  return (
    <div className="new-key" role="alert" data-testid="new-api-key">
      <p><strong>Shown only now.</strong> Copy the secret and passphrase and store them safely: the exchange never shows them again. Lost, they cannot be recovered; revoke the key and create another.</p>
      <dl className="pairs">
        {fields.map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd><code className="hash">{value}</code> <CopyButton label={label} value={value} /></dd>
          </Fragment>
        ))}
      </dl>
      <button type="button" onClick={onDone}>I have stored them</button>
    </div>
  );
}

/** Copies `value`; where the clipboard is refused (a page not on https or localhost), says to copy it by hand. */
function CopyButton({ label, value }: { label: string; value: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'refused'>('idle');
  // Without a secure context there is no navigator.clipboard at all: that throws, refused alike.
  const copy = () => Promise.resolve().then(() => navigator.clipboard.writeText(value)).then(() => setState('copied'), () => setState('refused'));
  return (
    <button type="button" onClick={() => void copy()} aria-label={`Copy ${label}`}>
      {state === 'copied' ? 'Copied' : state === 'refused' ? 'Select and copy it by hand' : 'Copy'}
    </button>
  );
}

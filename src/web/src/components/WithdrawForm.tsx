import { useState, type FormEvent } from 'react';
import type { ReadableChain } from '../chain.ts';
import { errorText } from '../format.ts';
import { notify, refresh, useSession } from '../session.ts';
import { TxLink } from './TxLink.tsx';

/**
 * Collateral out of the proxy wallet (POST /account/withdraw, EXTENSIONS.md section 14): the
 * signed-in wallet signs the EIP-712 Withdraw itself (an injected wallet shows it to its owner),
 * since no API key can move funds out. `to` starts as the signing address, the owner's own.
 */
export function WithdrawForm({ chain }: { chain: ReadableChain }) {
  const { client, wallet } = useSession();
  const [to, setTo] = useState<string>(wallet?.address ?? '');
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | undefined>(undefined);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const { txHash } = await client.account.withdraw({ to: to as `0x${string}`, amount, nonce: freshNonce() });
      setSent(txHash);
      setAmount('');
      notify(`Withdrawal of ${amount} USDC sent`);
    } catch (error) {
      notify(errorText(error), 'error');
    } finally {
      setBusy(false);
      refresh();
    }
  };
  return (
    <section className="panel" aria-label="Withdraw" data-testid="withdraw">
      <h2>Withdraw</h2>
      <form className="inline" onSubmit={submit}>
        <label className="address">To <input value={to} onChange={(e) => setTo(e.target.value)} pattern="0x[0-9a-fA-F]{40}" required spellCheck={false} /></label>
        <label>Amount (USDC) <input value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="decimal" pattern="\d+(\.\d{1,6})?" required size={12} /></label>
        <button type="submit" className="primary" disabled={busy}>Withdraw</button>
      </form>
      <p className="muted">Your wallet signs the withdrawal; it is sent from your wallet on chain {chain.chainId}.</p>
      {sent && <p data-testid="withdraw-sent">Sent in transaction <TxLink hash={sent} chain={chain} /></p>}
    </section>
  );
}

/**
 * A nonce this wallet has not withdrawn with: 128 random bits. The wallet keeps spent nonces in a
 * set, not a counter, so any unused number serves, and a random one needs no read first.
 */
function freshNonce(): bigint {
  const words = crypto.getRandomValues(new Uint32Array(4));
  return words.reduce((nonce, word) => (nonce << 32n) | BigInt(word), 0n);
}

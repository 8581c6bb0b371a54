import type { ReactNode } from 'react';
import { useChain, type ReadableChain } from '../chain.ts';
import { transactionOnChain, type TransactionLog } from '../chain-reads.ts';
import { amount, errorText } from '../format.ts';
import { useLoad } from '../load.ts';
import { useTitle } from '../router.tsx';
import { useSession } from '../session.ts';

/** Event arguments that are amounts of collateral or outcome tokens (both have 6 decimals): shown in display units. */
const AMOUNT_ARGUMENTS = new Set(['value', 'amount', 'payout', 'fee', 'makerAmountFilled', 'takerAmountFilled']);

/**
 * One transaction read from the chain through the exchange's RPC URL: status, block, time, gas
 * and its logs, the exchange's events decoded. The embedded chain has no block explorer, so this
 * page is the app's: every transaction hash the app shows links here (components/TxLink.tsx).
 */
export default function TransactionPage({ hash }: { hash: `0x${string}` }) {
  useTitle('Transaction');
  const { client } = useSession();
  const chain = useChain(client);
  return (
    <section className="panel" aria-label="Transaction" data-testid="transaction">
      <h1>Transaction</h1>
      <p className="hash-full num">{hash}</p>
      {chain ? <TransactionDetails chain={chain} hash={hash} /> : <p className="muted">This exchange runs no chain the app can read.</p>}
    </section>
  );
}

function TransactionDetails({ chain, hash }: { chain: ReadableChain; hash: `0x${string}` }) {
  const { user, wallet } = useSession();
  const read = useLoad(() => transactionOnChain(chain, hash), [chain.rpcUrl, hash]);
  const names = new Map(chain.contracts);
  if (user) names.set(user.proxyWallet.toLowerCase(), 'your wallet');
  if (wallet) names.set(wallet.address.toLowerCase(), 'you');
  const named = (address: string | null) => (address ? <Address address={address} names={names} /> : '—');
  if (read.error) return <p className="error" role="alert">{errorText(read.error)}</p>;
  if (!read.data) return <p className="muted" role="status">Loading…</p>;
  const tx = read.data;
  if (!tx.found) return <p data-testid="transaction-status">Not a transaction on chain {chain.chainId}. The exchange's ledger records that settled off chain carry hashes of their own, which no chain knows.</p>;
  const receipt = tx.receipt;
  return (
    <>
      <dl className="stats num">
        <div><dt>Status</dt><dd data-testid="transaction-status" className={receipt?.status === 'reverted' ? 'down' : receipt ? 'up' : undefined}>{receipt ? (receipt.status === 'success' ? 'Success' : 'Reverted') : 'Pending'}</dd></div>
        <div><dt>Block</dt><dd>{receipt ? receipt.blockNumber.toString() : '—'}</dd></div>
        <div><dt>Time</dt><dd>{receipt ? new Date(Number(receipt.timestamp) * 1000).toLocaleString() : '—'}</dd></div>
        <div><dt>Gas used</dt><dd>{receipt ? receipt.gasUsed.toLocaleString() : '—'}</dd></div>
      </dl>
      <dl className="pairs">
        <dt>From</dt><dd>{named(tx.from)}</dd>
        <dt>To</dt><dd>{named(tx.to)}</dd>
        <dt>Chain</dt><dd>{chain.chainId}</dd>
      </dl>
      {receipt && <Logs logs={receipt.logs} named={named} />}
    </>
  );
}

function Logs({ logs, named }: { logs: TransactionLog[]; named: (address: string) => ReactNode }) {
  return (
    <>
      <h2>Logs</h2>
      {logs.length === 0 ? <p className="muted">No logs.</p> : (
        <table className="stacking" data-testid="transaction-logs">
          <thead><tr><th scope="col">#</th><th scope="col">Contract</th><th scope="col">Event</th><th scope="col">Arguments</th></tr></thead>
          <tbody>
            {logs.map((log) => (
              <tr key={log.index}>
                <td data-label="#" className="num">{log.index}</td>
                <td data-label="Contract">{named(log.address)}</td>
                <td data-label="Event">{log.event?.name ?? <span className="hash muted" title={log.topics[0]}>{log.topics[0]?.slice(0, 10) ?? 'anonymous'}</span>}</td>
                <td data-label="Arguments">
                  {log.event ? (
                    <dl className="pairs">
                      {log.event.args.map(([name, value]) => [<dt key={`${name}-name`}>{name}</dt>, <dd key={name}>{argument(name, value, named)}</dd>])}
                    </dl>
                  ) : <span className="hash muted">{log.data}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function argument(name: string, value: string, named: (address: string) => ReactNode) {
  if (/^0x[0-9a-fA-F]{40}$/.test(value)) return named(value);
  if (AMOUNT_ARGUMENTS.has(name) && /^\d+$/.test(value)) return <span className="num">{amount(BigInt(value))}</span>;
  return <span className="hash">{value}</span>;
}

/** An address with the name the app knows it by (the exchange's contracts, the trader's wallet), the whole address in its title. */
function Address({ address, names }: { address: string; names: ReadonlyMap<string, string> }) {
  const name = names.get(address.toLowerCase());
  const short = <span className={`hash${name ? ' muted' : ''}`}>{address.slice(0, 8)}…{address.slice(-6)}</span>;
  return <span title={address}>{name ? <>{name} {short}</> : short}</span>;
}

import { isTransactionHash, transactionPath, type ReadableChain } from '../chain.ts';
import { Link } from '../router.tsx';

/**
 * A transaction hash, shortened: a link to the app's transaction page when the chain can be read
 * and the hash is a transaction's; otherwise plain text with the whole hash in its title (the
 * simulated settlement's hashes, `CHAIN=none`, are nowhere to look up).
 */
export function TxLink({ hash, chain }: { hash: string; chain: ReadableChain | undefined }) {
  if (!hash) return <span className="muted">—</span>;
  const short = `${hash.slice(0, 10)}…${hash.slice(-6)}`;
  if (!chain || !isTransactionHash(hash)) return <span className="hash muted" title={hash}>{short}</span>;
  return <Link to={transactionPath(hash)} className="hash" title={`Transaction ${hash}`}>{short}</Link>;
}

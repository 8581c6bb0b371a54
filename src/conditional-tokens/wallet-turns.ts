/**
 * One chain-first operation per wallet at a time (split, merge, redeem, and withdrawals). Each
 * reads the wallet's balances, then sends: two merges of the same positions at once would both
 * read the whole balance, and the second would revert on chain (a 503) where it should find
 * nothing left to merge; two withdrawals would both pass the balance check, and the second be
 * refused by the wallet's revert where it should be INSUFFICIENT_BALANCE. Operations of
 * different wallets still run side by side. Per process: on several nodes, the same race across
 * them reverts on chain, changes nothing, and answers 503 to send again.
 */
export class WalletTurns {
  private readonly last = new Map<string, Promise<unknown>>();

  /** Runs `work` once the wallet's earlier operations here have ended, however they ended. */
  async run<T>(wallet: string, work: () => Promise<T>): Promise<T> {
    const key = wallet.toLowerCase();
    const before = this.last.get(key) ?? Promise.resolve();
    const turn = before.then(work, work);
    const settled = turn.catch(() => undefined);
    this.last.set(key, settled);
    try {
      return await turn;
    } finally {
      // The last operation queued clears the wallet's entry, so the map holds only busy wallets.
      if (this.last.get(key) === settled) this.last.delete(key);
    }
  }
}

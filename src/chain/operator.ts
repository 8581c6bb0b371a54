import { BaseError, ContractFunctionRevertedError, createPublicClient, createWalletClient, encodeFunctionData, http, keccak256, parseTransaction, TransactionReceiptNotFoundError, type Abi, type Address, type Hex, type PublicClient, type WalletClient, type Account, type Chain, type Transport } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type LogQuery, recentLogTransaction } from '../settlement/chain/recent-log.ts';
import { cappedFees, FEE_BUMP_PERCENT, REPLACE_AFTER_MS, type Fees } from '../core/transaction-fees.ts';
import { exchangeChain } from './chain-definition.ts';
import { fateOf, untilMined, type SignedTransaction, type VersionsChain, type VersionsFate } from './until-mined.ts';

export { FateUnknownError, type SignedTransaction } from './until-mined.ts';

/** How many pieces of work (a transaction, or a few in a row) may wait for the operator's pipeline before a new one is refused. */
const MAX_QUEUED_TRANSACTIONS = 1_000;
/** How long a sent payment may wait to be mined before the send counts as failed (and is retried: its record lets it be sent again safely). */
const RECEIPT_TIMEOUT_MS = 60_000;
/** How long a transaction of ours may wait on a chain that mines on demand before a block is mined for it (`flushPending`). */
const FLUSH_AFTER_MS = 1_000;
/** How long the chain may fail to answer a sent transaction's wait before the wait gives up (until-mined.ts FateUnknownError). */
const READ_OUTAGE_MS = 30_000;

export interface OperatorOptions {
  readonly flushPending?: (() => Promise<void>) | undefined;
  readonly maxFeePerGas?: bigint | undefined;
  readonly replaceAfterMs?: number | undefined;
  readonly readOutageMs?: number | undefined;
}

export interface ContractCall {
  readonly address: Address;
  readonly abi: Abi;
  readonly functionName: string;
  readonly args: readonly unknown[];
}

/** A call the chain would revert, and why (the contract's error name when it has one). */
export type Simulation = { ok: true } | { ok: false; reason: string };

/** What work run by `ChainOperator.exclusive` does on chain. */
export interface OperatorSteps {
  /** Signs `call` and sends it until it is mined (replaced at higher fees while it waits: until-mined.ts); the mined hash; throws when it reverted. */
  send(call: ContractCall): Promise<Hex>;
  read<T>(call: ContractCall): Promise<T>;
  simulate(call: ContractCall): Promise<Simulation>;
  /** `call` signed with the operator's next nonce, not sent. */
  sign(call: ContractCall): Promise<SignedTransaction>;
  /**
   * Sends the last of a transaction's versions (again: a node that knows it already is not an
   * error) until one is mined, each replacement handed to `record` before it is sent; the mined
   * version's hash, or `superseded` when another transaction took the nonce. Throws when it
   * reverted, or when none was mined within RECEIPT_TIMEOUT_MS (the versions left to a later try).
   */
  broadcast(versions: readonly SignedTransaction[], record: (tx: SignedTransaction) => Promise<void>): Promise<Hex | 'superseded'>;
  fateOf(versions: readonly SignedTransaction[]): Promise<VersionsFate>;
}

interface Clients {
  readonly url: string;
  readonly wallet: WalletClient<Transport, Chain, Account>;
  readonly reader: PublicClient;
}

/**
 * The operator's key on the chain: its transactions go through one pipeline, each sent only once
 * the previous one is mined, so the nonces viem reads from the chain are never raced by another
 * of ours. `url()` is read at each call: a restarted embedded anvil may answer on another port.
 */
export class ChainOperator {
  readonly address: Address;
  private readonly account: Account;
  private readonly chain: Chain;
  private clients: Clients | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;

  /**
   * `flushPending` mines a block, on a chain that mines only when told (the embedded anvil). Anvil's
   * automine can miss a transaction that became ready while it looked at its pool
   * (foundry-rs/foundry#10122): the transaction then waits for the next one, and ours, one at a time,
   * would wait for ever behind it. A faucet credit hung so for 233 s in CI (2026-12-04, under the
   * load of three suites; anvil did not restart, and the hang was not reproduced alone), most likely
   * this. So a transaction not mined within FLUSH_AFTER_MS has a block mined for it, every
   * FLUSH_AFTER_MS. `maxFeePerGas` (MAX_FEE_PER_GAS_GWEI) caps what any version of ours offers;
   * `replaceAfterMs` and `readOutageMs` are for tests.
   */
  constructor(private readonly url: () => string, chainId: number, key: Hex, private readonly options: OperatorOptions = {}) {
    this.account = privateKeyToAccount(key);
    this.address = this.account.address;
    this.chain = exchangeChain(chainId);
  }

  read<T>(call: ContractCall): Promise<T> {
    return this.connect().reader.readContract(call) as Promise<T>;
  }

  /** The transaction of the newest log matching `query` in recent blocks (recent-log.ts). */
  recentLogTransaction(query: LogQuery): Promise<Hex | null> {
    return recentLogTransaction(this.connect().reader, query);
  }

  /**
   * Runs `work` alone on the operator's key, after everything queued before it: no other
   * transaction of ours is sent until it ends, so what it reads before it sends (a condition not
   * prepared yet, a wallet not deployed yet) is still true when it sends.
   */
  exclusive<T>(work: (chain: OperatorSteps) => Promise<T>): Promise<T> {
    if (this.queued >= MAX_QUEUED_TRANSACTIONS) return Promise.reject(new Error(`the operator's transaction queue is full (${MAX_QUEUED_TRANSACTIONS})`));
    this.queued++;
    const steps: OperatorSteps = {
      send: (call) => this.sendAndWait(call),
      read: (call) => this.read(call),
      simulate: (call) => this.simulate(call),
      sign: (call) => this.sign(call),
      broadcast: (versions, record) => this.broadcast(versions, record),
      fateOf: (versions) => this.fateOf(versions),
    };
    const done = this.tail.then(() => work(steps)).finally(() => this.queued--);
    // What comes next waits for this work whatever its outcome.
    this.tail = done.catch(() => {});
    return done;
  }

  /**
   * Runs `call` as the operator would send it now, sending nothing: a revert is an answer, with
   * its reason; a chain that does not answer throws, as a send would.
   */
  async simulate(call: ContractCall): Promise<Simulation> {
    try {
      await this.connect().reader.simulateContract({ ...call, account: this.account, chain: this.chain });
      return { ok: true };
    } catch (error) {
      const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
      if (reverted instanceof ContractFunctionRevertedError) return { ok: false, reason: reverted.data?.errorName ?? reverted.reason ?? reverted.shortMessage };
      throw error;
    }
  }

  /** Signs and sends `call` until mined; signed again at the next nonce when another transaction took its nonce first (none of its versions ran). */
  private async sendAndWait(call: ContractCall): Promise<Hex> {
    for (;;) {
      const outcome = await this.until([await this.sign(call)], async () => {}, undefined, call.functionName);
      if (outcome !== 'superseded') return outcome;
    }
  }

  /**
   * Signed at the chain's mined nonce, not its pending one: a transaction of ours left in a pool
   * (by a payment that stopped waiting, or by a process before a restart or takeover) is then
   * replaced by this one, instead of holding it and every later one behind it for as long as the
   * fees stay up. A payment so replaced is seen superseded and signed again (once-payments.ts).
   */
  private async sign(call: ContractCall): Promise<SignedTransaction> {
    const { wallet, reader } = this.connect();
    const nonce = await reader.getTransactionCount({ address: this.address, blockTag: 'latest' });
    const data = encodeFunctionData(call);
    const request = await wallet.prepareTransactionRequest({ to: call.address, data, nonce, type: 'eip1559', account: this.account, chain: this.chain });
    return this.signAt({ to: call.address, data, gas: request.gas, nonce }, cappedFees(request, this.options.maxFeePerGas));
  }

  private async signAt(tx: { to: Address; data: Hex; gas: bigint; nonce: number }, fees: Fees): Promise<SignedTransaction> {
    const raw = await this.connect().wallet.signTransaction({ ...tx, ...fees, type: 'eip1559', account: this.account, chain: this.chain });
    return { hash: keccak256(raw), nonce: tx.nonce, raw };
  }

  private async broadcast(versions: readonly SignedTransaction[], record: (tx: SignedTransaction) => Promise<void>): Promise<Hex | 'superseded'> {
    return this.until(versions, record, RECEIPT_TIMEOUT_MS, 'a payment');
  }

  /** `what` names the transaction in the error when it reverted. */
  private async until(versions: readonly SignedTransaction[], record: (tx: SignedTransaction) => Promise<void>, timeoutMs: number | undefined, what: string): Promise<Hex | 'superseded'> {
    const outcome = await untilMined(this.versionsChain(), versions, record, {
      replaceAfterMs: this.options.replaceAfterMs ?? REPLACE_AFTER_MS,
      feeBumpPercent: FEE_BUMP_PERCENT,
      maxFeePerGas: this.options.maxFeePerGas,
      flushAfterMs: FLUSH_AFTER_MS,
      timeoutMs,
      readOutageMs: this.options.readOutageMs ?? READ_OUTAGE_MS,
    });
    if (outcome === 'superseded') return outcome;
    if (outcome.status !== 'success') throw new Error(`${what} reverted (transaction ${outcome.transactionHash})`);
    return outcome.transactionHash;
  }

  private fateOf(versions: readonly SignedTransaction[]): Promise<VersionsFate> {
    return fateOf(this.versionsChain(), versions);
  }

  /** Each call reaches the chain where it answers then (a restarted embedded anvil may answer on another port). */
  private versionsChain(): VersionsChain {
    const reader = () => this.connect().reader;
    return {
      sendRaw: async (tx) => {
        await reader().request({ method: 'eth_sendRawTransaction', params: [tx.raw] });
      },
      minedNonce: () => reader().getTransactionCount({ address: this.address, blockTag: 'latest' }),
      receipt: (hash) => reader().getTransactionReceipt({ hash }).catch((error: unknown) => {
        if (error instanceof TransactionReceiptNotFoundError) return undefined;
        throw error;
      }),
      marketFees: () => reader().estimateFeesPerGas({ chain: this.chain }),
      resign: (tx, fees) => {
        const { to, data, gas } = parseTransaction(tx.raw);
        return this.signAt({ to: to!, data: data!, gas: gas!, nonce: tx.nonce }, fees);
      },
      flush: this.options.flushPending,
    };
  }

  private connect(): Clients {
    const url = this.url();
    if (this.clients?.url !== url) {
      this.clients = {
        url,
        wallet: createWalletClient({ account: this.account, chain: this.chain, transport: http(url) }),
        reader: createPublicClient({ chain: this.chain, transport: http(url), pollingInterval: 20 }),
      };
    }
    return this.clients;
  }
}

import { BaseError, ContractFunctionRevertedError, createPublicClient, createWalletClient, encodeFunctionData, http, keccak256, TransactionReceiptNotFoundError, type Abi, type TransactionReceipt, type Address, type Hex, type PublicClient, type WalletClient, type Account, type Chain, type Transport } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { exchangeChain } from './chain-definition.ts';

/** How many pieces of work (a transaction, or a few in a row) may wait for the operator's pipeline before a new one is refused. */
const MAX_QUEUED_TRANSACTIONS = 1_000;
/** How long a sent payment may wait to be mined before the send counts as failed (and is retried: its record lets it be sent again safely). */
const RECEIPT_TIMEOUT_MS = 60_000;
/** How long a transaction of ours may wait on a chain that mines on demand before a block is mined for it (`flushPending`). */
const FLUSH_AFTER_MS = 1_000;

export interface ContractCall {
  readonly address: Address;
  readonly abi: Abi;
  readonly functionName: string;
  readonly args: readonly unknown[];
}

/** A call the chain would revert, and why (the contract's error name when it has one). */
export type Simulation = { ok: true } | { ok: false; reason: string };

/** A transaction of the operator's, signed and not necessarily sent: what once-payments.ts records before sending it. */
export interface SignedTransaction {
  readonly hash: Hex;
  readonly nonce: number;
  readonly raw: Hex;
}

/**
 * What became of a signed transaction: mined (successfully or reverted), or not mined and unable
 * ever to be (`superseded`: another transaction of the operator's took its nonce), or not mined
 * yet and still able to be (`unsent`: never sent, lost by the node, or waiting in a pool).
 */
export type TransactionFate = 'mined' | 'reverted' | 'superseded' | 'unsent';

/** What work run by `ChainOperator.exclusive` does on chain: each send resolves once mined. */
export interface OperatorSteps {
  send(call: ContractCall): Promise<Hex>;
  read<T>(call: ContractCall): Promise<T>;
  simulate(call: ContractCall): Promise<Simulation>;
  /** `call` signed with the operator's next nonce, not sent. */
  sign(call: ContractCall): Promise<SignedTransaction>;
  /** Sends a signed transaction (again: a node that knows it already is not an error); resolves once mined, throws when it reverted. */
  broadcast(tx: SignedTransaction): Promise<void>;
  fateOf(tx: SignedTransaction): Promise<TransactionFate>;
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
   * FLUSH_AFTER_MS.
   */
  constructor(private readonly url: () => string, chainId: number, key: Hex, private readonly flushPending?: () => Promise<void>) {
    this.account = privateKeyToAccount(key);
    this.address = this.account.address;
    this.chain = exchangeChain(chainId);
  }

  read<T>(call: ContractCall): Promise<T> {
    return this.connect().reader.readContract(call) as Promise<T>;
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
      broadcast: (tx) => this.broadcast(tx),
      fateOf: (tx) => this.fateOf(tx),
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

  private async sendAndWait(call: ContractCall): Promise<Hex> {
    const { wallet, reader } = this.connect();
    const hash = await wallet.writeContract({ ...call, account: this.account, chain: this.chain });
    const receipt = await this.receiptOf(reader, hash);
    if (receipt.status !== 'success') throw new Error(`${call.functionName} reverted (transaction ${hash})`);
    return hash;
  }

  private async sign(call: ContractCall): Promise<SignedTransaction> {
    const { wallet, reader } = this.connect();
    const nonce = await reader.getTransactionCount({ address: this.address, blockTag: 'pending' });
    const request = await wallet.prepareTransactionRequest({ to: call.address, data: encodeFunctionData(call), nonce, account: this.account, chain: this.chain });
    const raw = await wallet.signTransaction(request);
    return { hash: keccak256(raw), nonce, raw };
  }

  private async broadcast(tx: SignedTransaction): Promise<void> {
    const { reader } = this.connect();
    try {
      await reader.request({ method: 'eth_sendRawTransaction', params: [tx.raw] });
    } catch (error) {
      // Sent before (the node has it in its pool): waiting for it is all there is to do. Anvil says
      // "already imported", geth and most others "already known".
      if (!/already imported|already known|known transaction/i.test(error instanceof Error ? error.message : String(error))) throw error;
    }
    const receipt = await this.receiptOf(reader, tx.hash, RECEIPT_TIMEOUT_MS);
    if (receipt.status !== 'success') throw new Error(`transaction ${tx.hash} reverted`);
  }

  /** The receipt once the transaction is mined, a block mined for it meanwhile where the chain needs one (`flushPending`). */
  private async receiptOf(reader: PublicClient, hash: Hex, timeout?: number): Promise<TransactionReceipt> {
    const flush = this.flushPending;
    const flushing = flush ? setInterval(() => void flush().catch(() => {}), FLUSH_AFTER_MS) : undefined;
    try {
      return await reader.waitForTransactionReceipt({ hash, ...(timeout === undefined ? {} : { timeout }) });
    } finally {
      clearInterval(flushing);
    }
  }

  /** The operator's mined nonce first, the receipt second: a transaction mined between the two reads is seen as mined, never as superseded. */
  private async fateOf(tx: SignedTransaction): Promise<TransactionFate> {
    const { reader } = this.connect();
    const mined = await reader.getTransactionCount({ address: this.address, blockTag: 'latest' });
    const receipt = await reader.getTransactionReceipt({ hash: tx.hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    });
    if (receipt) return receipt.status === 'success' ? 'mined' : 'reverted';
    return mined > tx.nonce ? 'superseded' : 'unsent';
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

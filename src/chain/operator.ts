import { BaseError, ContractFunctionRevertedError, createPublicClient, createWalletClient, encodeFunctionData, http, keccak256, TransactionReceiptNotFoundError, type Abi, type Address, type Hex, type PublicClient, type WalletClient, type Account, type Chain, type Transport } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { exchangeChain } from './chain-definition.ts';

/** How many pieces of work (a transaction, or a few in a row) may wait for the operator's pipeline before a new one is refused. */
const MAX_QUEUED_TRANSACTIONS = 1_000;
/** How long a sent payment may wait to be mined before the send counts as failed (and is retried: its record lets it be sent again safely). */
const RECEIPT_TIMEOUT_MS = 60_000;

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

  constructor(private readonly url: () => string, chainId: number, key: Hex) {
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
    const receipt = await reader.waitForTransactionReceipt({ hash });
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
    const receipt = await reader.waitForTransactionReceipt({ hash: tx.hash, timeout: RECEIPT_TIMEOUT_MS });
    if (receipt.status !== 'success') throw new Error(`transaction ${tx.hash} reverted`);
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

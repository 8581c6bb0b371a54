import { recoverTransactionAddress, type TransactionSerialized } from 'viem';
import type { AppContext } from '../context.ts';
import type { TypedApp } from '../typed-app.ts';
import { AppError, notFound } from '../../contract/errors.ts';
import { errorResponses } from '../../contract/common.ts';
import { JsonRpcAnswerSchema, JsonRpcBodySchema, RPC_BATCH_MAX, type JsonRpcCall } from '../../contract/chain-rpc.ts';
import { WELL_KNOWN_DEV_ACCOUNTS } from '../../chain/dev-accounts.ts';
import { ALLOWED_RPC_METHODS } from './allowed-methods.ts';

export const RPC_PATH = '/rpc';

/** Room for a raw transaction deploying a contract at the size limit (24 KiB of code, hex-encoded), in a batch. */
const BODY_LIMIT_BYTES = 128 * 1024;
const CHAIN_TIMEOUT_MS = 10_000;

/** JSON-RPC 2.0's error codes used here. */
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/**
 * POST /rpc (EXTENSIONS.md section 14): a browser wallet's JSON-RPC endpoint for the embedded
 * chain. Only ALLOWED_RPC_METHODS reach anvil; another method gets a JSON-RPC error in its place.
 * Each call of a batch counts against the caller's rate limit. 404 without an embedded chain.
 */
export function registerChainRpcRoutes(app: TypedApp, ctx: AppContext): void {
  // At the root, where `chain.rpcUrl` points, and under /api/v1 too, where EXTENSIONS.md puts every path it names without saying otherwise.
  for (const path of [RPC_PATH, `/api/v1${RPC_PATH}`]) registerRpc(app, ctx, path);
}

function registerRpc(app: TypedApp, ctx: AppContext, path: string): void {
  app.post(path, {
    bodyLimit: BODY_LIMIT_BYTES,
    // Checked before the body is validated: a longer batch is refused, and counts as the longest allowed.
    config: { requestWeight: (body: unknown) => (Array.isArray(body) ? Math.min(Math.max(body.length, 1), RPC_BATCH_MAX) : 1) },
    schema: {
      tags: ['chain'],
      summary: 'JSON-RPC of the embedded chain, for wallets: reads, gas estimates and signed transactions only',
      description: `Answers JSON-RPC 2.0 calls, one or a batch, for a wallet that connects to the local chain (\`GET /api/v1/exchange\` \`chain.rpcUrl\`). Allowed: ${[...ALLOWED_RPC_METHODS].join(', ')}. Any other method is answered with error ${METHOD_NOT_FOUND}; transactions signed by anvil's well-known development keys are refused. 404 when the exchange runs no embedded chain.`,
      body: JsonRpcBodySchema,
      response: { 200: JsonRpcAnswerSchema, ...errorResponses(400, 404, 413, 429, 503) },
    },
  }, async (request) => {
    const chain = ctx.chain.embedded;
    if (chain === undefined) throw notFound('/rpc (the exchange runs no embedded chain)');
    if (!chain.ready) throw new AppError('SERVICE_UNAVAILABLE', 'the embedded chain is restarting');
    const body = request.body;
    const calls = Array.isArray(body) ? body : [body];
    const answers = await Promise.all(calls.map((call) => answer(call, chain.url)));
    return Array.isArray(body) ? answers : answers[0];
  });
}

/** The chain's answer to an allowed call, or the refusal in its place. */
async function answer(call: JsonRpcCall, chainUrl: string): Promise<unknown> {
  const id = call.id ?? null;
  if (!ALLOWED_RPC_METHODS.has(call.method)) return refusal(id, METHOD_NOT_FOUND, `${call.method} is not available through /rpc`);
  if (call.method === 'eth_sendRawTransaction') {
    const signer = await signerOf(call.params);
    if (signer === undefined) return refusal(id, INVALID_PARAMS, 'eth_sendRawTransaction takes one signed transaction, hex-encoded');
    if (WELL_KNOWN_DEV_ACCOUNTS.has(signer.toLowerCase())) return refusal(id, INVALID_PARAMS, `${signer} is one of anvil's development accounts, whose keys are public: its transactions are refused here`);
  }
  try {
    const response = await fetch(chainUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: call.method, params: call.params ?? [] }),
      signal: AbortSignal.timeout(CHAIN_TIMEOUT_MS),
    });
    return await response.json();
  } catch {
    return refusal(id, INTERNAL_ERROR, 'the embedded chain did not answer');
  }
}

/** Who signed the raw transaction of eth_sendRawTransaction's params; undefined when it is not one. */
async function signerOf(params: JsonRpcCall['params']): Promise<string | undefined> {
  const raw = Array.isArray(params) && params.length === 1 ? params[0] : undefined;
  if (typeof raw !== 'string' || !/^0x[0-9a-fA-F]+$/.test(raw)) return undefined;
  try {
    return await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized });
  } catch {
    return undefined;
  }
}

function refusal(id: string | number | null, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

import { Type, type Static } from 'typebox';

/** How many calls one /rpc batch may hold. */
export const RPC_BATCH_MAX = 20;

/** One JSON-RPC 2.0 call, as a wallet sends it to /rpc (EXTENSIONS.md section 14). */
export const JsonRpcCallSchema = Type.Object({
  jsonrpc: Type.Literal('2.0'),
  method: Type.String({ minLength: 1, maxLength: 64 }),
  params: Type.Optional(Type.Union([Type.Array(Type.Unknown()), Type.Record(Type.String(), Type.Unknown())])),
  id: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Number(), Type.Null()])),
});

/** A call, or a batch of at most RPC_BATCH_MAX calls. */
export const JsonRpcBodySchema = Type.Union([JsonRpcCallSchema, Type.Array(JsonRpcCallSchema, { minItems: 1, maxItems: RPC_BATCH_MAX })]);

/** The chain's answers as JSON-RPC 2.0 gives them: one object per call (an array for a batch), `result` or `error`. */
export const JsonRpcAnswerSchema = Type.Unknown({ description: 'the JSON-RPC 2.0 response (an array for a batch)' });

export type JsonRpcCall = Static<typeof JsonRpcCallSchema>;

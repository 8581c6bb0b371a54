import { Type } from 'typebox';
import { Address } from './common.ts';

/** GET /exchange: what a client needs to sign orders and HMACs (EXTENSIONS.md section 1). */
export const ExchangeSchema = Type.Object({
  chainId: Type.Integer(),
  eip712: Type.Object({ name: Type.String(), version: Type.String(), verifyingContract: Address }),
  negRiskVerifyingContract: Address,
  collateral: Type.Object({ symbol: Type.String(), decimals: Type.Integer(), address: Address }),
  conditionalTokens: Address,
  headerPrefix: Type.String(),
  settlement: Type.String(),
  chain: Type.Object({
    kind: Type.Union([Type.Literal('none'), Type.Literal('embedded'), Type.Literal('rpc')], {
      description: '`none`: the simulated settlement layer; `embedded`: a local chain the server runs; `rpc`: an EVM the server reaches (EXTENSIONS.md section 14)',
    }),
    chainId: Type.Integer(),
    rpcUrl: Type.Optional(Type.String({ description: 'JSON-RPC endpoint a wallet can use for this chain: the server\'s `/rpc` proxy when the chain is embedded' })),
  }, { description: 'the chain trades settle on; the contract addresses above are deployed on it when `kind` is not `none`' }),
  serverTime: Type.Integer({ description: 'server clock, Unix milliseconds' }),
});

/** GET /journal/head (EXTENSIONS.md section 14): the last durable record of the engine's journal. */
export const JournalHeadSchema = Type.Object({
  seq: Type.Integer({ minimum: 0, description: 'the record\'s position (0: the journal is empty)' }),
  hash: Type.String({ pattern: '^0x[0-9a-f]{64}$', description: 'keccak-256 over the previous record\'s hash and this record\'s text' }),
  at: Type.String({ format: 'date-time', description: 'when the record was made' }),
});

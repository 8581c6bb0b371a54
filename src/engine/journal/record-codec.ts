import type { OracleCommand } from '../../core/oracle/state-machine.ts';
import type { NormalizedOrder } from '../../core/orders/create-order-rules.ts';
import { keccak256HexOf } from '../../core/keccak.ts';
import type { RedeemRounding } from '../../settlement/embedded/postings.ts';
import type { ChainIndexEvent } from '../state/chain-transfer-commands.ts';
import type { EngineCommand } from '../state/commands.ts';
import type { NewOrder } from '../state/types.ts';
import type { IdDerivation } from '../state/ids.ts';
import { decodeMmpSetting, encodeMmpSetting } from '../state/mmp-codec.ts';
import type { CatalogueTerms } from '../state/oracle-commands.ts';

/**
 * The journal's records as text (EXTENSIONS.md section 14): one JSON document per record, holding
 * its sequence, its time, its version and its commands. The text is what is stored and what is hashed, so a
 * record's hash can be checked by anyone holding the journal: each record's hash is keccak-256
 * over the previous record's hash (its 32 bytes) followed by the record's UTF-8 text.
 *
 * Commands are arrays led by their kind. Amounts are decimal strings (JSON numbers lose bigints);
 * a place is a flat array, since orders are most of the journal and arrays keep it compact.
 */
export interface DecodedRecord {
  seq: bigint;
  atMs: number;
  commands: EngineCommand[];
  ids?: IdDerivation;
  wholeMatches?: true;
}

/**
 * The records' version, `v`, says how their commands apply: 2 since ids are ordered (`state/ids.ts`;
 * records without a version derive hashed ids), 3 since a redeem rounds each token's payout down on
 * its own (`settlement/embedded/postings.ts` RedeemRounding; the records before round the sum, as
 * they were paid), 4 since an order pays as maker at most the fee rate it signed (`NewOrder.makerFee`;
 * the records before pay the market's maker rate even above it, as they were charged), 5 since a
 * match of more than 100 makers settles in parts (`state/match-parts.ts`; the records before keep
 * every match whole, as they were sent) and a cancel-on-disconnect socket names its node, which a
 * takeover keeps live while its node names it again (`state/safety-commands.ts`; the records
 * before have neither, and adopt as they did). A version this build does not know is refused: a
 * replay that read it as another would derive other ids, or pay other amounts, than the engine
 * that wrote it.
 */
const RECORD_VERSION = 5;
const READ_VERSIONS: readonly (number | undefined)[] = [undefined, 2, 3, 4, RECORD_VERSION];

/** How the commands of a record of version `v` apply, where versions differ (see RECORD_VERSION). */
interface VersionRules {
  rounding: RedeemRounding;
  makerFee: NewOrder['makerFee'];
}

export function encodeRecord(record: DecodedRecord): string {
  const version = record.ids === 'hashed' ? {} : { v: RECORD_VERSION };
  return JSON.stringify({ seq: record.seq.toString(), at: record.atMs, ...version, c: record.commands.map(encodeCommand) });
}

export function decodeRecord(text: string): DecodedRecord {
  const raw = JSON.parse(text) as { seq: string; at: number; v?: number; c: unknown[][] };
  if (!READ_VERSIONS.includes(raw.v)) throw new Error(`journal record ${raw.seq} has version ${raw.v}, which this build does not read`);
  const v = raw.v ?? 0;
  const rules: VersionRules = { rounding: v >= 3 ? 'per-token' : 'sum', makerFee: v >= 4 ? undefined : 'uncapped' };
  return {
    seq: BigInt(raw.seq),
    atMs: raw.at,
    commands: raw.c.map((command) => decodeCommand(command, rules)),
    ...(raw.v === undefined ? { ids: 'hashed' as const } : {}),
    ...(v < 5 ? { wholeMatches: true as const } : {}),
  };
}

/** The chain: keccak-256 of the previous hash's bytes and the record's text. */
export function chainHash(previousHash: string, text: string): string {
  return keccak256HexOf(Buffer.from(previousHash.slice(2), 'hex'), text);
}

type Encoded = [string, ...unknown[]];

function encodeCommand(command: EngineCommand): Encoded {
  switch (command.kind) {
    case 'place': {
      const { order: request } = command;
      const o = request.order;
      return ['place', request.userId, request.account, request.marketId, request.hash, request.idempotencyKey, o.tokenId, o.outcome, o.side, o.priceMicros,
        o.sizeBaseUnits.toString(), o.makerAmount.toString(), o.takerAmount.toString(), o.orderType, o.postOnly, o.expirationSec, o.maker, o.signer, o.taker,
        o.nonce.toString(), o.feeRateBps, o.signatureType, o.salt.toString(), o.signature, request.apiKey];
    }
    case 'cancel':
      return ['cancel', command.userId, command.orderId];
    case 'cancel-markets':
      return ['cancel-markets', command.userId, command.marketIds];
    case 'tick':
    case 'settle':
      return [command.kind];
    case 'market':
      return ['market', command.info];
    case 'credit':
      // The key is a last field only when given, so records without one read as before.
      return ['credit', command.account, command.amount.toString(), command.reason, command.ref, ...(command.idempotencyKey === undefined ? [] : [command.idempotencyKey])];
    case 'transfer':
      return ['transfer', command.from, command.to, command.asset, command.amount.toString(), command.why, command.ref, command.once];
    // The chain's transaction hash is a last field only when a chain moved the tokens first, so records without one read as before.
    case 'split':
      return withChainTx(['split', command.account, command.marketId, command.amount.toString()], command.chainTxHash);
    case 'withdraw':
      // The receiving account is a last field only when `to` is a user's wallet, so records without one read as before.
      return ['withdraw', command.account, command.to, command.amount.toString(), command.nonce.toString(), ...(command.toAccount ? [command.toAccount] : [])];
    case 'merge':
      // Amounts only when given, so a merge of what is available is written as before; a chain's
      // merge always gives them (wallet-merge.ts), and its transaction hash follows them.
      return command.amounts ? withChainTx(['merge', command.account, command.marketIds, command.amounts.map(String)], command.chainTxHash) : ['merge', command.account, command.marketIds];
    case 'redeem':
      // How it rounds is the record's version's (RECORD_VERSION): a new record's redeems round per token.
      return withChainTx(['redeem', command.userId, command.account, command.marketIds], command.chainTxHash);
    case 'oracle':
      return ['oracle', command.marketId, command.command, encodeTerms(command.terms)];
    case 'heartbeat':
      return ['heartbeat', command.apiKey, command.timeoutMs];
    case 'heartbeat-off':
      return ['heartbeat-off', command.apiKey];
    case 'session':
      return ['session', command.apiKey, command.change, command.sessionId, command.resumes, ...(command.node === null ? [] : [command.node])];
    case 'sessions-adopted':
      return ['sessions-adopted', ...(command.present.length === 0 ? [] : [command.present])];
    case 'mmp-set':
      return ['mmp-set', encodeMmpSetting(command.setting)];
    case 'mmp-remove':
      return ['mmp-remove', command.apiKey, command.scope];
    case 'chain-tx':
    case 'chain-fills':
      // Plain JSON already: a transaction record holds its numbers as strings.
      return [command.kind, command.kind === 'chain-tx' ? command.change : command.events];
    case 'chain-transfers':
      // A transfer is five fields, an approval four: records written before approvals were indexed hold transfers only.
      return ['chain-transfers', command.toBlock, command.events.map((e) => ('approval' in e ? [e.ref, e.account, e.approval, e.approved] : [e.ref, e.account, e.asset, e.amount.toString(), e.direction]))];
  }
}

/** The fields of an encoded command: the journal's own encoding, its text checked against the chain before it is read. */
// biome-ignore lint/suspicious/noExplicitAny: each case reads the fields its own encoder wrote, in the order it wrote them.
type Fields = any[];

function decodeCommand(raw: unknown[], { rounding, makerFee }: VersionRules): EngineCommand {
  const [kind, ...f] = raw as [string, ...Fields];
  switch (kind) {
    case 'place': {
      const order: NormalizedOrder = {
        tokenId: f[5], outcome: f[6], side: f[7], priceMicros: f[8], sizeBaseUnits: BigInt(f[9]), makerAmount: BigInt(f[10]), takerAmount: BigInt(f[11]),
        orderType: f[12], postOnly: f[13], expirationSec: f[14], maker: f[15], signer: f[16], taker: f[17], nonce: BigInt(f[18]), feeRateBps: f[19],
        signatureType: f[20], salt: BigInt(f[21]), signature: f[22],
      };
      // Records written before orders knew their API key end at the signature.
      // How it pays as maker is the record's version's (RECORD_VERSION): a new record's orders pay at most their signed rate.
      return { kind, order: { userId: f[0], account: f[1], marketId: f[2], hash: f[3], idempotencyKey: f[4], order, apiKey: f[23] ?? null, ...(makerFee ? { makerFee } : {}) } };
    }
    case 'cancel':
      return { kind, userId: f[0], orderId: f[1] };
    case 'cancel-markets':
      return { kind, userId: f[0], marketIds: f[1] };
    case 'tick':
    case 'settle':
      return { kind };
    case 'market':
      return { kind, info: f[0] };
    case 'credit':
      return { kind, account: f[0], amount: BigInt(f[1]), reason: f[2], ref: f[3], ...(f[4] === undefined ? {} : { idempotencyKey: f[4] }) };
    case 'transfer':
      return { kind, from: f[0], to: f[1], asset: f[2], amount: BigInt(f[3]), why: f[4], ref: f[5], once: f[6] };
    case 'split':
      return { kind, account: f[0], marketId: f[1], amount: BigInt(f[2]), ...chainTxOf(f[3]) };
    case 'withdraw':
      return { kind, account: f[0], to: f[1], amount: BigInt(f[2]), nonce: BigInt(f[3]), ...(f[4] ? { toAccount: f[4] } : {}) };
    case 'merge':
      return f[2] ? { kind, account: f[0], marketIds: f[1], amounts: (f[2] as string[]).map(BigInt), ...chainTxOf(f[3]) } : { kind, account: f[0], marketIds: f[1] };
    case 'redeem':
      return { kind, userId: f[0], account: f[1], marketIds: f[2], ...chainTxOf(f[3]), ...(rounding === 'sum' ? { rounding } : {}) };
    case 'oracle':
      return { kind, marketId: f[0], command: decodeOracleCommand(f[1]), terms: decodeTerms(f[2]) };
    case 'heartbeat':
      return { kind, apiKey: f[0], timeoutMs: f[1] };
    case 'heartbeat-off':
      return { kind, apiKey: f[0] };
    case 'session':
      // Records written before sockets named their node end at `resumes`; before adoption knew who was present, with none.
      return { kind, apiKey: f[0], change: f[1], sessionId: f[2], resumes: f[3], node: f[4] ?? null };
    case 'sessions-adopted':
      return { kind, present: f[0] ?? [] };
    case 'mmp-set':
      return { kind, setting: decodeMmpSetting(f[0]) };
    case 'mmp-remove':
      return { kind, apiKey: f[0], scope: f[1] };
    case 'chain-tx':
      return { kind, change: f[0] };
    case 'chain-fills':
      return { kind, events: f[0] };
    case 'chain-transfers':
      return { kind, toBlock: f[0], events: (f[1] as Fields[]).map(decodeChainIndexEvent) };
    default:
      throw new Error(`unknown journal command ${kind}`);
  }
}

const encodeTerms = (t: CatalogueTerms) => ({ endMs: t.endMs, bond: t.proposalBondBaseUnits.toString(), reward: t.rewardBaseUnits.toString(), livenessMs: t.livenessMs });
const decodeTerms = (t: { endMs: number | null; bond: string; reward: string; livenessMs: number }): CatalogueTerms => ({
  endMs: t.endMs, proposalBondBaseUnits: BigInt(t.bond), rewardBaseUnits: BigInt(t.reward), livenessMs: t.livenessMs,
});

/** An encoded command with the chain's transaction hash as its last field, when there is one. */
function withChainTx(encoded: Encoded, chainTxHash: string | undefined): Encoded {
  return chainTxHash === undefined ? encoded : [...encoded, chainTxHash];
}

function chainTxOf(field: unknown): { chainTxHash?: string } {
  return typeof field === 'string' ? { chainTxHash: field } : {};
}

function decodeChainIndexEvent(e: Fields): ChainIndexEvent {
  const [ref, account] = e;
  if (e.length === 4) return { ref, account, approval: e[2], approved: e[3] };
  return { ref, account, asset: e[2], amount: BigInt(e[3]), direction: e[4] };
}

/** Oracle commands hold no amounts (the terms do), so they go as they are. */
const decodeOracleCommand = (command: OracleCommand): OracleCommand => command;

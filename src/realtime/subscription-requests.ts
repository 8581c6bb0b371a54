import type { ClientToServerEvents, SubscriptionError } from '../contract/realtime.ts';

/** At most this many token ids in one `orderbook-market-connect` (EXTENSIONS.md section 6). */
export const MAX_TOKENS_PER_CALL = 100;
/** At most this many tokens subscribed on one connection. */
export const MAX_TOKENS_PER_CONNECTION = 500;

/** Token ids are uint256 values written in decimal: at most 78 digits. */
const TOKEN_ID = /^[0-9]{1,78}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: SubscriptionError };

type ClientEvent = keyof ClientToServerEvents;

export function subscriptionError(event: ClientEvent, code: SubscriptionError['code'], message: string, tokenIds: string[] = []): SubscriptionError {
  return { event, code, message, tokenIds };
}

const invalid = (event: ClientEvent, message: string, tokenIds: string[] = []): { ok: false; error: SubscriptionError } => ({
  ok: false,
  error: subscriptionError(event, 'VALIDATION_FAILED', message, tokenIds),
});

/**
 * Reads a `string[]` of token ids: every entry a decimal token id, at most `maxPerCall` entries.
 * Repeated ids count once in the result (first occurrence order), but every entry counts
 * towards the per-call limit, since that limit bounds the work one message can ask for.
 */
export function parseTokenIds(event: ClientEvent, payload: unknown, maxPerCall: number): Parsed<string[]> {
  if (!Array.isArray(payload)) return invalid(event, 'the payload must be an array of token id strings');
  const named = payload.filter((entry): entry is string => typeof entry === 'string');
  if (payload.length > maxPerCall) {
    return invalid(event, `at most ${maxPerCall} token ids per call, got ${payload.length}`, named);
  }
  const malformed = payload.filter((entry) => typeof entry !== 'string' || !TOKEN_ID.test(entry));
  if (malformed.length > 0) {
    return invalid(event, 'token ids must be strings of decimal digits (at most 78)', malformed.filter((entry): entry is string => typeof entry === 'string'));
  }
  return { ok: true, value: [...new Set(named)] };
}

/**
 * Reads `{eventId?: UUID}`. No payload, `{}` or `null` mean every market. The id is lower-cased
 * because rooms are matched by exact string and the store writes UUIDs in lower case.
 */
export function parseTradeActivityFilter(payload: unknown): Parsed<{ eventId: string | null }> {
  const event = 'trade-activity-connect';
  if (payload === undefined || payload === null) return { ok: true, value: { eventId: null } };
  if (typeof payload !== 'object' || Array.isArray(payload)) return invalid(event, 'the payload must be an object {eventId?: UUID}');
  const eventId = (payload as { eventId?: unknown }).eventId;
  if (eventId === undefined) return { ok: true, value: { eventId: null } };
  if (typeof eventId !== 'string' || !UUID.test(eventId)) return invalid(event, 'eventId must be a UUID');
  return { ok: true, value: { eventId: eventId.toLowerCase() } };
}

import type {
  Category, CategoryInput, Event, EventInput, EventListParams, EventPage, Market, MarketInput, MarketPatch, MarketRewardDetail, OracleOutcome, ReferencePrice, ReferencePriceInput, Resolution, RewardConfig, RewardsPause, Tag, TagInput,
  Template, TemplateInput, TemplatePatch, TreasuryBalance,
} from '../types.ts';
import type { ClientContext } from './context.ts';

/** Operator calls (EXTENSIONS.md section 3); they need `credentials.adminToken`. */
export function adminSection({ transport }: ClientContext) {
  const admin = <T>(method: string, path: string, body?: unknown, idempotent?: true) => transport.call<T>(method, `/admin${path}`, { auth: 'admin', ...(idempotent ? { idempotent } : {}), ...(body === undefined ? {} : { body }) });
  /** A deposit's body; with a key it is made once per key, so a 429 or 503 is retried with it. */
  const deposit = <T>(path: string, body: Record<string, string>, idempotencyKey: string | undefined) =>
    (idempotencyKey ? admin<T>('POST', path, { ...body, idempotencyKey }, true) : admin<T>('POST', path, body));
  const id = encodeURIComponent;
  return {
    /** Every category, by position then name, inactive ones included. */
    categories: () => admin<Category[]>('GET', '/categories'),
    createCategory: (input: CategoryInput) => admin<Category>('POST', '/categories', input),
    /** Every tag, by slug. */
    tags: () => admin<Tag[]>('GET', '/tags'),
    createTag: (input: TagInput) => admin<Tag>('POST', '/tags', input),
    /**
     * GET /events as the operator reads it: with the admin token the list includes DRAFT events
     * (`{ eventStatus: 'DRAFT' }` lists the ones still to publish), which the public list never shows.
     */
    events: (params: EventListParams = {}) => transport.call<EventPage>('GET', '/events', { auth: 'admin', query: params }),
    /** GET /events/{idOrSlug} as the operator reads it: a DRAFT event too, which the public read answers 404. */
    event: (idOrSlug: string) => transport.call<Event>('GET', `/events/${id(idOrSlug)}`, { auth: 'admin' }),
    /** A DRAFT event with DRAFT markets. */
    createEvent: (input: EventInput) => admin<Event>('POST', '/events', input),
    addMarket: (eventId: string, input: MarketInput) => admin<Market>('POST', `/events/${id(eventId)}/markets`, input),
    /** The event becomes ACTIVE; its markets get token ids. */
    publishEvent: (eventId: string) => admin<Event>('POST', `/events/${id(eventId)}/publish`),
    patchMarket: (marketId: string, patch: MarketPatch) => admin<Market>('PATCH', `/markets/${id(marketId)}`, patch),
    /**
     * Deposits collateral (display units) for a sign-in address; answers the new balance. With an
     * `idempotencyKey` (a UUID), once per key: a 429 or 503 is retried with it, and after a timeout
     * or an error, call again with the same key.
     */
    credit: (address: string, amount: string, { idempotencyKey }: { idempotencyKey?: string } = {}) =>
      deposit<{ address: string; balance: string }>('/credits', { address, amount }, idempotencyKey),
    /** The operator's proposal: no bond, any time, the same dispute window as a user's. */
    oraclePropose: (marketId: string, outcome: OracleOutcome) => admin<Resolution>('POST', `/markets/${id(marketId)}/oracle/propose`, { outcome }),
    /** Decides a DISPUTED question; the market resolves at once. */
    oracleDecide: (marketId: string, outcome: OracleOutcome) => admin<Resolution>('POST', `/markets/${id(marketId)}/oracle/decide`, { outcome }),
    /**
     * A market's reward configuration for a UTC date (default today); frozen once its window opens,
     * except `enabled` (409 otherwise). Amounts are decimal strings.
     */
    configureRewards: (marketId: string, config: RewardConfig) => admin<MarketRewardDetail>('PUT', `/markets/${id(marketId)}/rewards`, config),
    /** Pauses (or resumes) reward accrual on every market. */
    pauseRewards: (paused: boolean) => admin<RewardsPause>('POST', '/rewards/pause', { paused }),
    /** Deposits collateral (display units) into the reward treasury every payout comes from; answers its balance. With an `idempotencyKey`, once per key, as `credit`. */
    fundRewardTreasury: (amount: string, { idempotencyKey }: { idempotencyKey?: string } = {}) =>
      deposit<TreasuryBalance>('/rewards/treasury', { amount }, idempotencyKey),
    /** Records a reference price (`at` defaults to now); with PRICE_FEED=manual the only source. */
    postPrice: (input: ReferencePriceInput) => admin<ReferencePrice>('POST', '/prices', input),
    /** Recurring price-market templates (EXTENSIONS.md section 13). */
    templates: {
      list: () => admin<Template[]>('GET', '/templates'),
      /** The template and its series event; markets follow on the clock. */
      create: (input: TemplateInput) => admin<Template>('POST', '/templates', input),
      patch: (templateId: string, patch: TemplatePatch) => admin<Template>('PATCH', `/templates/${id(templateId)}`, patch),
      enable: (templateId: string) => admin<Template>('PATCH', `/templates/${id(templateId)}`, { enabled: true }),
      disable: (templateId: string) => admin<Template>('PATCH', `/templates/${id(templateId)}`, { enabled: false }),
    },
    /** Moves a manual clock (test servers); the oracle's windows are checked after the move. */
    clock: (move: { advanceMs: number } | { now: string }) => admin<{ now: string }>('POST', '/clock', move),
  };
}

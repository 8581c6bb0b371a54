import { randomBytes } from 'node:crypto';
import { ExchangeError, formatUnits, parseUnits, type Event, type EventInput, type ExchangeClient, type Market } from '../client/index.ts';
import type { Config } from '../config.ts';
import { seedDemoSeries } from './demo-series.ts';

/**
 * The demo catalogue (`pmx demo`, `npm run demo`): a few categories, tags and published events,
 * single and multi-market, one negRisk, and an hourly BTC/USD series (demo-series.ts), so a
 * newcomer sees a populated API.
 */
const DAY_MS = 86_400_000;

/**
 * The config to serve the demo with: an admin token is generated when none is configured, and the
 * faucet is on, so that a newcomer's first bot (the SDK README's first trade) funds itself.
 */
export function demoConfig(config: Config): { config: Config; generatedAdminToken: string | undefined } {
  const demo = { ...config, faucetEnabled: true };
  if (config.adminToken) return { config: demo, generatedAdminToken: undefined };
  const token = randomBytes(24).toString('hex');
  return { config: { ...demo, adminToken: token }, generatedAdminToken: token };
}

function demoEvents(nowMs: number, ids: { crypto: string; politics: string; sports: string; bitcoin: string; elections: string; football: string }): EventInput[] {
  const inDays = (days: number) => new Date(nowMs + days * DAY_MS).toISOString();
  return [
    {
      name: 'Will Bitcoin close above $150,000 on its end date?',
      slug: 'demo-bitcoin-above-150k',
      description: 'Resolves YES if the BTC/USD daily close on the end date (60 days after the demo first ran) is above 150,000.',
      endDate: inDays(60),
      categories: [ids.crypto],
      tags: [ids.bitcoin],
      reward: '5',
      proposalBond: '100',
      orderFeeRateBps: 20,
      passiveOrderFeeRateBps: 0,
      markets: [{ name: 'Bitcoin above $150,000', slug: 'demo-btc-above-150k' }],
    },
    {
      name: 'Who will win the next presidential election?',
      slug: 'demo-presidential-election',
      description: 'One market per candidate; exactly one resolves YES.',
      endDate: inDays(300),
      negRisk: true,
      categories: [ids.politics],
      tags: [ids.elections],
      reward: '10',
      proposalBond: '500',
      orderFeeRateBps: 10,
      markets: ['Candidate A', 'Candidate B', 'Candidate C', 'Any other candidate'].map((name, i) => ({ name, questionIndex: i })),
    },
    {
      name: 'Saturday derby: match props',
      slug: 'demo-saturday-derby',
      description: 'Independent questions about one football match.',
      endDate: inDays(5),
      categories: [ids.sports],
      tags: [ids.football],
      markets: [
        { name: 'Home side wins', outcome1: 'Yes', outcome2: 'No' },
        { name: 'More than 2.5 goals', outcome1: 'Over', outcome2: 'Under', tickSize: '0.001' },
        { name: 'Both teams score' },
      ],
    },
  ];
}

/**
 * Where the demo's market makers open each candidate of the "one winner" election: chances that
 * sum to 100%, as a negRisk event's must (exactly one resolves YES). Quoting every candidate
 * around 50% made them sum to about 200%.
 */
const OPENING_PRICES: Record<string, Record<string, string>> = {
  'demo-presidential-election': { 'Candidate A': '0.45', 'Candidate B': '0.3', 'Candidate C': '0.15', 'Any other candidate': '0.1' },
};

/**
 * The price a demo maker opens a market at: the last trade's price once it has traded (a restart
 * goes on from there); before that, the demo's opening price, else for a negRisk event an equal
 * share of 100% (on the tick), else undefined (the maker's own default, the book's midpoint or 50%).
 */
export function openingPrice(event: Pick<Event, 'slug' | 'negRisk' | 'markets'>, market: Pick<Market, 'name' | 'chance' | 'firstPriceDataAt' | 'tickSize'>): string | undefined {
  if (market.firstPriceDataAt !== null) return market.chance.toFixed(6);
  const named = OPENING_PRICES[event.slug]?.[market.name];
  if (named !== undefined || !event.negRisk) return named;
  const tick = parseUnits(market.tickSize)!;
  return formatUnits((1_000_000n / BigInt(event.markets.length) / tick) * tick);
}

/** The demo's categories (found again by name) and tags (by slug). */
const CATEGORIES = [{ name: 'Crypto', position: 1 }, { name: 'Politics', position: 2 }, { name: 'Sports', position: 3 }] as const;
const TAGS = [
  { slug: 'demo-bitcoin', label: 'Bitcoin', type: 'topic' },
  { slug: 'demo-elections', label: 'Elections', type: 'topic' },
  { slug: 'demo-football', label: 'Football', type: 'topic' },
] as const;
/** The length of demoEvents' list, known before its category and tag ids are; plus the hourly series. */
const EVENT_COUNT = 3;
const SERIES_COUNT = 1;

/** What a seeding run did: every demo event as the exchange now serves it. */
export interface DemoSeed {
  /** False when everything was already there. */
  seeded: boolean;
  events: Event[];
}

/**
 * Seeds the demo catalogue into a running exchange through the SDK's admin calls, as any operator
 * script would. Each piece is made only when missing (categories by name, tags by slug, events by
 * slug), so a re-run, or a run after an interrupted one, completes the catalogue and changes
 * nothing else. `onProgress(done, total)` is told after each step.
 */
export async function seedDemo(admin: ExchangeClient, onProgress: (done: number, total: number) => void = () => {}): Promise<DemoSeed> {
  const total = CATEGORIES.length + TAGS.length + EVENT_COUNT + SERIES_COUNT;
  let done = 0;
  let seeded = false;
  const step = () => onProgress(++done, total);
  const [knownCategories, knownTags, { serverTime }] = await Promise.all([admin.admin.categories(), admin.admin.tags(), admin.exchange()]);
  const categoryIds: string[] = [];
  for (const category of CATEGORIES) {
    let found = knownCategories.find((c) => c.name === category.name);
    if (!found) [found, seeded] = [await admin.admin.createCategory(category), true];
    categoryIds.push(found.id);
    step();
  }
  const tagIds: string[] = [];
  for (const tag of TAGS) {
    let found = knownTags.find((t) => t.slug === tag.slug);
    if (!found) [found, seeded] = [await admin.admin.createTag(tag), true];
    tagIds.push(found.id);
    step();
  }
  const [crypto, politics, sports] = categoryIds as [string, string, string];
  const [bitcoin, elections, football] = tagIds as [string, string, string];
  const events: Event[] = [];
  for (const input of demoEvents(serverTime, { crypto, politics, sports, bitcoin, elections, football })) {
    let event = await knownEvent(admin, input.slug!);
    if (event?.eventStatus !== 'ACTIVE') {
      // Each market published escrows the event's oracle reward from the treasury (EXTENSIONS.md section 11): fund it first.
      if (input.reward) await admin.admin.fundRewardTreasury(formatUnits(parseUnits(input.reward)! * BigInt(input.markets.length)));
      // A DRAFT is what a run interrupted between creating and publishing it left: it is published as made.
      [event, seeded] = [await admin.admin.publishEvent((event ?? (await admin.admin.createEvent(input))).id), true];
    }
    events.push(event);
    step();
  }
  const series = await seedDemoSeries(admin, serverTime, { crypto, bitcoin });
  seeded ||= series.seeded;
  events.push(await admin.events.get(series.template.eventId));
  step();
  return { seeded, events };
}

/** The event with this slug, a DRAFT too (an admin read), or undefined when the exchange has none. */
async function knownEvent(client: ExchangeClient, slug: string): Promise<Event | undefined> {
  try {
    return await client.admin.event(slug);
  } catch (error) {
    if (error instanceof ExchangeError && error.status === 404) return undefined;
    throw error;
  }
}

/** What the operator needs to start poking at the demo. */
export function demoBanner(url: string, adminToken: string, generated: boolean, seeded: boolean): string {
  return [
    '',
    `Demo exchange at ${url} (${seeded ? 'demo catalogue seeded' : 'demo catalogue already present'})`,
    `  admin token${generated ? ' (generated for this run; set ADMIN_TOKEN to keep one)' : ''}: ${adminToken}`,
    `  events:      curl ${url}/api/v1/events`,
    `  API docs:    ${url}/docs`,
    `  faucet:      on (POST ${url}/api/v1/account/faucet credits test collateral)`,
    '',
  ].join('\n');
}

import { randomBytes } from 'node:crypto';
import type { AppContext } from '../api/context.ts';
import type { EventInput } from '../catalogue/admin.ts';
import type { Config } from '../config.ts';
import { findTakenEventSlugs } from '../store/catalogue-events-repository.ts';

/**
 * The demo exchange (`npm run demo`): a few categories, tags and published events, single and
 * multi-market, one negRisk, so a newcomer sees a populated API. Seeding is skipped when the
 * demo events already exist, so a restart on the same data is harmless.
 */
const DAY_MS = 86_400_000;
const MARKER_SLUG = 'demo-bitcoin-above-150k';

/** The config to serve the demo with: an admin token is generated when none is configured. */
export function demoConfig(config: Config): { config: Config; generatedAdminToken: string | undefined } {
  if (config.adminToken) return { config, generatedAdminToken: undefined };
  const token = randomBytes(24).toString('hex');
  return { config: { ...config, adminToken: token }, generatedAdminToken: token };
}

function demoEvents(nowMs: number, ids: { crypto: string; politics: string; sports: string; bitcoin: string; elections: string; football: string }): EventInput[] {
  const inDays = (days: number) => new Date(nowMs + days * DAY_MS).toISOString();
  return [
    {
      name: 'Will Bitcoin close above $150,000 this quarter?',
      slug: MARKER_SLUG,
      description: 'Resolves YES if the BTC/USD daily close on the last day of the quarter is above 150,000.',
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

/** Seeds the demo catalogue through the admin service; false when it was already there. */
export async function seedDemo(ctx: AppContext): Promise<boolean> {
  const db = ctx.store.db;
  if ((await findTakenEventSlugs(db, [MARKER_SLUG])).size > 0) return false;
  const { admin } = ctx.catalogue;
  const [crypto, politics, sports] = await Promise.all([
    admin.createCategory({ name: 'Crypto', position: 1 }),
    admin.createCategory({ name: 'Politics', position: 2 }),
    admin.createCategory({ name: 'Sports', position: 3 }),
  ]);
  const [bitcoin, elections, football] = await Promise.all([
    admin.createTag({ slug: 'demo-bitcoin', label: 'Bitcoin', type: 'topic' }),
    admin.createTag({ slug: 'demo-elections', label: 'Elections', type: 'topic' }),
    admin.createTag({ slug: 'demo-football', label: 'Football', type: 'topic' }),
  ]);
  const events = demoEvents(ctx.clock.nowMs(), {
    crypto: crypto.id, politics: politics.id, sports: sports.id, bitcoin: bitcoin.id, elections: elections.id, football: football.id,
  });
  for (const input of events) await admin.publishEvent(await admin.createEvent(input));
  return true;
}

/** What the operator needs to start poking at the demo. */
export function demoBanner(url: string, adminToken: string, generated: boolean, seeded: boolean): string {
  return [
    '',
    `Demo exchange at ${url} (${seeded ? 'demo catalogue seeded' : 'demo catalogue already present'})`,
    `  admin token${generated ? ' (generated for this run; set ADMIN_TOKEN to keep one)' : ''}: ${adminToken}`,
    `  events:      curl ${url}/api/v1/events`,
    `  API docs:    ${url}/docs`,
    '',
  ].join('\n');
}

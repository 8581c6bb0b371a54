import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { pino } from 'pino';
import { chainKindOf, withChainOfStore } from '../../src/chain-choice.ts';
import { ConfigError, parseConfig } from '../../src/config.ts';
import { getSetting, setSetting } from '../../src/store/settings-repository.ts';
import type { Store } from '../../src/store/database.ts';
import { openTestStore } from '../helpers/database.ts';
import { get } from '../helpers/http.ts';
import { startProcessServer } from '../helpers/process-server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

const silent = pino({ level: 'silent' });
const byDefault = parseConfig({});

/**
 * CHAIN unset (EXTENSIONS.md section 10: embedded) settled against the store: a store keeps the
 * chain it ran on. Two plain reads and a setting, the same on either store: run once, with the chain's files.
 */
describe('the chain a store runs on when CHAIN is unset', { skip: storeIndependent('the chain') }, () => {
  let store: Store;
  beforeEach(async () => {
    store = await openTestStore();
  });
  afterEach(() => store?.close());

  it('is embedded for a new store, which then remembers it', async () => {
    assert.equal((await withChainOfStore(byDefault, store.db, silent)).chain, 'embedded');
    assert.equal(await getSetting(store.db, 'chain'), 'embedded');
    await store.db.insertInto('users').values({ id: randomUUID(), address: '0x00000000000000000000000000000000000000aa', proxy_wallet: '0x00000000000000000000000000000000000000bb', display_name: null, avatar_url: null }).execute();
    assert.equal(await chainKindOf(byDefault, store.db), 'embedded', 'users made on the chain keep it');
  });

  it('stays none for a store made before embedded was the default (users and no record), and records it', async () => {
    await store.db.insertInto('users').values({ id: randomUUID(), address: '0x00000000000000000000000000000000000000aa', proxy_wallet: '0x00000000000000000000000000000000000000bb', display_name: null, avatar_url: null }).execute();
    assert.equal((await withChainOfStore(byDefault, store.db, silent)).chain, 'none');
    assert.equal(await getSetting(store.db, 'chain'), 'none');
  });

  it('follows CHAIN when set, and remembers it for the boots that leave it out', async () => {
    const explicitNone = await withChainOfStore(parseConfig({ CHAIN: 'none' }), store.db, silent);
    assert.equal(explicitNone.chain, 'none');
    assert.equal(await chainKindOf(byDefault, store.db), 'none');
    await withChainOfStore(parseConfig({ CHAIN: 'embedded' }), store.db, silent);
    assert.equal(await chainKindOf(byDefault, store.db), 'embedded');
  });

  it('refuses to guess for a store that ran on rpc: its variables are needed again', async () => {
    await setSetting(store.db, 'chain', 'rpc');
    await assert.rejects(chainKindOf(byDefault, store.db), (error: unknown) => error instanceof ConfigError && /CHAIN=rpc/.test(error.message));
  });
});

/** The boot over a data directory: the embedded chain starts beside the store, and the store's choice stands. */
describe('booting with CHAIN unset over a data directory', { skip: storeIndependent('the chain'), timeout: 120_000 }, () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'pmx-chain-choice-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const boot = async (CHAIN: string) => {
    const server = await startProcessServer({ DATABASE_URL: '', DATA_DIR: dataDir, CHAIN });
    try {
      return ((await get(server.api('/exchange'))).body as { chain: { kind: string } }).chain.kind;
    } finally {
      await server.stop();
    }
  };

  it('runs a new data directory on the embedded chain and keeps it there; one moved to none stays on none though its chain files remain', async () => {
    assert.equal(await boot(''), 'embedded');
    assert.equal(await boot(''), 'embedded', 'started beside the store, and taken');
    assert.equal(await boot('none'), 'none');
    assert.equal(await boot(''), 'none', 'the chain started beside the store is not the one the store chose');
  });
});

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { createManualClock } from '../../src/clock.ts';
import { ApiKeyService } from '../../src/identity/api-keys.ts';
import { Revocations } from '../../src/identity/revocations.ts';
import { openTestStore } from '../helpers/database.ts';

describe('unknown API keys', () => {
  it('are answered from memory for a minute: an invented key costs one store read, not one per request', async () => {
    const store = await openTestStore();
    const clock = createManualClock();
    const keys = new ApiKeyService({
      db: store.db, clock, encryptionKey: Buffer.alloc(32), previousEncryptionKeys: [], storeIsShared: true, revocations: new Revocations(), keysPerUser: 10,
    });
    const invented = randomUUID();
    assert.equal(await keys.resolve(invented), undefined);
    // With the store gone, only memory can answer.
    await store.close();
    assert.equal(await keys.resolve(invented), undefined);
    clock.advance(60_000);
    await assert.rejects(keys.resolve(invented), 'a minute later the store is asked again');
  });
});

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { parseConfig } from '../../src/config.ts';
import { EngineUnavailableError } from '../../src/engine/queue-full-error.ts';
import { startServer } from '../../src/server.ts';
import { createScratchDatabase } from '../helpers/database.ts';

describe('one engine per database', { skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL (DATABASE_URL)' }, () => {
  it('a second node on the same database runs no engine and refuses order commands with 503 until it holds the lock', async () => {
    const database = await createScratchDatabase(process.env.DATABASE_URL!);
    const config = parseConfig({ PORT: '0', DATABASE_URL: database.url, LOG_LEVEL: 'silent', SIGNATURE_WORKERS: '0' });
    try {
      const first = await startServer(config);
      const second = await startServer(config);
      const refused = await second.ctx.trading.engine.cancel(randomUUID(), randomUUID()).catch((error: unknown) => error);
      assert.ok(refused instanceof EngineUnavailableError);
      assert.equal(refused.statusCode, 503);
      const answered = await first.ctx.trading.engine.cancel(randomUUID(), randomUUID());
      assert.deepEqual([answered.ok, !answered.ok && answered.code], [false, 'NOT_FOUND']);
      await first.close();
      await second.close();
      const third = await startServer(config);
      const afterTakeover = await third.ctx.trading.engine.cancel(randomUUID(), randomUUID());
      assert.equal(afterTakeover.ok, false);
      await third.close();
    } finally {
      await database.drop();
    }
  });
});

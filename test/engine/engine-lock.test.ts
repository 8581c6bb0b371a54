import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import { EngineLockHeldError } from '../../src/store/engine-lock.ts';
import { createScratchDatabase } from '../helpers/database.ts';

describe('one engine per database', { skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL (DATABASE_URL)' }, () => {
  it('a second server on the same PostgreSQL database refuses to start; it may once the first stopped', async () => {
    const database = await createScratchDatabase(process.env.DATABASE_URL!);
    const config = parseConfig({ PORT: '0', DATABASE_URL: database.url, LOG_LEVEL: 'silent', SIGNATURE_WORKERS: '0' });
    try {
      const first = await startServer(config);
      await assert.rejects(startServer(config), EngineLockHeldError);
      await first.close();
      const second = await startServer(config);
      await second.close();
    } finally {
      await database.drop();
    }
  });
});

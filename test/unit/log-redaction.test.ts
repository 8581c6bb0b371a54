import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { logRedaction } from '../../src/log-redaction.ts';

const none = { chainRpcUrl: undefined, databaseUrl: undefined, redisUrl: undefined };

/** A secret of a configured URL never reaches a log line (src/log-redaction.ts): viem's errors print the URL they called. */
describe('log redaction', () => {
  it("shows CHAIN_RPC_URL as its origin, as configured or as viem normalises it, and hides URLs' passwords", () => {
    const redact = logRedaction({ chainRpcUrl: 'https://Polygon.Example.com/v2/key-123?x=1', databaseUrl: 'postgresql://app:s3cret@db:5432/pmx', redisUrl: 'redis://:r3dis@cache:6379' })!;
    assert.equal(redact('URL: https://Polygon.Example.com/v2/key-123?x=1 and https://polygon.example.com/v2/key-123?x=1'), 'URL: https://polygon.example.com/… and https://polygon.example.com/…');
    assert.equal(redact('postgresql://app:s3cret@db:5432/pmx redis://:r3dis@cache:6379'), 'postgresql://app:***@db:5432/pmx redis://:***@cache:6379');
  });

  it('is nothing to do for URLs without a secret', () => {
    assert.equal(logRedaction(none), undefined);
    assert.equal(logRedaction({ ...none, chainRpcUrl: 'http://127.0.0.1:8545', databaseUrl: 'postgresql://postgres@127.0.0.1:5432/postgres' }), undefined);
  });

  it("applies to every line pino writes, a logged error's message included", () => {
    const lines: string[] = [];
    const redact = logRedaction({ ...none, chainRpcUrl: 'https://rpc.example/key-123' })!;
    const logger = pino({ hooks: { streamWrite: redact } }, { write: (line: string) => void lines.push(line) }).child({ node: 'n' });
    logger.error({ err: new Error('HTTP request failed.\nURL: https://rpc.example/key-123') }, 'the chain did not answer');
    assert.equal(lines.length, 1);
    assert.ok(!lines[0]!.includes('key-123'), lines[0]);
    assert.ok(lines[0]!.includes('URL: https://rpc.example/…'), lines[0]);
  });
});

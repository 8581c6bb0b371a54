import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStoreUnavailable } from '../../src/store/store-unavailable.ts';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it('names a database out of reach: socket errors, lost connections, a server restarting or full', () => {
    for (const error of [
      coded('ECONNREFUSED'), coded('ETIMEDOUT'), new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'), new Error('Client was closed and is not queryable'), coded('57P01', 'terminating connection due to administrator command'),
      coded('57P03', 'the database system is starting up'), coded('53300', 'too many connections'), coded('08006'),
      new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]), new Error('outer', { cause: coded('ECONNRESET') }),
    ]) assert.equal(isStoreUnavailable(error), true, String(error));
  });

  it('leaves every error about the query itself, or anything else, to be what it is', () => {
    for (const error of [
      coded('23505', 'duplicate key'), coded('42P01', 'relation does not exist'), coded('57014', 'canceling statement'), new Error('boom'),
      new AggregateError([coded('ECONNREFUSED'), new Error('other')]), 'ECONNREFUSED', null, undefined,
    ]) assert.equal(isStoreUnavailable(error), false, String(error));
  });
});

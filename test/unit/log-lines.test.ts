import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatLogLine, logDestination } from '../../src/log-lines.ts';

describe('log lines: readable on a terminal, JSON elsewhere', () => {
  it('keeps pino JSON when standard output is not a terminal', () => {
    assert.equal(logDestination({ isTTY: false } as NodeJS.WriteStream), undefined);
  });

  it('formats a line as time, level, message and the other fields', () => {
    const time = Date.UTC(2030, 0, 2, 3, 4, 5, 678);
    const line = JSON.stringify({ level: 40, time, pid: 1, hostname: 'h', msg: 'slow vacuum', table: 'orders', ms: 1200 });
    assert.equal(formatLogLine(`${line}\n`), '03:04:05.678 WARN  slow vacuum table=orders ms=1200\n');
  });

  it('shows a request by method and URL, a response by status and time, an error with its stack', () => {
    const time = Date.UTC(2030, 0, 2, 3, 4, 5, 0);
    assert.equal(formatLogLine(JSON.stringify({ level: 30, time, reqId: 'r1', req: { method: 'GET', url: '/healthz' }, msg: 'incoming request' })), '03:04:05.000 INFO  GET /healthz\n');
    assert.equal(formatLogLine(JSON.stringify({ level: 30, time, reqId: 'r1', res: { statusCode: 200 }, responseTime: 1.234, msg: 'request completed' })), '03:04:05.000 INFO  200 1.2 ms\n');
    const error = formatLogLine(JSON.stringify({ level: 50, time, err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' }, msg: 'boom' }));
    assert.equal(error, '03:04:05.000 ERROR boom\n    Error: boom\n        at x\n');
  });

  it('colours the level only when asked, and passes a line that is not JSON through', () => {
    assert.ok(formatLogLine(JSON.stringify({ level: 50, time: 0, msg: 'x' }), true).includes('\x1b[31mERROR\x1b[0m'));
    assert.equal(formatLogLine('plain text'), 'plain text\n');
  });
});

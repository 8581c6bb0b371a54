import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExchangeError } from '../../src/client/index.ts';
import { traderClient } from '../client/helpers.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { useCliFixture } from './pmx.ts';

/** A server run without the faucet, as a real exchange is: its faucet route does not exist. */
describe('the faucet of a server without it', { skip: storeIndependent('the CLI') }, () => {
  const cli = useCliFixture('pmx-faucet-off-', { FAUCET_ENABLED: 'false' });
  const off = /^this exchange runs without the faucet \(its server was started without FAUCET_ENABLED=true\): fund the account instead through the operator, who credits your sign-in address \(pmx credit <address> <amount>, POST \/api\/v1\/admin\/credits\), or on a chain by sending collateral to your proxy wallet$/;

  it("says so, and how to fund the account instead, where a bare 'route not found' came: the CLI (exit 1) and the SDK", async () => {
    await cli.json(['login']);
    const faucet = await cli.pmx(['faucet', '100']);
    assert.equal(faucet.code, 1, faucet.stderr);
    const lines = faucet.stderr.trim().split('\n');
    assert.equal(lines.length, 1, faucet.stderr);
    assert.match(lines[0]!.replace(/^error 404 NOT_FOUND: /, ''), off);

    const trader = await traderClient(cli.server);
    const refused = await trader.account.faucet('100').then(() => undefined, (error: unknown) => error);
    assert.ok(refused instanceof ExchangeError, String(refused));
    assert.deepEqual([refused.status, refused.code], [404, 'NOT_FOUND']);
    assert.match(refused.message, off);
  });
});

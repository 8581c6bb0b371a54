import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkExchangeCalls } from '../../src/chain/exchange-abi.ts';
import { ConfigError } from '../../src/config.ts';
import { type ExchangeChain, startExchangeChain } from '../helpers/exchange-chain.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

/**
 * The boot's check that the exchanges on chain take the calls this build sends
 * (src/chain/exchange-abi.ts): an exchange of an earlier build would revert every settlement.
 */
describe("the exchanges' calls", { skip: storeIndependent('the chain') }, () => {
  let chain: ExchangeChain;
  before(async () => { chain = await startExchangeChain(); });
  after(() => chain?.stop());

  it("passes this build's exchanges and refuses code without matchOrders and matchOrdersBatch, naming them and the fix", async () => {
    const { exchange, negRiskExchange, collateral } = chain.contracts;
    await checkExchangeCalls(chain.anvil.rpcUrl, [{ name: 'EXCHANGE_ADDRESS', address: exchange }, { name: 'NEG_RISK_EXCHANGE_ADDRESS', address: negRiskExchange }], 'redeploy');
    await assert.rejects(
      checkExchangeCalls(chain.anvil.rpcUrl, [{ name: 'EXCHANGE_ADDRESS', address: exchange }, { name: 'NEG_RISK_EXCHANGE_ADDRESS', address: collateral }], 'Redeploy.'),
      (error: unknown) => error instanceof ConfigError && error.message === `NEG_RISK_EXCHANGE_ADDRESS ${collateral} has no matchOrders or matchOrdersBatch as this build sends it: it was deployed by an earlier build. Redeploy.`,
    );
  });
});

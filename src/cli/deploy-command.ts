import type { Command } from 'commander';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deployVariables, loadDeployTarget } from '../config.ts';
import { refuseWhatIsNotRead } from './config-flags.ts';
import { deployerOutOfFunds, refuseUnfundedDeployer } from './deploy-gas.ts';
import { examples, printJson } from './output.ts';
import { globals } from './sdk-client.ts';

/**
 * `pmx deploy`: the exchange's contracts deployed to CHAIN_RPC_URL by OPERATOR_KEY (their admin and
 * operator), through the same `deployExchangeContracts` the embedded chain's template uses; then
 * the variables a CHAIN=rpc server needs, as `.env` lines on stdout (progress goes to stderr), so
 * `pmx deploy >> .env` records them.
 */
export function registerDeployCommand(program: Command): void {
  program.command('deploy')
    .description("deploy the exchange's contracts (ConditionalTokens, a local collateral, the proxy-wallet factory, both exchanges) to CHAIN_RPC_URL with OPERATOR_KEY as deployer, admin and operator, and print the variables of a CHAIN=rpc server")
    .addHelpText('after', `
Reads CHAIN_RPC_URL, OPERATOR_KEY, CHAIN_ID (default 31337; the endpoint must serve it) and
EXCHANGE_NAME (the orders' EIP-712 domain name, fixed in the exchanges) from the environment, a
.env file or flags. Prints CHAIN, CHAIN_ID, EXCHANGE_NAME, EXCHANGE_ADDRESS, NEG_RISK_EXCHANGE_ADDRESS,
COLLATERAL_ADDRESS, CONDITIONAL_TOKENS_ADDRESS and PROXY_WALLET_FACTORY_ADDRESS; a server also needs
CHAIN_RPC_URL, OPERATOR_KEY, SETTLEMENT_KEY and NEG_RISK_SETTLEMENT_KEY (it makes the settlement
keys operators of the exchanges at its first boot). Each run deploys a new set of contracts.
COLLATERAL_ADDRESS and CONDITIONAL_TOKENS_ADDRESS, when set, name contracts already on the chain
(USDC, which must have 6 decimals, and a ConditionalTokens) that the exchanges then use instead of
new ones; with a collateral of its own no one mints, so credits and the faucet pay from
OPERATOR_KEY's balance (the treasury). OPERATOR_KEY pays the gas: a key that holds nothing is
refused before anything is sent, one that runs out on the way in one line naming its address.
${examples(['CHAIN_RPC_URL=http://127.0.0.1:8545 OPERATOR_KEY=0x… pmx deploy >> .env', 'pmx deploy --chain-rpc-url https://rpc.example --chain-id 84532 --operator-key 0x… --json', 'COLLATERAL_ADDRESS=0x… CONDITIONAL_TOKENS_ADDRESS=0x… pmx deploy >> .env'])}`)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (_options: unknown, command: Command) => {
      refuseWhatIsNotRead(command, deployVariables());
      const target = loadDeployTarget({ argv: process.argv.slice(2) });
      // Loaded here: the contracts' artifacts and viem's wallet are only needed by this command.
      const { checkRemoteChainId, deployExchangeContracts } = await import('../chain/index.ts');
      await checkRemoteChainId(target.chainRpcUrl, target.chainId);
      const deployer = privateKeyToAccount(target.operatorKey).address;
      await refuseUnfundedDeployer(target.chainRpcUrl, target.chainId, deployer);
      console.error(`deploying the exchange's contracts to chain ${target.chainId}…`);
      const deployment = await deployExchangeContracts(target.chainRpcUrl, target.chainId, target.exchangeName, target.operatorKey, {
        collateral: target.collateralAddress,
        conditionalTokens: target.conditionalTokensAddress,
      }).catch(async (error: unknown) => {
        throw await deployerOutOfFunds(error, target.chainRpcUrl, target.chainId, deployer);
      });
      const { contracts } = deployment;
      if (globals(command).json) {
        printJson(deployment);
        return;
      }
      console.log([
        `# pmx deploy: the exchange's contracts on chain ${target.chainId}, deployed by ${deployment.deployer} (their admin and operator: OPERATOR_KEY)`,
        'CHAIN=rpc',
        `CHAIN_ID=${target.chainId}`,
        `EXCHANGE_NAME=${JSON.stringify(deployment.exchangeName)}`,
        `EXCHANGE_ADDRESS=${getAddress(contracts.exchange)}`,
        `NEG_RISK_EXCHANGE_ADDRESS=${getAddress(contracts.negRiskExchange)}`,
        `COLLATERAL_ADDRESS=${getAddress(contracts.collateral)}`,
        `CONDITIONAL_TOKENS_ADDRESS=${getAddress(contracts.conditionalTokens)}`,
        `PROXY_WALLET_FACTORY_ADDRESS=${getAddress(contracts.proxyWalletFactory)}`,
        '# also set CHAIN_RPC_URL, OPERATOR_KEY, SETTLEMENT_KEY and NEG_RISK_SETTLEMENT_KEY (three different keys)',
      ].join('\n'));
    });
}

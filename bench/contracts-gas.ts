/**
 * Gas of matchOrders on anvil, per fill type: the first fill (a taker and one maker) and each
 * extra maker fill (the mean over ten more), and how many fills one transaction holds: within 30M
 * gas, and within the 128 KiB that a geth-based node's pool accepts for one transaction.
 * Every order is a fresh order of a distinct account (cold storage, the costly case), with fees
 * on both sides; every party an EOA, then every party a proxy wallet. Last, the gas of deploying
 * one proxy wallet.
 * `npm run bench -- contracts-gas`; contracts/README.md keeps the table.
 */
import { keccak256, toHex } from 'viem';
import { type LocalAccount, privateKeyToAccount } from 'viem/accounts';
import { ABIS, type ExchangeChain, type Market, ONE, startExchangeChain } from '../test/helpers/exchange-chain.ts';

const BLOCK_GAS = 30_000_000n;
const TX_POOL_BYTES = 128n * 1024n;
const EXTRA_MAKERS = 10;
const SIZE = 10n * ONE;
const FEE_BPS = 100n;

type FillType = 'COMPLEMENTARY' | 'MINT' | 'MERGE';

let accounts = 0;

const chain = await startExchangeChain();
try {
  const market = await chain.createMarket();
  // The fee receiver's first fee writes a fresh balance slot once per deployment, not per match.
  await matchCost(chain, market, 'COMPLEMENTARY', 1, false);
  const rows: string[] = [];
  for (const [type, wallets] of [['COMPLEMENTARY', false], ['MINT', false], ['MERGE', false], ['COMPLEMENTARY', true], ['MINT', true], ['MERGE', true]] as const) {
    const first = await matchCost(chain, market, type, 1, wallets);
    const many = await matchCost(chain, market, type, 1 + EXTRA_MAKERS, wallets);
    const extraGas = (many.gas - first.gas) / BigInt(EXTRA_MAKERS);
    const extraBytes = (many.bytes - first.bytes) / BigInt(EXTRA_MAKERS);
    const byGas = (BLOCK_GAS - first.gas) / extraGas + 1n;
    const bySize = (TX_POOL_BYTES - first.bytes) / extraBytes + 1n;
    rows.push(`| ${type}${wallets ? ', proxy wallets' : ''} | ${kilo(first.gas)} | ${kilo(extraGas)} | ${byGas} | ${extraBytes} B | ${bySize} |`);
  }
  console.log('| fill type | first fill | each extra maker fill | fills in 30M gas | calldata per extra fill | fills in 128 KiB |\n|---|---|---|---|---|---|');
  console.log(rows.join('\n'));
  console.log(`\ndeployWallet (a proxy wallet with its approvals): ${kilo(await walletDeployGas(chain))}`);
} finally {
  await chain.stop();
}


/** A fresh funded, approved account holding collateral and complete sets. */
async function trader(chain: ExchangeChain, market: Market): Promise<LocalAccount> {
  const account = privateKeyToAccount(keccak256(toHex(`gas bench trader ${accounts++}`)));
  await chain.anvil.testClient.setBalance({ address: account.address, value: 10n ** 18n });
  await chain.approveExchanges(account);
  await chain.giveSets(account, market, 1_000n * ONE);
  await chain.mint(account.address, 1_000n * ONE);
  return account;
}

/** A fresh owner of a deployed proxy wallet holding collateral and complete sets (split by the operator). */
async function walletTrader(chain: ExchangeChain, market: Market): Promise<LocalAccount> {
  const owner = privateKeyToAccount(keccak256(toHex(`gas bench wallet owner ${accounts++}`)));
  const wallet = await chain.deployWallet(owner.address);
  await chain.mint(wallet, 2_000n * ONE);
  await chain.send(chain.operator, wallet, ABIS.wallet, 'splitPosition', [market.conditionId, 1_000n * ONE]);
  return owner;
}

/**
 * Gas and calldata bytes of one matchOrders of `type` with `makers` makers at 0.40 (complement
 * 0.60), each filled fully; with `wallets`, every party is a proxy wallet (signatureType 1).
 */
async function matchCost(chain: ExchangeChain, market: Market, type: FillType, makers: number, wallets: boolean): Promise<{ gas: bigint; bytes: bigint }> {
  const party = async () => ({ signer: await (wallets ? walletTrader : trader)(chain, market), signatureType: wallets ? (1 as const) : (0 as const) });
  const takerSide = type === 'MERGE' ? 'SELL' : 'BUY';
  const makerSide = type === 'COMPLEMENTARY' ? 'SELL' : takerSide;
  const makerToken = type === 'COMPLEMENTARY' ? market.yes : market.no;
  const makerPrice = 400_000n;
  const takerPrice = type === 'COMPLEMENTARY' ? makerPrice : ONE - makerPrice;
  const total = SIZE * BigInt(makers);
  const taker = await chain.signOrder({ ...(await party()), tokenId: market.yes, side: takerSide, priceMicros: takerPrice, size: total, feeRateBps: FEE_BPS });
  const makerOrders = [];
  for (let i = 0; i < makers; i++) {
    makerOrders.push(await chain.signOrder({ ...(await party()), tokenId: makerToken, side: makerSide, priceMicros: makerPrice, size: SIZE, feeRateBps: FEE_BPS }));
  }
  const makerFills = makerOrders.map((order) => order.makerAmount);
  const receipt = await chain.match(taker, makerOrders, taker.makerAmount, makerFills);
  const { input } = await chain.publicClient.getTransaction({ hash: receipt.transactionHash });
  return { gas: receipt.gasUsed, bytes: BigInt((input.length - 2) / 2) };
}

async function walletDeployGas(chain: ExchangeChain): Promise<bigint> {
  const owner = privateKeyToAccount(keccak256(toHex('gas bench wallet owner')));
  const hash = await chain.anvil.walletClient(chain.operator).writeContract({ address: chain.contracts.proxyWalletFactory, abi: ABIS.factory, functionName: 'deployWallet', args: [owner.address], chain: chain.anvil.chain });
  return (await chain.publicClient.waitForTransactionReceipt({ hash })).gasUsed;
}

function kilo(gas: bigint): string {
  return `${(Number(gas) / 1000).toFixed(1)}k`;
}

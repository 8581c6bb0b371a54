/**
 * Gas of matchOrders on anvil, per fill type: the first fill (a taker and one maker) and each
 * extra maker fill (the mean over ten more), and how many fills one transaction holds: within 30M
 * gas, and within the 128 KiB that a geth-based node's pool accepts for one transaction.
 * Every order is a fresh order of a distinct account (cold storage, the costly case), with fees
 * on both sides; every party a proxy wallet, whose owner signs as the EOA (type 0: the default of
 * order builders; the assets are the wallet's all the same), then as the wallet (type 1), then
 * leaves its orders unsigned (an API key's, settled on the operator's word). Then N single-maker
 * COMPLEMENTARY matches in one matchOrdersBatch against the same N sent as N matchOrders (the same
 * orders from the same chain state: the chain is reverted to a snapshot in between). Last, the gas
 * of deploying one proxy wallet.
 * `npm run bench -- contracts-gas`; contracts/README.md keeps the table.
 */
import { keccak256, toHex } from 'viem';
import { type LocalAccount, privateKeyToAccount } from 'viem/accounts';
import { ABIS, type ExchangeChain, type Market, type MatchArgs, matchOf, ONE, startExchangeChain } from '../test/helpers/exchange-chain.ts';

const BLOCK_GAS = 30_000_000n;
const TX_POOL_BYTES = 128n * 1024n;
const EXTRA_MAKERS = 10;
const SIZE = 10n * ONE;
const FEE_BPS = 100n;
const BATCH_SIZES = [2, 5, 10, 20];

type FillType = 'COMPLEMENTARY' | 'MINT' | 'MERGE';
/** How the wallets' owners sign: as the EOA (type 0), as the wallet (type 1), or not at all (an API key's unsigned orders). */
type Parties = 'EOA' | 'wallet' | 'unsigned wallet';
const PARTIES_LABEL: Record<Parties, string> = { EOA: ', type 0', wallet: ', type 1', 'unsigned wallet': ', unsigned' };

let accounts = 0;

const chain = await startExchangeChain();
try {
  const market = await chain.createMarket();
  // The fee receiver's first fee writes a fresh balance slot once per deployment, not per match.
  await matchCost(chain, await matchArgs(chain, market, 'COMPLEMENTARY', 1, 'EOA'));
  const rows: string[] = [];
  const cases: Array<[FillType, Parties]> = [['COMPLEMENTARY', 'EOA'], ['MINT', 'EOA'], ['MERGE', 'EOA'], ['COMPLEMENTARY', 'wallet'], ['MINT', 'wallet'], ['MERGE', 'wallet'], ['COMPLEMENTARY', 'unsigned wallet']];
  for (const [type, parties] of cases) {
    const first = await matchCost(chain, await matchArgs(chain, market, type, 1, parties));
    const many = await matchCost(chain, await matchArgs(chain, market, type, 1 + EXTRA_MAKERS, parties));
    const extraGas = (many.gas - first.gas) / BigInt(EXTRA_MAKERS);
    const extraBytes = (many.bytes - first.bytes) / BigInt(EXTRA_MAKERS);
    const byGas = (BLOCK_GAS - first.gas) / extraGas + 1n;
    const bySize = (TX_POOL_BYTES - first.bytes) / extraBytes + 1n;
    rows.push(`| ${type}${PARTIES_LABEL[parties]} | ${kilo(first.gas)} | ${kilo(extraGas)} | ${byGas} | ${extraBytes} B | ${bySize} |`);
  }
  console.log('| fill type | first fill | each extra maker fill | fills in 30M gas | calldata per extra fill | fills in 128 KiB |\n|---|---|---|---|---|---|');
  console.log(rows.join('\n'));
  console.log('\n| single-maker COMPLEMENTARY matches | N matchOrders | one matchOrdersBatch | per match, separately / batched | saved | batch calldata per match |\n|---|---|---|---|---|---|');
  for (const n of BATCH_SIZES) {
    const { separate, batched, batchBytes } = await batchCost(chain, market, n);
    const saved = (100 * Number(separate - batched)) / Number(separate);
    console.log(`| ${n} | ${kilo(separate)} | ${kilo(batched)} | ${kilo(separate / BigInt(n))} / ${kilo(batched / BigInt(n))} | ${saved.toFixed(1)}% | ${batchBytes / BigInt(n)} B |`);
  }
  console.log(`\ndeployWallet (a proxy wallet with its approvals): ${kilo(await walletDeployGas(chain))}`);
} finally {
  await chain.stop();
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
 * One match of `type` with `makers` makers at 0.40 (complement 0.60), each filled fully, every
 * party a fresh account of the kind `parties` names.
 */
async function matchArgs(chain: ExchangeChain, market: Market, type: FillType, makers: number, parties: Parties): Promise<MatchArgs> {
  const order = async (params: { tokenId: bigint; side: 'BUY' | 'SELL'; priceMicros: bigint; size: bigint }) => {
    const wallet = { ...params, signer: await walletTrader(chain, market), signatureType: parties === 'EOA' ? (0 as const) : (1 as const), feeRateBps: FEE_BPS };
    return parties === 'unsigned wallet' ? chain.unsignedOrder(wallet) : chain.signOrder(wallet);
  };
  const takerSide = type === 'MERGE' ? 'SELL' : 'BUY';
  const makerSide = type === 'COMPLEMENTARY' ? 'SELL' : takerSide;
  const makerToken = type === 'COMPLEMENTARY' ? market.yes : market.no;
  const makerPrice = 400_000n;
  const takerPrice = type === 'COMPLEMENTARY' ? makerPrice : ONE - makerPrice;
  const takerOrder = await order({ tokenId: market.yes, side: takerSide, priceMicros: takerPrice, size: SIZE * BigInt(makers) });
  const makerOrders = [];
  for (let i = 0; i < makers; i++) makerOrders.push(await order({ tokenId: makerToken, side: makerSide, priceMicros: makerPrice, size: SIZE }));
  return matchOf(takerOrder, makerOrders);
}

/** Gas and calldata bytes of one matchOrders. */
async function matchCost(chain: ExchangeChain, { takerOrder, makerOrders, takerFillAmount, makerFillAmounts }: MatchArgs): Promise<{ gas: bigint; bytes: bigint }> {
  const receipt = await chain.match(takerOrder, [...makerOrders], takerFillAmount, [...makerFillAmounts]);
  const { input } = await chain.publicClient.getTransaction({ hash: receipt.transactionHash });
  return { gas: receipt.gasUsed, bytes: BigInt((input.length - 2) / 2) };
}

/** Total gas of `n` single-maker COMPLEMENTARY matches of type 0 orders sent one by one, and of the same matches in one batch from the same state. */
async function batchCost(chain: ExchangeChain, market: Market, n: number): Promise<{ separate: bigint; batched: bigint; batchBytes: bigint }> {
  const matches: MatchArgs[] = [];
  for (let i = 0; i < n; i++) matches.push(await matchArgs(chain, market, 'COMPLEMENTARY', 1, 'EOA'));
  const snapshot = await chain.anvil.testClient.snapshot();
  let separate = 0n;
  for (const match of matches) separate += (await matchCost(chain, match)).gas;
  await chain.anvil.testClient.revert({ id: snapshot });
  const receipt = await chain.matchBatch(matches);
  const { input } = await chain.publicClient.getTransaction({ hash: receipt.transactionHash });
  return { separate, batched: receipt.gasUsed, batchBytes: BigInt((input.length - 2) / 2) };
}

async function walletDeployGas(chain: ExchangeChain): Promise<bigint> {
  const owner = privateKeyToAccount(keccak256(toHex('gas bench wallet owner')));
  const hash = await chain.anvil.walletClient(chain.operator).writeContract({ address: chain.contracts.proxyWalletFactory, abi: ABIS.factory, functionName: 'deployWallet', args: [owner.address], chain: chain.anvil.chain });
  return (await chain.publicClient.waitForTransactionReceipt({ hash })).gasUsed;
}

function kilo(gas: bigint): string {
  return `${(Number(gas) / 1000).toFixed(1)}k`;
}

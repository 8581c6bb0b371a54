import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { bytesToHex, getAddress, type Address, type Hex } from 'viem';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { getCollectionId, getConditionId, getPositionId, topLevelPositionId } from '../../src/settlement/ctf-ids.ts';
import { startAnvil, type Anvil } from '../helpers/anvil.ts';

const ctf = loadArtifact('ConditionalTokens');
const randomHex = (bytes: number) => bytesToHex(randomBytes(bytes));
const randomAddress = () => getAddress(randomHex(20));
const ZERO: Hex = `0x${'0'.repeat(64)}`;

// The ids of src/settlement/ctf-ids.ts against ConditionalTokens 1.0.3's own view functions, deployed from its published bytecode.
describe('ConditionalTokens ids in TypeScript', () => {
  let anvil: Anvil;
  let address: Address;
  const view = async <T>(functionName: string, args: readonly unknown[]) => (await anvil.publicClient.readContract({ address, abi: ctf.abi, functionName, args })) as T;

  before(async () => {
    anvil = await startAnvil();
    const hash = await anvil.walletClient(anvil.account(0)).deployContract({ abi: ctf.abi, bytecode: ctf.bytecode, args: [], chain: anvil.chain });
    address = (await anvil.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
  });
  after(() => anvil.stop());

  it('equal the contract on random oracles, questions, conditions, index sets and collaterals', async () => {
    for (let round = 0; round < 40; round++) {
      const oracle = randomAddress();
      const questionId = randomHex(32);
      const slots = BigInt(2 + (round % 255));
      const conditionId = getConditionId(oracle, questionId, slots);
      assert.equal(conditionId, await view<Hex>('getConditionId', [oracle, questionId, slots]));
      const indexSet = BigInt(randomHex(2)) + 1n;
      const collectionId = getCollectionId(ZERO, conditionId, indexSet);
      assert.equal(collectionId, await view<Hex>('getCollectionId', [ZERO, conditionId, indexSet]), `round ${round}`);
      const collateral = randomAddress();
      assert.equal(getPositionId(collateral, collectionId), await view<bigint>('getPositionId', [collateral, collectionId]));
      assert.equal(topLevelPositionId(collateral, conditionId, indexSet), getPositionId(collateral, collectionId));
    }
  });

  it('add a parent collection as the contract does (elliptic-curve addition), and refuse an invalid parent as it reverts', async () => {
    let parent = getCollectionId(ZERO, randomHex(32), 1n);
    let invalidParents = 0;
    for (let round = 0; round < 40; round++) {
      const conditionId = randomHex(32);
      const indexSet = BigInt(1 + (round % 7));
      const child = getCollectionId(parent, conditionId, indexSet);
      assert.equal(child, await view<Hex>('getCollectionId', [parent, conditionId, indexSet]), `round ${round}`);
      parent = child;
      // A random 32-byte value is a valid parent only when its x lands on the curve.
      const random = randomHex(32);
      let mine: Hex | Error;
      try {
        mine = getCollectionId(random, conditionId, indexSet);
      } catch (error) {
        mine = error as Error;
      }
      const chain = await view<Hex>('getCollectionId', [random, conditionId, indexSet]).catch((error: Error) => error);
      if (mine instanceof Error) {
        invalidParents++;
        assert.ok(chain instanceof Error, `round ${round}: the contract accepted a parent TypeScript refused`);
      } else assert.equal(mine, chain, `round ${round}`);
    }
    assert.ok(invalidParents > 0, 'some random parents are invalid');
  });

  it('combine collections in either order (the point of the curve form)', () => {
    const [first, second] = [randomHex(32), randomHex(32)];
    const top = (conditionId: Hex) => getCollectionId(ZERO, conditionId, 1n);
    assert.equal(getCollectionId(top(first), second, 1n), getCollectionId(top(second), first, 1n));
  });
});

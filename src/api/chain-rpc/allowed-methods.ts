/**
 * What /rpc passes to the local chain: what a wallet needs to read the chain, estimate and price a
 * transaction, and send one it signed itself. Everything else is refused, by name: anvil's and
 * hardhat's control methods (minting ether, impersonating, rewriting state, mining, snapshots),
 * evm_*, debug_* and trace_* (unbounded work), eth_sendTransaction and eth_sign* and personal_*
 * (they would sign with the node's unlocked accounts), txpool_* and filters (state held per caller).
 */
export const ALLOWED_RPC_METHODS: ReadonlySet<string> = new Set([
  'eth_chainId',
  'net_version',
  'net_listening',
  'web3_clientVersion',
  'eth_syncing',
  'eth_blockNumber',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_blobBaseFee',
  'eth_estimateGas',
  'eth_call',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockReceipts',
  'eth_getTransactionByHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionReceipt',
  'eth_getLogs',
  'eth_sendRawTransaction',
]);

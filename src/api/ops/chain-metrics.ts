import { Gauge, type Registry } from 'prom-client';
import { formatEther, formatGwei } from 'viem';
import { chainRpcUrl, gasPayers, readChainHealth, type ChainHealth, type RunningChain } from '../../chain/index.ts';
import type { Config } from '../../config.ts';

/** How long a scrape waits for the chain before it reports it down. */
const CHAIN_WAIT_MS = 2_000;
/** One look at the chain serves every gauge of one scrape (they are collected one after the other). */
const LOOK_REUSED_MS = 1_000;

/**
 * The chain in /metrics, read when scraped (nothing for CHAIN=none): whether it answers, its head,
 * its gas price beside the most settlement may pay (MAX_FEE_PER_GAS_GWEI), and the native balance
 * of each account that pays the exchange's gas. A settlement key out of gas, or a chain asking more
 * than the cap, leaves every trade MATCHED, so operators alert on these (ops/prometheus/alerts.yml).
 */
export function registerChainMetrics(registry: Registry, chain: RunningChain, config: Config): void {
  const payers = gasPayers(chain, config);
  if (payers.length === 0) return;
  let look: { at: number; health: Promise<ChainHealth | undefined> } | undefined;
  const health = (): Promise<ChainHealth | undefined> => {
    const now = performance.now();
    if (look === undefined || now - look.at > LOOK_REUSED_MS) {
      const url = chainRpcUrl(chain, config);
      look = { at: now, health: url === undefined ? Promise.resolve(undefined) : readChainHealth(url, payers, CHAIN_WAIT_MS).catch(() => undefined) };
    }
    return look.health;
  };
  const registers = [registry];
  new Gauge({
    name: 'pmx_chain_up', help: `1 when the chain answered this scrape within ${CHAIN_WAIT_MS / 1000} s`, registers,
    async collect() {
      this.set((await health()) === undefined ? 0 : 1);
    },
  });
  new Gauge({
    name: 'pmx_chain_block_number', help: "The chain's latest block seen (the last one while it does not answer)", registers,
    async collect() {
      const seen = await health();
      if (seen) this.set(Number(seen.blockNumber));
    },
  });
  new Gauge({
    name: 'pmx_chain_gas_price_gwei', help: 'What the chain asks per gas (eth_gasPrice; the last one seen while the chain does not answer)', registers,
    async collect() {
      const seen = await health();
      if (seen) this.set(Number(formatGwei(seen.gasPriceWei)));
    },
  });
  new Gauge({
    name: 'pmx_chain_max_fee_per_gas_gwei', help: 'The most a settlement transaction may pay per gas (MAX_FEE_PER_GAS_GWEI; +Inf when unset)', registers,
    collect() {
      this.set(config.maxFeePerGasWei === undefined ? Number.POSITIVE_INFINITY : Number(formatGwei(config.maxFeePerGasWei)));
    },
  });
  new Gauge({
    name: 'pmx_chain_gas_balance', help: "Native currency (ether units) of each account that pays the exchange's gas (absent while the chain does not answer)", labelNames: ['account', 'address'] as const, registers,
    async collect() {
      this.reset();
      for (const { account, address, wei } of (await health())?.balances ?? []) this.set({ account, address }, Number(formatEther(wei)));
    },
  });
}

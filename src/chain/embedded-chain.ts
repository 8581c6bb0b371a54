import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { ConfigError } from '../config.ts';
import { lockDataDir, type DataDirLock } from '../data-dir-lock.ts';
import { startAnvil, type AnvilExit, type AnvilOptions, type AnvilProcess } from './anvil-process.ts';
import { chainFilesIn, promoteLastDump, readDeployment, readRecord, removeChain, seedFromTemplate, writeDeployment, type ChainFiles } from './chain-files.ts';
import { deployExchangeContracts, type ChainDeployment, type DeployedContracts } from './deployment.ts';
import { callJsonRpc } from './json-rpc.ts';

export interface EmbeddedChainOptions {
  readonly chainId: number;
  /** EXCHANGE_NAME: the order domain the exchanges are deployed under (a template made under another is not used). */
  readonly exchangeName: string;
  /** The server's data directory; `memory://` keeps nothing, and the chain starts from the template each time. */
  readonly dataDir: string;
  /** The build's template (chain-template.ts); when its files are missing, a new chain deploys at its first boot. */
  readonly template: ChainFiles;
  readonly logger: Logger;
  /** Seconds between two dumps of the state (anvil's --state-interval): what a kill -9 of anvil may lose. */
  readonly stateIntervalS?: number;
}

export interface EmbeddedChainEvents {
  /** Anvil answers again after it died; `url` is where (the same port when it was free). */
  ready: [url: string];
  /** Anvil exited while the server ran; a restart is under way. */
  down: [exit: AnvilExit];
}

/** A process that stayed up this long ends a run of crashes: the next restart is immediate again. */
const STABLE_AFTER_MS = 30_000;
const MAX_RESTART_DELAY_MS = 10_000;

/** The wait before the `attempt`-th restart of a run of crashes: none, then 250 ms doubling to 10 s. */
export function restartDelayMs(attempt: number): number {
  return attempt === 0 ? 0 : Math.min(250 * 2 ** (attempt - 1), MAX_RESTART_DELAY_MS);
}

/**
 * The local chain of CHAIN=embedded: an anvil child process on a loopback port, its state in
 * `<data dir>/chain/` (chain-files.ts), dumped every `stateIntervalS` and on exit. If anvil dies while the
 * server runs it is started again from that state, with backoff; `ready` says whether it answers
 * now (/rpc answers 503 while it does not), and the `down` and `ready` events say when it died and
 * answers again (tests wait on them; settlement does not: its senders keep looking at the chain).
 */
export class EmbeddedChain extends EventEmitter<EmbeddedChainEvents> {
  private anvil: AnvilProcess;
  private isReady = true;
  private closing = false;
  private restarting: Promise<void> | undefined;
  /** Ends the wait before a restart at once: a closing chain does not sit out its backoff. */
  private wake: (() => void) | undefined;
  private crashRun = 0;
  private startedAtMs = performance.now();

  private constructor(
    anvil: AnvilProcess,
    private readonly launch: Launch,
    readonly deployment: ChainDeployment,
    private readonly logger: Logger,
    private readonly lock: DataDirLock | undefined,
  ) {
    super();
    this.anvil = anvil;
    this.watch(anvil);
  }

  /** Starts the chain, making it from the template (or by deploying) when the data directory has none. */
  static async start(options: EmbeddedChainOptions): Promise<EmbeddedChain> {
    // The chain's files are this process's while it runs (another anvil over them would overwrite them).
    const lock = options.dataDir.startsWith('memory://') ? undefined : lockDataDir(options.dataDir);
    let anvil: AnvilProcess | undefined;
    try {
      const { launch, deployment } = prepare(options);
      anvil = await startWithRetry(launch.options());
      const deployed = deployment ?? (await deployInto(anvil, options));
      await checkDeployed(anvil.url, deployed.contracts);
      return new EmbeddedChain(anvil, launch, deployed, options.logger, lock);
    } catch (error) {
      await anvil?.stop();
      lock?.release();
      throw error;
    }
  }

  /** http://127.0.0.1:port of the running anvil. */
  get url(): string {
    return this.anvil.url;
  }

  /** The pid of the running anvil process. */
  get pid(): number {
    return this.anvil.pid;
  }

  /** Whether anvil answers now (false from its death until its restart answers). */
  get ready(): boolean {
    return this.isReady;
  }

  /** Stops anvil, which dumps its state; a restart under way is finished first, so no anvil is left behind. */
  async close(): Promise<void> {
    this.closing = true;
    this.wake?.();
    await this.restarting;
    this.isReady = false;
    await this.anvil.stop();
    this.lock?.release();
  }

  private watch(anvil: AnvilProcess): void {
    void anvil.exited.then((exit) => {
      if (this.closing || anvil !== this.anvil) return;
      this.isReady = false;
      this.emit('down', exit);
      this.logger.warn({ exit }, `the embedded chain (anvil, pid ${anvil.pid}) exited unexpectedly: restarting it from ${this.launch.from}`);
      this.restarting = this.restart().finally(() => {
        this.restarting = undefined;
      });
    });
  }

  private async restart(): Promise<void> {
    if (performance.now() - this.startedAtMs > STABLE_AFTER_MS) this.crashRun = 0;
    while (!this.closing) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, restartDelayMs(this.crashRun++));
      });
      if (this.closing) return;
      const startedAt = performance.now();
      try {
        // The same port first, so clients holding the chain's URL reach it again.
        const anvil = await startWithRetry({ ...this.launch.options(), port: this.anvil.port });
        this.anvil = anvil;
        this.startedAtMs = performance.now();
        this.isReady = true;
        this.watch(anvil);
        this.logger.info(`the embedded chain answers again at ${anvil.url} (anvil pid ${anvil.pid}), restarted in ${Math.round(performance.now() - startedAt)} ms`);
        this.emit('ready', anvil.url);
        return;
      } catch (error) {
        this.logger.error({ err: error }, 'the embedded chain did not restart; trying again');
      }
    }
  }
}

/** How anvil is started, each time: its options (read anew, as the state to load may change between starts) and where its state comes from. */
interface Launch {
  options(): AnvilOptions;
  readonly from: string;
}

/** How to launch anvil, and the deployment already recorded (undefined: the chain is new and deploys once started). */
function prepare(options: EmbeddedChainOptions): { launch: Launch; deployment: ChainDeployment | undefined } {
  const base = { chainId: options.chainId, stateIntervalS: options.stateIntervalS };
  const { template } = options;
  const hasTemplate = existsSync(template.stateFile) && existsSync(template.deploymentFile) && readDeployment(template.deploymentFile).exchangeName === options.exchangeName;
  if (options.dataDir.startsWith('memory://')) {
    const launch = hasTemplate ? { options: () => ({ ...base, loadStateFile: template.stateFile }), from: 'the template (an in-memory chain keeps nothing)' } : { options: () => base, from: 'genesis (an in-memory chain keeps nothing)' };
    return { launch, deployment: hasTemplate ? readDeployment(template.deploymentFile) : undefined };
  }
  const files = chainFilesIn(options.dataDir);
  const launch = {
    options: (): AnvilOptions => {
      if (promoteLastDump(files) === 'torn') options.logger.error(`the chain's last state dump was torn (anvil died while writing it; kept as ${files.tornFile}): the chain starts from the dump before it, and settlement resends what it lost`);
      return { ...base, ...(existsSync(files.stateFile) ? { loadStateFile: files.stateFile } : {}), dumpStateFile: files.dumpFile };
    },
    from: `its last whole state dump in ${dirname(files.stateFile)}`,
  };
  const record = readRecord(files);
  if (record !== undefined) {
    if (record.chainId !== options.chainId) throw new ConfigError(`the chain in ${dirname(files.stateFile)} runs under chain id ${record.chainId}, not CHAIN_ID=${options.chainId}: set CHAIN_ID=${record.chainId}, or use another DATA_DIR`);
    return { launch, deployment: record };
  }
  removeChain(files);
  return { launch, deployment: hasTemplate ? seedFromTemplate(files, template, options.chainId) : undefined };
}

/** A chain made without the build's template deploys its contracts now, and records them if it persists. */
async function deployInto(anvil: AnvilProcess, options: EmbeddedChainOptions): Promise<ChainDeployment> {
  options.logger.info(`no chain template for EXCHANGE_NAME "${options.exchangeName}" was built (npm run build makes dist/chain-template.json, under the default name): deploying the contracts now`);
  const deployment = await deployExchangeContracts(anvil.url, options.chainId, options.exchangeName);
  if (!options.dataDir.startsWith('memory://')) writeDeployment(chainFilesIn(options.dataDir).deploymentFile, { chainId: options.chainId, ...deployment });
  return deployment;
}

const DEPLOYED_ROLES = ['conditionalTokens', 'collateral', 'exchange', 'negRiskExchange', 'proxyWalletFactory', 'proxyWalletImplementation'] as const;

/** A recorded address without code means the state lost its contracts: refuse rather than settle against nothing. */
async function checkDeployed(url: string, contracts: DeployedContracts): Promise<void> {
  for (const role of DEPLOYED_ROLES) {
    const address = contracts[role];
    const code = await callJsonRpc<string>(url, 'eth_getCode', [address, 'latest']);
    if (code === '0x') throw new Error(`the embedded chain has no ${role} contract at ${address}, where its deployment record says it is`);
  }
}

/** Anvil on the given port, or on one it chooses when that one is taken meanwhile; three tries. */
async function startWithRetry(options: AnvilOptions): Promise<AnvilProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startAnvil(attempt === 1 ? options : { ...options, port: undefined });
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

import { existsSync, readFileSync } from 'node:fs';
import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';
import { availableParallelism } from 'node:os';
import { parseGwei } from 'viem';
import { parseUnits } from './core/money.ts';

/**
 * The server's configuration, parsed once at boot (EXTENSIONS.md section 10).
 * Sources, weakest first: defaults, a `.env` file, the environment, `--name=value` flags.
 * Any invalid value throws a ConfigError naming the variable; the CLI prints it and exits.
 */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly adminToken: string | undefined;
  readonly jwtSecret: string | undefined;
  /** AES-256-GCM key for API-key secrets at rest, normalised to 64 lowercase hex digits. */
  readonly apiKeyEncryptionKey: string | undefined;
  readonly headerPrefix: string;
  readonly chainId: number;
  readonly exchangeName: string;
  readonly exchangeAddress: `0x${string}`;
  readonly negRiskExchangeAddress: `0x${string}`;
  readonly collateralAddress: `0x${string}`;
  readonly conditionalTokensAddress: `0x${string}`;
  /** The oracle (resolution adapter) address that conditions are prepared for. */
  readonly oracleAddress: `0x${string}`;
  /**
   * CHAIN (EXTENSIONS.md section 14): where trades settle. `none`: the simulated settlement layer;
   * `embedded`: an anvil the server starts, its state in the data directory, its contracts deployed
   * from the build's template (their addresses replace the four address variables); `rpc`: any EVM
   * at CHAIN_RPC_URL, with OPERATOR_KEY, the two settlement keys and the four deployed addresses
   * configured (`pmx deploy` prints them).
   */
  readonly chain: ChainKind;
  /**
   * CHAIN is unset and nothing else decides it (no contract address configured): `chain` is then
   * the default, `embedded`, which the boot settles against the store (src/chain-choice.ts): a
   * store keeps the kind it ran on, and one made on `none` before the default changed stays there.
   */
  readonly chainByDefault: boolean;
  /** CHAIN_RPC_URL: the JSON-RPC endpoint of CHAIN=rpc (it may carry a provider's key: never published). */
  readonly chainRpcUrl: string | undefined;
  /**
   * OPERATOR_KEY: the private key of the operator's own transactions (market preparation, funding,
   * wallet relaying), 0x and 64 hex digits; required by CHAIN=rpc.
   */
  readonly operatorKey: `0x${string}` | undefined;
  /**
   * SETTLEMENT_KEY and NEG_RISK_SETTLEMENT_KEY (CHAIN=rpc): the keys that send the trades of the
   * exchange and of the neg-risk exchange, each an operator of its exchange; distinct from each
   * other and from OPERATOR_KEY, since each is one sender's nonce pipeline.
   */
  readonly settlementKeys: { readonly exchange: `0x${string}`; readonly negRisk: `0x${string}` } | undefined;
  /** PROXY_WALLET_FACTORY_ADDRESS (CHAIN=rpc, optional): the factory the exchange must name; the boot reads it from the exchange either way. */
  readonly proxyWalletFactoryAddress: `0x${string}` | undefined;
  /** CONFIRMATIONS: blocks after inclusion before a trade is CONFIRMED. */
  readonly confirmations: number;
  /**
   * SETTLEMENT_GATHER_MS: a settlement transaction that is not full (100 matches) leaves at most
   * once every this many milliseconds per exchange, taking the matches made meanwhile: fewer,
   * larger transactions (each costs the server and the chain a simulation, a signature, a journal
   * record, receipts and a block, and on a public chain the first fill's gas) for at most this much
   * more time from MATCHED to MINED. 0 sends whatever waits at every step.
   */
  readonly settlementGatherMs: number;
  /**
   * MAX_FEE_PER_GAS_GWEI (in wei here): no transaction of the exchange's (settlement's, the
   * operator's) is signed at a higher `maxFeePerGas`; unset, only the market's estimate (three
   * times it, for replacements) bounds it.
   */
  readonly maxFeePerGasWei: bigint | undefined;
  /**
   * WITHDRAW_MIN_USDC (in base units here): the least a withdrawal may move. Each one the operator
   * relays costs it gas, so on CHAIN=rpc the default is 1 USDC; 0 (none) on the other chains.
   */
  readonly withdrawMinBaseUnits: bigint;
  /**
   * WALLET_RELAYS_PER_HOUR: how many requests that have the operator relay a transaction for one
   * wallet (withdraw, split, merge, redeem) may start in any rolling hour, whatever the chain then
   * answers, across nodes with REDIS_URL; 0, no limit. Each relay costs the operator gas, and a
   * split and merge in a loop cost the user nothing, so on CHAIN=rpc the default is 60; 0 on the
   * other chains.
   */
  readonly walletRelaysPerHour: number;
  readonly clock: 'real' | 'manual';
  readonly faucetEnabled: boolean;
  readonly hmacWindowMs: number;
  readonly positionBatchMax: number;
  readonly tradeActivityMinUsd: number;
  readonly rewardsMinPayoutUsdc: number;
  readonly logLevel: string;
  /** Worker threads that verify order signatures; 0 verifies on the main thread. Default: CPUs. */
  readonly signatureWorkers: number;
  /** Reference prices of price-target markets (EXTENSIONS.md section 13): who gives them, and where. */
  readonly priceFeed: 'manual' | 'pyth' | 'binance';
  /** Base URL of the pyth (Hermes) or binance API; required by those two, unused by manual. */
  readonly priceFeedUrl: string | undefined;
  /** SETTLEMENT_BLOCK_MS: least time between two settlement rounds (blocks) of the embedded settlement. */
  readonly settlementBlockMs: number;
  /** Several nodes (EXTENSIONS.md section 12): how long the engine's node may be silent before another takes over. */
  readonly failoverTimeoutMs: number;
  /** With DATABASE_URL: the longest the server waits for PostgreSQL, for a connection or a statement's answer (src/store/database.ts). */
  readonly databaseTimeoutMs: number;
  /** Where the other nodes send this node order commands while it runs the engine; default http://HOST:PORT. */
  readonly advertiseUrl: string | undefined;
  // Security (EXTENSIONS.md sections 2, 10 and 12; README "Security").
  /**
   * PUBLIC_URL: the exchange's public origins (`https://exchange.example`), lower case, without a
   * path; sign-in messages must name one (EXTENSIONS.md section 2). Empty: the origins the server
   * listens on (`http://localhost:PORT`, `http://127.0.0.1:PORT`, ADVERTISE_URL).
   */
  readonly publicUrls: readonly string[];
  /** SIWE_DOMAINS: more sign-in hosts (`host` or `host:port`) accepted besides PUBLIC_URL's, lower case. */
  readonly siweDomains: readonly string[];
  /** API_KEY_ENCRYPTION_KEY_PREVIOUS: the key being rotated out, still accepted to decrypt (64 hex digits). */
  readonly apiKeyEncryptionKeyPrevious: string | undefined;
  /** RATE_LIMIT_ORDERS: order commands (create, batch items, cancels) per API key; empty when off. */
  readonly rateLimitOrders: readonly RateWindow[];
  /** RATE_LIMIT_REQUESTS: every other request per API key or session; empty when off. */
  readonly rateLimitRequests: readonly RateWindow[];
  /** RATE_LIMIT_PUBLIC: requests without user credentials per client address (default 1000/10s); empty when off. */
  readonly rateLimitPublic: readonly RateWindow[];
  /**
   * TRUST_PROXY: the reverse proxies in front, as a hop count (0: none) or the proxies' addresses
   * (IPs or CIDR ranges). The client is the rightmost address of X-Forwarded-For not added by a
   * trusted proxy (`clientAddressOf`).
   */
  readonly trustProxy: TrustProxy;
  /** SOCKETS_PER_ADDRESS: open Socket.IO connections per client address; 0 is no bound. */
  readonly socketsPerAddress: number;
  /** BOOK_FRAME_MS: the least time between two publications of a book's changes to its subscribers; 0 publishes every batch's. */
  readonly bookFrameMs: number;
  /** ALLOW_GENERATED_KEYS (`--allow-generated-keys`): on PostgreSQL, generate missing JWT_SECRET and API_KEY_ENCRYPTION_KEY into the database instead of refusing to start. */
  readonly allowGeneratedKeys: boolean;
  /** REQUEST_TIMEOUT_MS: how long a client may take to send a whole request (headers and body); then 408. */
  readonly requestTimeoutMs: number;
  /** API_KEYS_PER_USER: unrevoked API keys one user may hold. */
  readonly apiKeysPerUser: number;
}

/** TRUST_PROXY: how many proxies stand in front (`hops`), or which addresses are proxies. */
export type TrustProxy = { readonly hops: number } | { readonly addresses: readonly string[] };

/**
 * Whether the hop `hop` away from this server (0: the socket's peer, 1: the rightmost
 * X-Forwarded-For entry, ...) at `address` is a trusted proxy: Fastify's `trustProxy` function.
 */
export function proxyTrust(trust: TrustProxy): (address: string, hop: number) => boolean {
  if ('hops' in trust) return (_address, hop) => hop < trust.hops;
  const proxies = new BlockList();
  for (const entry of trust.addresses) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits === undefined) proxies.addAddress(address, type);
    else proxies.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    const plain = address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
    return isIP(plain) !== 0 && proxies.check(plain, isIPv6(plain) ? 'ipv6' : 'ipv4');
  };
}

/**
 * The client's address: walking from the socket's peer leftwards through X-Forwarded-For, the
 * first address not of a trusted proxy (the rightmost untrusted one). Entries a client wrote
 * itself sit left of what the trusted proxies appended, so they are never reached.
 */
export function clientAddressOf(socketAddress: string, forwardedFor: string | string[] | undefined, trust: (address: string, hop: number) => boolean): string {
  const chain = [socketAddress, ...(Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor ?? '').split(',').map((entry) => entry.trim()).filter(Boolean).reverse()];
  for (let hop = 0; hop < chain.length - 1; hop++) if (!trust(chain[hop]!, hop)) return chain[hop]!;
  return chain[chain.length - 1]!;
}

/** One rate-limit window: at most `limit` units per `windowMs`. */
export interface RateWindow {
  readonly limit: number;
  readonly windowMs: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Source = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The EIP-712 domain name of orders when EXCHANGE_NAME is unset (the embedded chain's template is deployed under it). */
export const DEFAULT_EXCHANGE_NAME = 'PMX Exchange';

/** Fixed default contract addresses of the embedded deployment (any 20-byte values would do). */
const DEFAULT_ADDRESSES = {
  EXCHANGE_ADDRESS: '0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E',
  NEG_RISK_EXCHANGE_ADDRESS: '0xC5d563A36AE78145C45a50134d48A1215220f80a',
  COLLATERAL_ADDRESS: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174',
  CONDITIONAL_TOKENS_ADDRESS: '0x4D97DCd97eC945f40cF65F87097ACe5EA0476045',
  ORACLE_ADDRESS: '0x6A9D222616C90FcA5754cd1333cFD9b7fb6a4F74',
} as const;

type SourceOptions = { env?: Source; argv?: string[]; envFile?: string };

export function loadConfig(options: SourceOptions = {}): Config {
  return parseConfig(sourceOf(options));
}

/**
 * The configured URLs that may hold a secret (src/log-redaction.ts), read from the sources every
 * command reads and nothing else checked: the CLI redacts an error with them whichever command
 * failed, even one whose configuration is otherwise invalid. A value that is no URL is left out:
 * the commands that read it refuse it before anything calls it.
 */
export function configuredSecretUrls(options: SourceOptions = {}): Pick<Config, 'chainRpcUrl' | 'databaseUrl' | 'redisUrl'> {
  const read = readerOf(sourceOf(options));
  const url = (name: string) => {
    const value = read(name);
    return value !== undefined && URL.canParse(value) ? value : undefined;
  };
  return { chainRpcUrl: url('CHAIN_RPC_URL'), databaseUrl: url('DATABASE_URL'), redisUrl: url('REDIS_URL') };
}

/** The variables from every source, weakest first: the `.env` file, the environment, the flags. */
function sourceOf(options: SourceOptions): Source {
  const fromFile = options.envFile === undefined ? readEnvFile('.env') : readEnvFile(options.envFile);
  return { ...fromFile, ...(options.env ?? process.env), ...parseFlags(options.argv ?? []) };
}

/** A variable's value, trimmed; an empty one is unset. */
function readerOf(source: Source): (name: string) => string | undefined {
  return (name) => {
    const value = source[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
}

/** What `pmx deploy` reads: the chain it deploys to, the key that deploys (admin and operator), and the order domain name. */
export interface DeployTarget {
  readonly chainRpcUrl: string;
  readonly chainId: number;
  readonly operatorKey: `0x${string}`;
  readonly exchangeName: string;
  /** COLLATERAL_ADDRESS: a collateral token already on the chain (USDC on a public chain) to use instead of deploying a local one. */
  readonly collateralAddress?: `0x${string}`;
  /** CONDITIONAL_TOKENS_ADDRESS: a ConditionalTokens already on the chain to use instead of deploying one. */
  readonly conditionalTokensAddress?: `0x${string}`;
}

/**
 * CHAIN_RPC_URL, CHAIN_ID, OPERATOR_KEY and EXCHANGE_NAME for `pmx deploy`, checked as the server
 * checks them, and the existing contracts it may build on (COLLATERAL_ADDRESS, CONDITIONAL_TOKENS_ADDRESS).
 */
export function loadDeployTarget(options: SourceOptions = {}): DeployTarget {
  return parseDeployTarget(sourceOf(options));
}

function parseDeployTarget(source: Source): DeployTarget {
  const read = readerOf(source);
  // Every variable is read before a missing one is refused: deployVariables() learns them so.
  const chainRpcUrl = optionalUrl(read, 'CHAIN_RPC_URL', ['http:', 'https:']);
  const operatorKey = privateKey(read, 'OPERATOR_KEY');
  const chainId = chainIdOf(read);
  const exchangeName = read('EXCHANGE_NAME') ?? DEFAULT_EXCHANGE_NAME;
  const collateralAddress = optionalAddress(read, 'COLLATERAL_ADDRESS');
  const conditionalTokensAddress = optionalAddress(read, 'CONDITIONAL_TOKENS_ADDRESS');
  const missing = [...(chainRpcUrl ? [] : ['CHAIN_RPC_URL']), ...(operatorKey ? [] : ['OPERATOR_KEY'])];
  if (missing.length > 0) throw new ConfigError(`pmx deploy needs ${missing.join(' and ')}: the chain's JSON-RPC URL and the private key that deploys the contracts and becomes their admin and operator`);
  return { chainRpcUrl: chainRpcUrl!, operatorKey: operatorKey!, chainId, exchangeName, collateralAddress, conditionalTokensAddress };
}

/** The variables the server, `pmx migrate` and `pmx audit` read (PORT, DATA_DIR, ...), each also a flag (`--port`). */
export const configVariables = (): string[] => variablesReadBy(parseConfig);

/** The variables `pmx deploy` reads, each also a flag (`--chain-rpc-url`). */
export const deployVariables = (): string[] => variablesReadBy(parseDeployTarget);

/**
 * The variables `parse` reads, learnt from a parse of an empty source rather than listed again, so
 * the list cannot drift from what is read. A parse reads every variable before it refuses a missing one.
 */
function variablesReadBy(parse: (source: Source) => unknown): string[] {
  const asked = new Set<string>();
  const empty = new Proxy<Source>({}, {
    get(_target, name) {
      if (typeof name === 'string') asked.add(name);
      return undefined;
    },
  });
  try {
    parse(empty);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
  }
  return [...asked];
}

/** Every variable is read whatever the others say: configVariables() learns the flags from an empty source. */
export function parseConfig(source: Source): Config {
  const read = readerOf(source);
  const config: Config = {
    port: integer(read, 'PORT', 3000, 0, 65535),
    host: read('HOST') ?? '127.0.0.1',
    dataDir: read('DATA_DIR') ?? './data',
    databaseUrl: optionalUrl(read, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: optionalUrl(read, 'REDIS_URL', ['redis:', 'rediss:']),
    adminToken: minLength(read, 'ADMIN_TOKEN', 16),
    jwtSecret: minLength(read, 'JWT_SECRET', 32),
    apiKeyEncryptionKey: aes256Key(read, 'API_KEY_ENCRYPTION_KEY'),
    headerPrefix: matching(read, 'HEADER_PREFIX', 'svc', /^[a-z][a-z0-9-]{0,31}$/, 'lowercase letters, digits and dashes'),
    chainId: chainIdOf(read),
    exchangeName: read('EXCHANGE_NAME') ?? DEFAULT_EXCHANGE_NAME,
    exchangeAddress: address(read, 'EXCHANGE_ADDRESS'),
    negRiskExchangeAddress: address(read, 'NEG_RISK_EXCHANGE_ADDRESS'),
    collateralAddress: address(read, 'COLLATERAL_ADDRESS'),
    conditionalTokensAddress: address(read, 'CONDITIONAL_TOKENS_ADDRESS'),
    oracleAddress: address(read, 'ORACLE_ADDRESS'),
    ...chain(read),
    clock: oneOf(read, 'CLOCK', 'real', ['real', 'manual'] as const),
    faucetEnabled: boolean(read, 'FAUCET_ENABLED', false),
    hmacWindowMs: integer(read, 'HMAC_WINDOW_MS', 30_000, 1_000, 3_600_000),
    positionBatchMax: integer(read, 'POSITION_BATCH_MAX', 50, 1, 200),
    tradeActivityMinUsd: decimal(read, 'TRADE_ACTIVITY_MIN_USD', 0),
    rewardsMinPayoutUsdc: decimal(read, 'REWARDS_MIN_PAYOUT_USDC', 1),
    logLevel: oneOf(read, 'LOG_LEVEL', 'info', LOG_LEVELS),
    signatureWorkers: integer(read, 'SIGNATURE_WORKERS', availableParallelism(), 0, 64),
    settlementBlockMs: integer(read, 'SETTLEMENT_BLOCK_MS', 250, 0, 60_000),
    failoverTimeoutMs: integer(read, 'FAILOVER_TIMEOUT_MS', 5_000, 500, 600_000),
    databaseTimeoutMs: integer(read, 'DATABASE_TIMEOUT_MS', 30_000, 1_000, 600_000),
    advertiseUrl: optionalUrl(read, 'ADVERTISE_URL', ['http:', 'https:']),
    publicUrls: originList(read, 'PUBLIC_URL'),
    siweDomains: hostList(read, 'SIWE_DOMAINS'),
    apiKeyEncryptionKeyPrevious: aes256Key(read, 'API_KEY_ENCRYPTION_KEY_PREVIOUS'),
    rateLimitOrders: rateWindows(read, 'RATE_LIMIT_ORDERS', '3500/10s,36000/10m'),
    rateLimitRequests: rateWindows(read, 'RATE_LIMIT_REQUESTS', '5000/10s'),
    rateLimitPublic: rateWindows(read, 'RATE_LIMIT_PUBLIC', '1000/10s'),
    trustProxy: trustProxy(read, 'TRUST_PROXY'),
    socketsPerAddress: integer(read, 'SOCKETS_PER_ADDRESS', 1000, 0, 1_000_000),
    bookFrameMs: integer(read, 'BOOK_FRAME_MS', 50, 0, 1_000),
    apiKeysPerUser: integer(read, 'API_KEYS_PER_USER', 50, 1, 10_000),
    allowGeneratedKeys: boolean(read, 'ALLOW_GENERATED_KEYS', false),
    requestTimeoutMs: integer(read, 'REQUEST_TIMEOUT_MS', 30_000, 500, 600_000),
    ...priceFeed(read),
  };
  return Object.freeze(config);
}

/** The contracts a chain holds: configured for CHAIN=rpc, deployed by the server for CHAIN=embedded. */
const CONTRACT_ADDRESS_VARIABLES = ['EXCHANGE_ADDRESS', 'NEG_RISK_EXCHANGE_ADDRESS', 'COLLATERAL_ADDRESS', 'CONDITIONAL_TOKENS_ADDRESS'] as const;

/** secp256k1's group order: a private key is a whole number from 1 to n - 1. */
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** CHAIN_ID: the chain orders are signed for (the embedded chain's template is anvil's 31337). */
function chainIdOf(read: (n: string) => string | undefined): number {
  return integer(read, 'CHAIN_ID', 31337, 1, Number.MAX_SAFE_INTEGER);
}

/** What only CHAIN=rpc reads: the chain's URL, the keys that send on it, and the factory it may pin. */
const RPC_ONLY_VARIABLES = ['CHAIN_RPC_URL', 'SETTLEMENT_KEY', 'NEG_RISK_SETTLEMENT_KEY', 'PROXY_WALLET_FACTORY_ADDRESS'] as const;

const CHAIN_KINDS = ['none', 'embedded', 'rpc'] as const;
export type ChainKind = (typeof CHAIN_KINDS)[number];

/** CHAIN, CHAIN_RPC_URL, OPERATOR_KEY, the settlement keys and CONFIRMATIONS, and what each kind of chain needs of the others. */
function chain(read: (n: string) => string | undefined): Pick<Config, 'chain' | 'chainByDefault' | 'chainRpcUrl' | 'operatorKey' | 'settlementKeys' | 'proxyWalletFactoryAddress' | 'confirmations' | 'settlementGatherMs' | 'maxFeePerGasWei' | 'withdrawMinBaseUnits' | 'walletRelaysPerHour'> {
  // Unset, `embedded` (EXTENSIONS.md section 10), except that contract addresses configured without
  // CHAIN name the simulated layer's order domain, as they did before `embedded` was the default.
  const configuredAddresses = CONTRACT_ADDRESS_VARIABLES.filter((name) => read(name) !== undefined);
  const chainByDefault = read('CHAIN') === undefined && configuredAddresses.length === 0;
  const kind = oneOf(read, 'CHAIN', configuredAddresses.length > 0 ? 'none' : 'embedded', CHAIN_KINDS);
  const chainRpcUrl = optionalUrl(read, 'CHAIN_RPC_URL', ['http:', 'https:']);
  const operatorKey = privateKey(read, 'OPERATOR_KEY');
  const settlementKey = privateKey(read, 'SETTLEMENT_KEY');
  const negRiskSettlementKey = privateKey(read, 'NEG_RISK_SETTLEMENT_KEY');
  const proxyWalletFactoryAddress = optionalAddress(read, 'PROXY_WALLET_FACTORY_ADDRESS');
  const confirmations = integer(read, 'CONFIRMATIONS', 1, 0, 1_000);
  const settlementGatherMs = integer(read, 'SETTLEMENT_GATHER_MS', 500, 0, 60_000);
  const maxFeePerGasWei = gwei(read, 'MAX_FEE_PER_GAS_GWEI');
  if (kind === 'rpc') {
    const required = [['CHAIN_RPC_URL', chainRpcUrl], ['OPERATOR_KEY', operatorKey], ['SETTLEMENT_KEY', settlementKey], ['NEG_RISK_SETTLEMENT_KEY', negRiskSettlementKey]] as const;
    const missing = [...required.filter(([, value]) => value === undefined).map(([name]) => name), ...CONTRACT_ADDRESS_VARIABLES.filter((name) => read(name) === undefined)];
    if (missing.length > 0) throw new ConfigError(`CHAIN=rpc needs ${missing.join(', ')}: the chain's JSON-RPC URL, the operator's private key, a settlement key per exchange and the addresses of the deployed contracts (pmx deploy prints them)`);
    // Each key is one sender's nonce pipeline: two senders on one key would take each other's nonces.
    if (new Set([operatorKey, settlementKey, negRiskSettlementKey]).size < 3) throw new ConfigError('OPERATOR_KEY, SETTLEMENT_KEY and NEG_RISK_SETTLEMENT_KEY must be three different keys: each sends its own transactions with its own nonces');
  } else {
    const rpcOnly = RPC_ONLY_VARIABLES.filter((name) => read(name) !== undefined);
    if (rpcOnly.length > 0) throw new ConfigError(`${rpcOnly.join(', ')} ${rpcOnly.length > 1 ? 'are' : 'is'} for CHAIN=rpc; CHAIN is ${kind}`);
  }
  if (kind === 'embedded') {
    // A configured address beside the deployed one would sign orders for a contract that is not there.
    if (configuredAddresses.length > 0) throw new ConfigError(`CHAIN=embedded deploys its own contracts and uses their addresses: unset ${configuredAddresses.join(', ')} (they are for CHAIN=rpc or CHAIN=none)`);
  }
  const settlementKeys = settlementKey && negRiskSettlementKey ? { exchange: settlementKey, negRisk: negRiskSettlementKey } : undefined;
  const withdrawMinBaseUnits = usdcBaseUnits(read, 'WITHDRAW_MIN_USDC', kind === 'rpc' ? '1' : '0');
  const walletRelaysPerHour = integer(read, 'WALLET_RELAYS_PER_HOUR', kind === 'rpc' ? 60 : 0, 0, 1_000_000);
  return { chain: kind, chainByDefault, chainRpcUrl, operatorKey, settlementKeys, proxyWalletFactoryAddress, confirmations, settlementGatherMs, maxFeePerGasWei, withdrawMinBaseUnits, walletRelaysPerHour };
}

/** A secp256k1 private key as 0x and 64 hex digits; the message never repeats the value. */
/** Whether `raw` is a secp256k1 private key: 0x and 64 hex digits, neither zero nor past the curve's order. */
export function isPrivateKey(raw: string): raw is `0x${string}` {
  return /^0x[0-9a-fA-F]{64}$/.test(raw) && BigInt(raw) > 0n && BigInt(raw) < SECP256K1_ORDER;
}

function privateKey(read: (n: string) => string | undefined, name: string): `0x${string}` | undefined {
  const raw = read(name);
  if (raw === undefined) return undefined;
  if (!isPrivateKey(raw)) throw new ConfigError(`${name} must be a secp256k1 private key: 0x and 64 hex digits, not zero (the value is not repeated here)`);
  return raw.toLowerCase() as `0x${string}`;
}

/** PRICE_FEED and PRICE_FEED_URL: a pull feed (pyth, binance) needs the URL of its API. */
function priceFeed(read: (n: string) => string | undefined): Pick<Config, 'priceFeed' | 'priceFeedUrl'> {
  const feed = oneOf(read, 'PRICE_FEED', 'manual', ['manual', 'pyth', 'binance'] as const);
  const url = optionalUrl(read, 'PRICE_FEED_URL', ['http:', 'https:']);
  if (feed !== 'manual' && url === undefined) throw new ConfigError(`PRICE_FEED=${feed} needs PRICE_FEED_URL, the base URL of its API`);
  return { priceFeed: feed, priceFeedUrl: url };
}

function integer(read: (n: string) => string | undefined, name: string, fallback: number, min: number, max: number): number {
  const raw = read(name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${raw}`);
  return value;
}

function decimal(read: (n: string) => string | undefined, name: string, fallback: number): number {
  const raw = read(name);
  if (raw === undefined) return fallback;
  if (!/^\d+(\.\d{1,6})?$/.test(raw)) throw new ConfigError(`${name} must be a non-negative decimal with at most 6 decimals, got "${raw}"`);
  return Number(raw);
}

/** An amount of USDC as base units, read as the API reads amounts (core/money.ts). */
function usdcBaseUnits(read: (n: string) => string | undefined, name: string, fallback: string): bigint {
  const raw = read(name) ?? fallback;
  const units = parseUnits(raw);
  if (units === undefined) throw new ConfigError(`${name} must be a non-negative amount of USDC with at most 6 decimals, got "${raw}"`);
  return units;
}

/** A positive amount of gwei, to the wei (9 decimals), as wei. */
function gwei(read: (n: string) => string | undefined, name: string): bigint | undefined {
  const raw = read(name);
  if (raw === undefined) return undefined;
  const wei = /^\d+(\.\d{1,9})?$/.test(raw) ? parseGwei(raw) : 0n;
  if (wei === 0n) throw new ConfigError(`${name} must be a positive number of gwei with at most 9 decimals, got "${raw}"`);
  return wei;
}

function boolean(read: (n: string) => string | undefined, name: string, fallback: boolean): boolean {
  const raw = read(name);
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(read: (n: string) => string | undefined, name: string, fallback: T, values: readonly T[]): T {
  const raw = read(name);
  if (raw === undefined) return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

function matching(read: (n: string) => string | undefined, name: string, fallback: string, pattern: RegExp, what: string): string {
  const raw = read(name);
  if (raw === undefined) return fallback;
  if (!pattern.test(raw)) throw new ConfigError(`${name} must be ${what}, got "${raw}"`);
  return raw;
}

function minLength(read: (n: string) => string | undefined, name: string, min: number): string | undefined {
  const raw = read(name);
  if (raw !== undefined && raw.length < min) throw new ConfigError(`${name} must be at least ${min} characters long`);
  return raw;
}

/** A 32-byte key given as 64 hex digits or as base64 (standard or url-safe alphabet). */
function aes256Key(read: (n: string) => string | undefined, name: string): string | undefined {
  const raw = read(name);
  if (raw === undefined) return undefined;
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return raw.toLowerCase();
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(raw)) {
    const bytes = Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return bytes.toString('hex');
  }
  throw new ConfigError(`${name} must be 32 bytes, as 64 hex digits or base64`);
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `off`, or comma-separated `count/duration` windows such as `3500/10s,36000/10m` (units ms, s, m, h). */
function rateWindows(read: (n: string) => string | undefined, name: string, fallback: string): RateWindow[] {
  const raw = read(name) ?? fallback;
  if (raw.toLowerCase() === 'off') return [];
  return raw.split(',').map((part) => {
    const match = /^\s*(\d{1,9})\s*\/\s*(\d{1,6})\s*(ms|s|m|h)\s*$/.exec(part);
    const limit = Number(match?.[1]);
    const windowMs = Number(match?.[2]) * (DURATION_UNITS_MS[match?.[3] ?? ''] ?? Number.NaN);
    if (!match || limit < 1 || !(windowMs >= 1_000) || windowMs > 86_400_000) {
      throw new ConfigError(`${name} must be "off" or windows like 3500/10s,36000/10m (1 s to 24 h), got "${raw}"`);
    }
    return { limit, windowMs };
  });
}

/** `false`/`0` (none), `true` (one proxy), a hop count, or comma-separated proxy IPs and CIDR ranges. */
function trustProxy(read: (n: string) => string | undefined, name: string): TrustProxy {
  const raw = read(name);
  if (raw === undefined || ['false', '0', 'no'].includes(raw.toLowerCase())) return { hops: 0 };
  if (['true', 'yes'].includes(raw.toLowerCase())) return { hops: 1 };
  if (/^\d{1,2}$/.test(raw)) return { hops: Number(raw) };
  const addresses = raw.split(',').map((entry) => entry.trim());
  for (const entry of addresses) {
    const [address, bits, extra] = entry.split('/');
    const version = isIP(address ?? '');
    const maxBits = version === 6 ? 128 : 32;
    if (version === 0 || extra !== undefined || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits))) {
      throw new ConfigError(`${name} must be false, true, a hop count or comma-separated proxy addresses (IPs or CIDR ranges), got "${entry}"`);
    }
  }
  return { addresses };
}

/** Comma-separated host names (optionally with a port), compared in lower case. */
function hostList(read: (n: string) => string | undefined, name: string): string[] {
  const raw = read(name);
  if (raw === undefined) return [];
  return raw.split(',').map((entry) => {
    const host = entry.trim().toLowerCase();
    if (!/^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/.test(host)) throw new ConfigError(`${name} must be comma-separated host names (host or host:port), got "${entry.trim()}"`);
    return host;
  });
}

/** Comma-separated http(s) origins (`https://exchange.example`, a port if not the default one); paths are refused. */
function originList(read: (n: string) => string | undefined, name: string): string[] {
  const raw = read(name);
  if (raw === undefined) return [];
  return raw.split(',').map((entry) => {
    let url: URL;
    try {
      url = new URL(entry.trim());
    } catch {
      throw new ConfigError(`${name} must be comma-separated origins such as https://exchange.example, got "${entry.trim()}"`);
    }
    if (!['http:', 'https:'].includes(url.protocol) || url.username !== '' || url.password !== '' || (url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
      throw new ConfigError(`${name} must be comma-separated http(s) origins without a path, such as https://exchange.example, got "${entry.trim()}"`);
    }
    return url.origin;
  });
}

function address(read: (n: string) => string | undefined, name: keyof typeof DEFAULT_ADDRESSES): `0x${string}` {
  const raw = read(name) ?? DEFAULT_ADDRESSES[name];
  if (!ADDRESS.test(raw)) throw new ConfigError(`${name} must be a 20-byte hex address, got "${raw}"`);
  return raw as `0x${string}`;
}

function optionalAddress(read: (n: string) => string | undefined, name: string): `0x${string}` | undefined {
  const raw = read(name);
  if (raw !== undefined && !ADDRESS.test(raw)) throw new ConfigError(`${name} must be a 20-byte hex address, got "${raw}"`);
  return raw as `0x${string}` | undefined;
}

function optionalUrl(read: (n: string) => string | undefined, name: string, protocols: string[]): string | undefined {
  const raw = read(name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not repeated: a URL that does not parse may still hold a password or a provider's key, and the message is printed and logged.
    throw new ConfigError(`${name} must be a URL (the value is not repeated here)`);
  }
  if (!protocols.includes(url.protocol)) throw new ConfigError(`${name} must start with ${protocols.join(' or ')}//`);
  return raw;
}

/** `--port=4000` or `--port 4000` becomes PORT=4000; bare flags (`--demo`) are left to the CLI. */
function parseFlags(argv: string[]): Source {
  return readArguments(argv).flags;
}

/** The words of `argv` that are neither a flag nor a flag's value (`pmx frobnicate`: a mistyped command). */
export function strayArguments(argv: string[]): string[] {
  return readArguments(argv).stray;
}

/** A variable's flag: `--data-dir` for DATA_DIR. */
export const flagOf = (variable: string): string => `--${variable.toLowerCase().replace(/_/g, '-')}`;

/**
 * The flags of `argv` that are neither in `own` (the command's and the program's, `--demo`) nor a
 * flag of one of `variables` (`--port`), as written: a typo (`--prot 3001`) that would otherwise
 * be read as a variable nothing reads, or not at all, and the default used.
 */
export function unknownFlags(argv: string[], own: readonly string[], variables: readonly string[]): string[] {
  return readArguments(argv).written.filter((flag) => !own.includes(flag) && !variables.includes(variableOf(flag)));
}

/** A flag's variable: DATA_DIR for `--data-dir`. */
const variableOf = (flag: string): string => flag.slice(2).toUpperCase().replace(/-/g, '_');

function readArguments(argv: string[]): { flags: Source; stray: string[]; written: string[] } {
  const flags: Source = {};
  const stray: string[] = [];
  const written: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      stray.push(arg);
      continue;
    }
    const [flag, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    written.push(`--${flag}`);
    const name = variableOf(`--${flag}`);
    if (inline !== undefined) flags[name] = inline;
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) flags[name] = argv[++i];
  }
  return { flags, stray, written };
}

function readEnvFile(path: string): Source {
  if (!existsSync(path)) return {};
  const out: Source = {};
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (match) out[match[1]!] = match[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

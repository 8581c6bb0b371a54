import type { Command } from 'commander';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createClient, type OrderSpec, type OrderWithMarket } from '../client/index.ts';
import { hmacHeaders } from '../client/hmac.ts';
import { examples, output, printJson, printTable, progress } from './output.ts';
import { decimal, marketNames, orderStatusName, sideName } from './people.ts';
import { orderLine, orderStatusOf } from './order-lines.ts';
import { marketIdOf, tokenIdOf } from './refs.ts';
import { loadProfile, saveProfile } from './profile.ts';
import { CliError, clientFor, count, DEFAULT_URL, exchangeOf, globals, privateKey, run } from './sdk-client.ts';

/** Trader commands, all through the SDK: login, keys, balance, split, order, orders, cancel, book. */
export function registerTraderCommands(program: Command): void {
  program.command('login')
    .description('sign in with a wallet (SIWE), create an API key and save it (mode 0600)')
    .option('--private-key <hex>', 'the wallet key (default: PMX_PRIVATE_KEY, or a new wallet)')
    .option('--store-key', 'also save the private key, so orders are signed (EIP-712)')
    .addHelpText('after', examples(['pmx login --private-key 0xabc… --store-key', 'PMX_URL=http://exchange:3000 pmx login']))
    .action(run(async (options: { privateKey?: string; storeKey?: boolean }, command: Command) => {
      const given = options.privateKey !== undefined ? privateKey('--private-key', options.privateKey)
        : process.env.PMX_PRIVATE_KEY !== undefined ? privateKey('PMX_PRIVATE_KEY', process.env.PMX_PRIVATE_KEY) : undefined;
      const key = given ?? generatePrivateKey();
      const account = privateKeyToAccount(key);
      const url = globals(command).url ?? process.env.PMX_URL ?? DEFAULT_URL;
      const client = createClient({ baseUrl: url, account });
      const session = await client.auth.signIn();
      const apiKey = await client.auth.createApiKey();
      const path = saveProfile({ url, address: account.address, apiKey, ...(options.storeKey ? { privateKey: key } : {}) });
      output(!!globals(command).json, { ...session.user, apiKey: apiKey.apiKey, saved: path }, () => {
        console.log(`signed in as ${account.address} (proxy wallet ${session.user.proxyWallet})`);
        console.log(`API key ${apiKey.apiKey} saved to ${path}${options.storeKey ? ' with the signing key' : ''}`);
        // A wallet made here and not kept could never sign in again, nor sign a withdrawal of its funds.
        if (!given && !options.storeKey) console.error('note: this wallet was made for this login and its key was not kept; log in with --store-key (or --private-key) to keep a wallet you can withdraw from');
      });
    }));

  program.command('keys').description('list your API keys')
    .addHelpText('after', examples(['pmx keys', 'pmx keys --json']))
    .action(run(async (_options: unknown, command: Command) => {
      const keys = await clientFor(command, 'trader').auth.listApiKeys();
      output(!!globals(command).json, keys, () => printTable(keys, ['apiKey', 'createdAt', 'lastUsedAt']));
    }));

  program.command('balance').description('collateral and token balances (display units)')
    .addHelpText('after', examples(['pmx balance', 'pmx balance --json | jq .collateral.available']))
    .action(run(async (_options: unknown, command: Command) => {
      const client = clientFor(command, 'trader');
      const balance = await client.account.balance();
      if (globals(command).json) return output(true, balance, () => {});
      const names = marketNames(client);
      const tokens = await Promise.all(balance.tokens.map(async (t) => ({ ...t, asset: `${await names.name(t.marketId)}: ${t.outcome}` })));
      printTable([{ asset: 'collateral (USDC)', ...balance.collateral }, ...tokens].map((row) => ({ ...row, balance: decimal(row.balance), locked: decimal(row.locked), available: decimal(row.available) })), ['asset', 'balance', 'locked', 'available']);
    }));

  program.command('faucet <amount>').description('take test collateral from the faucet (servers run with FAUCET_ENABLED=true)')
    .addHelpText('after', examples(['pmx faucet 1000', 'pmx faucet 250.5 --json']))
    .action(run(async (amount: string, _options: unknown, command: Command) => {
      const result = await clientFor(command, 'trader').account.faucet(amount);
      output(!!globals(command).json, result, () => console.log(`received ${decimal(amount)} USDC; collateral balance ${decimal(result.balance)}`));
    }));

  program.command('split <market> <amount>').description('turn collateral into both outcome tokens of a market (id or slug)')
    .addHelpText('after', examples(['pmx split 6f1c…-… 25', 'pmx split demo-btc-above-150k 25']))
    .action(run(async (market: string, amount: string, _options: unknown, command: Command) => {
      const client = clientFor(command, 'trader');
      const result = await client.markets.split(await marketIdOf(client, market), amount);
      output(!!globals(command).json, result, () => console.log(`split ${result.amount} (tx ${result.txHash})`));
    }));

  const order = program.command('order').description('place an order: order buy|sell <tokenId | market outcome> <price> <size>')
    .addHelpText('after', examples(['pmx order buy 1234… 0.42 10', 'pmx order buy demo-btc-above-150k yes 0.42 10', 'pmx order sell 1234… 0.58 10 --post-only']));
  for (const side of ['buy', 'sell'] as const) {
    order.command(`${side} <token> <args...>`).description(`${side} <size> tokens at <price> (decimal strings, exact): <tokenId> <price> <size>, or <market id or slug> <outcome> <price> <size>`)
      .option('--type <type>', 'GTC, FOK or FAK', 'GTC')
      .option('--post-only', 'rest only; refused if it would trade')
      .option('--expiration <unixSeconds>', 'expire at this time')
      .option('--print', 'print the CreateOrder body (signed when the login stored the key) instead of sending it; for `pmx sign POST /api/v1/orders`')
      .addHelpText('after', examples([`pmx order ${side} 1234… 0.42 10`, `pmx order ${side} demo-btc-above-150k yes 0.42 10`, `pmx order ${side} 1234… 0.5 100 --type FAK --json`]))
      .action(run(async (token: string, args: string[], options: { type: string; postOnly?: boolean; expiration?: string; print?: boolean }, command: Command) => {
        if (args.length !== 2 && args.length !== 3) throw new CliError(`order ${side} takes <tokenId> <price> <size> or <market> <outcome> <price> <size>`);
        const [price, size] = args.slice(-2) as [string, string];
        const client = clientFor(command, 'trader');
        const tokenId = await tokenIdOf(client, token, args.length === 3 ? args[0] : undefined);
        const spec: OrderSpec = { tokenId, side: side === 'buy' ? 'BUY' : 'SELL', price, size, type: options.type.toUpperCase() as OrderSpec['type'], ...(options.postOnly ? { postOnly: true } : {}), ...(options.expiration ? { expiration: Number(options.expiration) } : {}) };
        if (options.print) return console.log(JSON.stringify(await client.orders.build(spec)));
        const placed = await client.orders.place(spec);
        if (globals(command).json) return printJson(placed);
        console.log(await orderLine(client, placed));
      }));
  }

  program.command('sign <method> <path> [body]').description('print the API-key headers of a request (HMAC of SPEC.md section 5) for your saved key, or a ready curl command')
    .option('--curl', 'print a curl command that sends the request with these headers')
    .option('--timestamp <ms>', 'the Unix time in milliseconds to sign (default: the server\'s clock now; it accepts 30 s either side)')
    .addHelpText('after', examples([
      'pmx sign GET /api/v1/orders',
      'pmx sign GET /api/v1/orders --curl | sh',
      `BODY=$(pmx order buy demo-btc-above-150k yes 0.42 10 --print) && pmx sign POST /api/v1/orders "$BODY" --curl | sh`,
    ]))
    .action(run(async (method: string, path: string, body: string | undefined, options: { curl?: boolean; timestamp?: string }, command: Command) => {
      const profile = loadProfile();
      if (!profile) throw new CliError('not logged in: run `pmx login` first');
      const { baseUrl } = exchangeOf(command, profile);
      const url = new URL(path.startsWith('/api/') ? path : `/api/v1${path.startsWith('/') ? '' : '/'}${path}`, baseUrl);
      // The server's clock (GET /exchange), not this machine's: the window is 30 s either side of it.
      const sentAt = Date.now();
      const { headerPrefix, serverTime } = await clientFor(command).exchange();
      const timestamp = options.timestamp ? count('--timestamp', options.timestamp) : serverTime + Math.round((Date.now() - sentAt) / 2);
      const headers = await hmacHeaders(profile.apiKey, headerPrefix, timestamp, method.toUpperCase(), url.pathname, body ?? '');
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (globals(command).json) return printJson(headers);
      if (!options.curl) {
        for (const [name, value] of Object.entries(headers)) console.log(`${name}: ${value}`);
        return;
      }
      const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
      const parts = [`curl -sS -X ${method.toUpperCase()} ${quote(url.href)}`, ...Object.entries(headers).map(([name, value]) => `-H ${quote(`${name}: ${value}`)}`)];
      if (body !== undefined) parts.push(`--data-raw ${quote(body)}`);
      console.log(parts.join(' \\\n  '));
    }));

  program.command('orders').description('your open orders (or --status)')
    .option('--status <status>', 'open (the default: resting orders), filled, cancelled or rejected; or PENDING, EXECUTING, EXECUTED')
    .option('--market <market>', 'one market only, by id or slug')
    .addHelpText('after', examples(['pmx orders', 'pmx orders --status EXECUTED --market 6f1c… --json']))
    .action(run(async (options: { status?: string; market?: string }, command: Command) => {
      const rows: OrderWithMarket[] = [];
      const client = clientFor(command, 'trader');
      const market = options.market ? await marketIdOf(client, options.market) : undefined;
      const status = options.status ? orderStatusOf(options.status) : undefined;
      for await (const o of client.orders.all({ ...(status ? { status } : {}), ...(market ? { market } : {}) })) rows.push(o);
      output(!!globals(command).json, rows, () => printTable(rows.map((o) => ({ ...o, side: sideName(o.side), market: o.marketInfo.title, price: decimal(o.price), amount: decimal(o.amount), matched: decimal(o.matchedAmount), status: orderStatusName(o.status, o.amount > o.matchedAmount) })), ['id', 'market', 'outcome', 'side', 'price', 'amount', 'matched', 'status']));
    }));

  program.command('cancel [orderIds...]').description('cancel orders by id, or every open order with --all')
    .option('--all', 'cancel every open order')
    .addHelpText('after', examples(['pmx cancel 1f0e…', 'pmx cancel --all']))
    .action(run(async (orderIds: string[], options: { all?: boolean }, command: Command) => {
      const client = clientFor(command, 'trader');
      if (options.all) {
        // The answer names markets only: the open orders just before give the count people ask for.
        const open = await client.orders.list();
        const result = await client.orders.cancelAll();
        const failed = new Set(result.failedMarkets ?? []);
        const cancelled = open.filter((o) => !failed.has(o.market)).length;
        output(!!globals(command).json, result, () => console.log(`cancelled ${cancelled} open order(s) in ${result.clearedMarkets.length} market(s)${failed.size ? `; failed in ${failed.size} market(s): ${[...failed].join(', ')}` : ''}`));
        return;
      }
      if (orderIds.length === 0) throw new CliError('name order ids or pass --all');
      const results = await client.orders.cancelMany(orderIds, progress('cancelling'));
      output(!!globals(command).json, results, () => printTable(results, ['orderId', 'success', 'error']));
      if (results.some((r) => !r.success)) process.exitCode = 1;
    }));

  program.command('book <token> [outcome]').description("a token's order book, the token by id or by market (id or slug) and outcome; --watch keeps a live ladder")
    .option('--watch', 'follow the book over Socket.IO until interrupted')
    .option('--depth <levels>', 'levels per side', '10')
    .addHelpText('after', examples(['pmx book 1234…', 'pmx book demo-btc-above-150k yes', 'pmx book 1234… --watch --depth 5']))
    .action(run(async (token: string, outcome: string | undefined, options: { watch?: boolean; depth: string }, command: Command) => {
      const depth = count('--depth', options.depth);
      const client = clientFor(command);
      const tokenId = await tokenIdOf(client, token, outcome);
      if (!options.watch) {
        const book = await client.book.get(tokenId);
        output(!!globals(command).json, book, () => printLadder(book.bids.slice(0, depth), book.asks.slice(0, depth)));
        return;
      }
      const watcher = client.watchBook([tokenId]);
      watcher.on('update', (_id, book) => {
        const view = book.depth(depth);
        if (globals(command).json) console.log(JSON.stringify({ seq: book.seq, hash: book.hash(), ...view }));
        else {
          process.stdout.write('\x1b[2J\x1b[H');
          console.log(`token ${tokenId}  seq ${book.seq}`);
          printLadder(view.bids, view.asks);
        }
      });
      await new Promise<void>((resolve) => process.once('SIGINT', resolve));
      watcher.close();
    }));
}

/** Asks above (best nearest the middle), bids below. */
function printLadder(bids: { price: string; size: string }[], asks: { price: string; size: string }[]): void {
  const row = (side: string) => (l: { price: string; size: string }) => ({ side, price: decimal(l.price), size: decimal(l.size) });
  printTable([...[...asks].reverse().map(row('ask')), ...bids.map(row('bid'))], ['side', 'price', 'size']);
}

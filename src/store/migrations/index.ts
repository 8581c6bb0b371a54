import type { Migration } from 'kysely';
import * as m0001 from './0001_settings.ts';
import * as m0002 from './0002_users.ts';
import * as m0004 from './0004_trading.ts';
import * as m0005 from './0005_identity.ts';
import * as m0006 from './0006_catalogue.ts';
import * as m0007 from './0007_ledger.ts';
import * as m0008 from './0008_order_listing_index.ts';
import * as m0009 from './0009_oracle.ts';
import * as m0010 from './0010_activity_indexes.ts';
import * as m0011 from './0011_positions.ts';
import * as m0012 from './0012_user_activity_indexes.ts';
import * as m0013 from './0013_rewards.ts';
import * as m0014 from './0014_trade_indexes.ts';
import * as m0015 from './0015_engine_leadership.ts';
import * as m0016 from './0016_ended_sessions.ts';
import * as m0017 from './0017_price_markets.ts';
import * as m0018 from './0018_trade_maker_fields.ts';
import * as m0019 from './0019_open_orders_by_book_seq.ts';
import * as m0020 from './0020_engine_projection.ts';
import * as m0021 from './0021_statement_checks.ts';
import * as m0022 from './0022_engine_journal.ts';
import * as m0023 from './0023_ledger_chain_tx_hash.ts';
import * as m0024 from './0024_chain_payouts.ts';
import * as m0025 from './0025_chain_payment_intents.ts';
import * as m0026 from './0026_markets_first_trade.ts';
import * as m0027 from './0027_market_volumes.ts';
import * as m0028 from './0028_chain_payment_versions.ts';
import * as m0029 from './0029_unsettled_trades_by_match_time.ts';
import * as m0030 from './0030_journal_lz4.ts';
import * as m0031 from './0031_final_price_targets.ts';

/** Every migration, by name; names sort in the order they apply. */
export const migrations: Record<string, Migration> = {
  '0001_settings': m0001,
  '0002_users': m0002,
  '0004_trading': m0004,
  '0005_identity': m0005,
  '0006_catalogue': m0006,
  '0007_ledger': m0007,
  '0008_order_listing_index': m0008,
  '0009_oracle': m0009,
  '0010_activity_indexes': m0010,
  '0011_positions': m0011,
  '0012_user_activity_indexes': m0012,
  '0013_rewards': m0013,
  '0014_trade_indexes': m0014,
  '0015_engine_leadership': m0015,
  '0016_ended_sessions': m0016,
  '0017_price_markets': m0017,
  '0018_trade_maker_fields': m0018,
  '0019_open_orders_by_book_seq': m0019,
  '0020_engine_projection': m0020,
  '0021_statement_checks': m0021,
  '0022_engine_journal': m0022,
  '0023_ledger_chain_tx_hash': m0023,
  '0024_chain_payouts': m0024,
  '0025_chain_payment_intents': m0025,
  '0026_markets_first_trade': m0026,
  '0027_market_volumes': m0027,
  '0028_chain_payment_versions': m0028,
  '0029_unsettled_trades_by_match_time': m0029,
  '0030_journal_lz4': m0030,
  '0031_final_price_targets': m0031,
};

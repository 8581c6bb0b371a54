/**
 * The database's table types, one interface per module, composed here. Column names are
 * snake_case as in SQL; repositories map rows to domain objects.
 */
import type { Generated } from 'kysely';

export interface SettingsTable {
  key: string;
  value: string;
  created_at: Generated<Date>;
}

export interface UsersTable {
  id: string;
  /** Sign-in address (EOA), stored lowercase. */
  address: string;
  /** Derived proxy wallet, stored lowercase. */
  proxy_wallet: string;
  display_name: string | null;
  avatar_url: string | null;
  anonymous: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface Database {
  settings: SettingsTable;
  users: UsersTable;
}

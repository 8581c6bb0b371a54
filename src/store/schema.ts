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

export interface Database {
  settings: SettingsTable;
}

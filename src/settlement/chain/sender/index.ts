export { createSettlementSender, type SettlementSender } from './sender.ts';
export { recordKey } from './context.ts';
export type { Fill, FillEvent, RecordChange, RevertReason, SenderOptions, TxRecord, TxVersion } from './types.ts';
export { DeepReorgError } from './lost-confirmed.ts';

export * from './position.ts';
export * from './valuation.ts';
export * from './pnl-history.ts';

export * from './position.ts';
export * from './valuation.ts';

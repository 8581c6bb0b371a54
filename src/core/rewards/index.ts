export * from './scoring.ts';
export * from './split.ts';
export * from './window.ts';

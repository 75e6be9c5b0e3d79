export * from './channels.js';
export * from './contract.js';
export * from './models.js';
export * from './money.js';
export * from './result.js';
export type { DeskApi } from './api-shape.js';

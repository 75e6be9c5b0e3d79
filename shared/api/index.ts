export * from './contract-choices.js';
export * from './errors.js';
export * from './auth.js';
export * from './accounts.js';
export * from './paging.js';
export * from './capacity.js';
export * from './cyber.js';
export * from './endpoints.js';

export * from './threats';
export * from './events';
export * from './webhooks';
export * from './signals';
export * from './assets';
export * from './history';

export * from './catalogue';
export * from './http';
export * from './queues';

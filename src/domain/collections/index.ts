export * from './fields.ts';
export * from './marketplace.ts';
export * from './people.ts';
export * from './inbox.ts';
export * from './support.ts';
export * from './growth.ts';
export * from './registry.ts';
export * from './protocol.ts';

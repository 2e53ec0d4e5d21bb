// Public surface of the NRI schema layer. schema.js configures protobufjs before the
// generated module loads, so every import below sees plain-number 64-bit fields.
export { nri } from './schema.js';
export * from './events.js';
export * from './plugin-name.js';
export * from './socket-path.js';
export * from './plugin-log.js';
export * from './services.js';
export * from './optional.js';
export * from './resources.js';
export * from './plain-copy.js';
export * from './sync-wire.js';
export * from './runtime-identity.js';
export * from './release-version.js';
export * from './short-id.js';
export { NRI_SCHEMA_VERSION } from './schema-version.js';
export * from './adjustment.js';
export * from './sync-brief.js';
export * from './wire-json.js';
export * from './unknown-json-fields.js';

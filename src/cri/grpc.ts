// @grpc/grpc-js, loaded on first use: a command that never speaks CRI never pays for it.
// (In the bundled CLI the require is a lazy module of the bundle: scripts/bundle-cli.mjs.)
import { createRequire } from 'node:module';

export type Grpc = typeof import('@grpc/grpc-js');

let grpc: Grpc | undefined;

export function loadGrpc(): Grpc {
  grpc ??= createRequire(import.meta.url)('@grpc/grpc-js') as Grpc;
  return grpc;
}

/** What the kubelet allows a CRI message to be (16 MiB): the bound on every message either way. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** protobufjs writes Buffers in Node; gRPC wants one. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

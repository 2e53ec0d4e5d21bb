// The CRI layer's surface: a client of the runtime's CRI socket (CRI v1 over gRPC), the
// server the simulator's CRI face is built on, where a node's CRI socket is, and the
// errors. This file loads neither gRPC nor the CRI bindings: openCriClient and
// createCriServer load them on first use, so a command that imports this layer and
// never speaks CRI starts as fast as before.
import type { CriClient, CriClientOptions } from './client.js';
import type { CriHandlers, CriServer } from './server.js';

export { CriError, type CriErrorCode, type CriErrorDetails } from './errors.js';
export { CriStatus } from './cri-status.js';
export { GrpcCode, type GrpcCodeValue } from './status.js';
export { CriPodState, CriContainerState, CriMountPropagation, CriCgroupDriver } from './enums.js';
export { locateCriSocket, DOCKER_HAS_NO_CRI, type CriSocketChoice, type LocateOptions } from './locate.js';
export type { CriClient, CriClientOptions, CallOptions } from './client.js';
export type { CriServer, CriHandlers, CriHandler } from './server.js';
export type { cri } from './schema.js';
export type { CriCallName, CriRequest, CriReceived, CriAnswer, CriResponse } from './services.js';

/** Connects to a CRI socket and asks its Version (CriClient.open); loads gRPC and the bindings on first use. */
export async function openCriClient(opts: CriClientOptions): Promise<CriClient> {
  const { CriClient } = await import('./client.js');
  return CriClient.open(opts);
}

/** A gRPC server of the CRI subset with these handlers; loads gRPC and the bindings on first use. */
export async function createCriServer(handlers: CriHandlers): Promise<CriServer> {
  const server = await import('./server.js');
  return server.createCriServer(handlers);
}

// What a CRI server's handler throws to answer with a gRPC status. Apart from server.ts
// so that code naming statuses (the simulator's CRI face) does not load the gRPC library.
import type { GrpcCodeValue } from './status.js';

export class CriStatus extends Error {
  override readonly name = 'CriStatus';
  constructor(
    readonly grpcCode: GrpcCodeValue,
    message: string,
  ) {
    super(message);
  }
}

// What a CRI server's handler throws to answer with a gRPC status. Apart from server.ts
// so that code naming statuses (the simulator's CRI face) does not load the gRPC library.
import type { ErrorKind } from '../errors/index.js';
import { GrpcCode, type GrpcCodeValue } from './status.js';

export class CriStatus extends Error {
  override readonly name = 'CriStatus';
  constructor(
    readonly grpcCode: GrpcCodeValue,
    message: string,
  ) {
    super(message);
  }

  /** As the client would take this answer: a refusal, of what is not there or not implemented. */
  get kind(): ErrorKind {
    if (this.grpcCode === GrpcCode.NOT_FOUND) return 'not-found';
    if (this.grpcCode === GrpcCode.UNIMPLEMENTED) return 'unimplemented';
    return 'refused';
  }
}

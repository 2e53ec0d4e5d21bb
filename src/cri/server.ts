// Serving the CRI subset over gRPC: the handlers a caller gives (the simulator's CRI
// face), on connections the caller accepts on its own listener, so that the socket is
// made as the caller makes its sockets (0600 in a 0700 directory, an old socket removed
// only when nothing answers on it) and grpc-js never binds anything itself. A call with
// no handler is answered Unimplemented, as a runtime that lacks it answers.
import type net from 'node:net';
import type { sendUnaryData, ServerUnaryCall, ServiceDefinition } from '@grpc/grpc-js';
import { asBuffer, loadGrpc, MAX_MESSAGE_BYTES } from './grpc.js';
import { CRI_CALLS, type CriAnswer, type CriCallName, type CriReceived } from './services.js';
import { CriStatus } from './cri-status.js';
import { GrpcCode } from './status.js';

/** A call's handler: its decoded request in, its answer out; a throw is the call's status. */
export type CriHandler<N extends CriCallName> = (
  request: CriReceived<N>,
  /** Aborted when the caller gave up (its deadline passed, or it cancelled). */
  signal: AbortSignal,
) => Promise<CriAnswer<N>>;

export type CriHandlers = { [N in CriCallName]?: CriHandler<N> };

export interface CriServer {
  /** Serves a connection the caller accepted. */
  accept(socket: net.Socket): void;
  /** Ends every connection and call. */
  close(): void;
}

/**
 * A gRPC server of the CRI subset. A handler's CriStatus is its status; any other throw
 * answers Unknown with the error's message, as a Go runtime's plain error does.
 */
export function createCriServer(handlers: CriHandlers): CriServer {
  const grpc = loadGrpc();
  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });
  const services = new Map<string, ServiceDefinition>();
  const impls = new Map<
    string,
    Record<string, (call: ServerUnaryCall<unknown, unknown>, cb: sendUnaryData<unknown>) => void>
  >();
  for (const name of Object.keys(CRI_CALLS) as CriCallName[]) {
    // One loop over every call: each handler's own types are erased to one signature here.
    const handler = handlers[name] as unknown as
      ((request: unknown, signal: AbortSignal) => Promise<unknown>) | undefined;
    if (!handler) continue;
    const spec = CRI_CALLS[name];
    const def = services.get(spec.service) ?? {};
    (def as Record<string, unknown>)[name] = {
      path: spec.path,
      requestStream: false,
      responseStream: false,
      requestDeserialize: (bytes: Buffer) => spec.request.decode(bytes),
      requestSerialize: (m: unknown) => asBuffer(spec.request.encode(m as never).finish()),
      responseSerialize: (m: unknown) => asBuffer(spec.response.encode(m as never).finish()),
      responseDeserialize: (bytes: Buffer) => spec.response.decode(bytes),
    };
    services.set(spec.service, def);
    const impl = impls.get(spec.service) ?? {};
    impl[name] = (call, callback) => {
      const gaveUp = new AbortController();
      // grpc-js says 'cancelled' after every call, the answered ones too (once its stream
      // closes); an abort then tells nobody anything, and costs an AbortError with its stack.
      let answered = false;
      call.once('cancelled', () => {
        if (!answered) gaveUp.abort();
      });
      const answer: sendUnaryData<unknown> = (err, value) => {
        answered = true;
        callback(err, value);
      };
      handler(call.request, gaveUp.signal).then(
        (value) => answer(null, value),
        (err: unknown) =>
          answer({
            code: err instanceof CriStatus ? err.grpcCode : GrpcCode.UNKNOWN,
            details: err instanceof Error ? err.message : String(err),
          }),
      );
    };
    impls.set(spec.service, impl);
  }
  for (const [service, def] of services) server.addService(def, impls.get(service)!);
  const injector = server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  let closed = false;
  return {
    accept(socket) {
      if (closed) socket.destroy();
      else injector.injectConnection(socket);
    },
    close() {
      closed = true;
      injector.destroy();
      server.forceShutdown();
    },
  };
}

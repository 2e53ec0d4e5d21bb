// A CRI client over the runtime's unix socket: every call of the subset (services.ts)
// through @grpc/grpc-js, each with a deadline. Opening checks the socket (so that a
// missing, foreign or forbidden path is one clear line, not gRPC's "No connection
// established") and asks Version, as crictl and the kubelet do, which tells a CRI
// runtime from anything else that answers. Failures are CriErrors with a code and kind.
import path from 'node:path';
import type { Client, ClientUnaryCall, ServiceError } from '@grpc/grpc-js';
import { formatDuration } from '../units/index.js';
import { CriError } from './errors.js';
import { asBuffer, loadGrpc, MAX_MESSAGE_BYTES } from './grpc.js';
import { socketPathOverLimit } from '../api/socket-path.js';
import { checkDialable, identifyPeer, type Peer } from './probe.js';
import { CRI_CALLS, RUNTIME_SERVICE, type CriCallName, type CriRequest, type CriResponse } from './services.js';
import { GrpcCode, grpcCodeName } from './status.js';
import type { cri } from './schema.js';

/** A call's deadline when neither the call nor the client says one. */
const DEFAULT_CALL_TIMEOUT_MS = 10_000;
/** How long a failed socket gets to show what it is (identifyPeer). */
const PROBE_MS = 1000;

export interface CriClientOptions {
  socketPath: string;
  /** Each call's deadline unless the call gives its own (default 10s). */
  timeoutMs?: number | undefined;
  /** Cancels the opening, and every call made without a signal of its own. */
  signal?: AbortSignal | undefined;
}

export interface CallOptions {
  /** This call's deadline. */
  timeoutMs?: number | undefined;
  /** Cancels this call (the runtime may still carry it out). */
  signal?: AbortSignal | undefined;
}

export class CriClient {
  private closed = false;
  /** Calls in flight, for close() to end: gRPC's own close lets them run on. */
  private readonly inFlight = new Set<ClientUnaryCall>();

  private constructor(
    readonly socketPath: string,
    /** The path as dialled: socketPath, or the path as given when only that fits (open). */
    private readonly dialPath: string,
    private readonly client: Client,
    private readonly timeoutMs: number,
    private readonly signal: AbortSignal | undefined,
    /** What the runtime said to Version when we connected. */
    private versionAnswer: cri.VersionResponse | undefined,
  ) {}

  /**
   * Dials the socket and asks Version. Throws CriError: no-socket, not-a-socket,
   * permission-denied, connection-refused, path-too-long, not-cri, no-answer, cancelled.
   */
  static async open(opts: CriClientOptions): Promise<CriClient> {
    const socketPath = path.resolve(opts.socketPath);
    // The kernel bounds the path handed to connect(), not the socket's absolute path: a
    // relative path in a deep directory fits where its absolute form does not, and the
    // simulator binds it and the NRI session dials it so. Then it is dialled as given.
    const dialPath = socketPathOverLimit(socketPath) === undefined ? socketPath : opts.socketPath;
    const timeoutMs = opts.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    await checkDialable(dialPath, Math.min(timeoutMs, PROBE_MS));
    const grpc = loadGrpc();
    const client = new grpc.Client(`unix:${dialPath}`, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
      'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
      // Our own connection, closed with this client, not one shared with other clients.
      'grpc.use_local_subchannel_pool': 1,
    });
    const c = new CriClient(socketPath, dialPath, client, timeoutMs, opts.signal, undefined);
    try {
      c.versionAnswer = await c.call('Version', { version: 'v1' });
    } catch (err) {
      c.close();
      throw err;
    }
    return c;
  }

  /** The runtime's name, version and CRI API version, as it answered when we connected. */
  get runtimeVersion(): cri.VersionResponse {
    return this.versionAnswer!;
  }

  /** One call of the subset, with its deadline. */
  call<N extends CriCallName>(name: N, request: CriRequest<N>, opts: CallOptions = {}): Promise<CriResponse<N>> {
    if (this.closed) return Promise.reject(new CriError('cancelled', `the CRI client of ${this.socketPath} is closed`));
    const spec = CRI_CALLS[name];
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const signal = opts.signal ?? this.signal;
    if (signal?.aborted) return Promise.reject(cancelled(name, this.socketPath));
    return new Promise<CriResponse<N>>((resolve, reject) => {
      let call: ClientUnaryCall | undefined = undefined;
      const onAbort = (): void => call?.cancel();
      signal?.addEventListener('abort', onAbort, { once: true });
      call = this.client.makeUnaryRequest(
        spec.path,
        (req: CriRequest<N>) =>
          asBuffer((spec.request as { encode(m: CriRequest<N>): { finish(): Uint8Array } }).encode(req).finish()),
        (bytes: Buffer) => spec.response.decode(bytes) as CriResponse<N>,
        request,
        { deadline: Date.now() + timeoutMs },
        (err, value) => {
          this.inFlight.delete(call!);
          signal?.removeEventListener('abort', onAbort);
          if (!err) return resolve(value as CriResponse<N>);
          if (signal?.aborted || this.closed) return reject(cancelled(name, this.socketPath));
          this.explain(name, err, timeoutMs).then(reject, reject);
        },
      );
      this.inFlight.add(call);
    });
  }

  // ---- the calls by name ------------------------------------------------------------

  version(opts?: CallOptions) {
    return this.call('Version', { version: 'v1' }, opts);
  }
  status(verbose = false, opts?: CallOptions) {
    return this.call('Status', { verbose }, opts);
  }
  runtimeConfig(opts?: CallOptions) {
    return this.call('RuntimeConfig', {}, opts);
  }
  runPodSandbox(config: cri.IPodSandboxConfig, runtimeHandler = '', opts?: CallOptions) {
    return this.call('RunPodSandbox', { config, runtimeHandler }, opts);
  }
  stopPodSandbox(podSandboxId: string, opts?: CallOptions) {
    return this.call('StopPodSandbox', { podSandboxId }, opts);
  }
  removePodSandbox(podSandboxId: string, opts?: CallOptions) {
    return this.call('RemovePodSandbox', { podSandboxId }, opts);
  }
  podSandboxStatus(podSandboxId: string, verbose = false, opts?: CallOptions) {
    return this.call('PodSandboxStatus', { podSandboxId, verbose }, opts);
  }
  listPodSandbox(filter?: cri.IPodSandboxFilter, opts?: CallOptions) {
    return this.call('ListPodSandbox', filter ? { filter } : {}, opts);
  }
  updatePodSandboxResources(
    podSandboxId: string,
    resources: { overhead?: cri.ILinuxContainerResources; resources?: cri.ILinuxContainerResources },
    opts?: CallOptions,
  ) {
    return this.call('UpdatePodSandboxResources', { podSandboxId, ...resources }, opts);
  }
  createContainer(
    podSandboxId: string,
    config: cri.IContainerConfig,
    sandboxConfig: cri.IPodSandboxConfig,
    opts?: CallOptions,
  ) {
    return this.call('CreateContainer', { podSandboxId, config, sandboxConfig }, opts);
  }
  startContainer(containerId: string, opts?: CallOptions) {
    return this.call('StartContainer', { containerId }, opts);
  }
  /** `timeout`: seconds the runtime gives the container before it kills it. */
  stopContainer(containerId: string, timeout = 0, opts?: CallOptions) {
    return this.call('StopContainer', { containerId, timeout }, opts);
  }
  removeContainer(containerId: string, opts?: CallOptions) {
    return this.call('RemoveContainer', { containerId }, opts);
  }
  listContainers(filter?: cri.IContainerFilter, opts?: CallOptions) {
    return this.call('ListContainers', filter ? { filter } : {}, opts);
  }
  containerStatus(containerId: string, verbose = false, opts?: CallOptions) {
    return this.call('ContainerStatus', { containerId, verbose }, opts);
  }
  updateContainerResources(
    containerId: string,
    linux: cri.ILinuxContainerResources,
    annotations?: Record<string, string>,
    opts?: CallOptions,
  ) {
    return this.call('UpdateContainerResources', { containerId, linux, ...(annotations ? { annotations } : {}) }, opts);
  }
  listImages(filter?: cri.IImageFilter, opts?: CallOptions) {
    return this.call('ListImages', filter ? { filter } : {}, opts);
  }
  imageStatus(image: string, verbose = false, opts?: CallOptions) {
    return this.call('ImageStatus', { image: { image }, verbose }, opts);
  }
  pullImage(image: string, sandboxConfig?: cri.IPodSandboxConfig, opts?: CallOptions) {
    return this.call('PullImage', { image: { image }, ...(sandboxConfig ? { sandboxConfig } : {}) }, opts);
  }

  /** Closes the connection; calls in flight end with CANCELLED. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const call of this.inFlight) call.cancel();
    this.client.close();
  }

  /** A failed call as a CriError that says what happened, in one line. */
  private async explain(call: string, err: ServiceError, timeoutMs: number): Promise<CriError> {
    const socketPath = this.socketPath;
    const answered = { socketPath, call, grpcCode: err.code, grpcMessage: err.details, cause: err };
    const status = `${grpcCodeName(err.code)}: ${err.details}`;
    const opening = this.versionAnswer === undefined;
    switch (err.code) {
      case GrpcCode.NOT_FOUND:
        return new CriError('not-found', `${call} at ${socketPath}: ${status}`, answered);
      case GrpcCode.UNIMPLEMENTED:
        if (opening)
          return new CriError(
            'not-cri',
            `${socketPath} speaks gRPC but not CRI v1 (${RUNTIME_SERVICE}: ${status}): give the runtime's CRI socket with --cri-socket`,
            answered,
          );
        return new CriError(
          'unimplemented',
          `the runtime at ${socketPath} does not implement ${call} (${status})`,
          answered,
        );
      // CANCELLED is not ours (our own cancel is said before this): the server ended the
      // call, as one shutting down does; the socket tells whether the runtime is still there.
      case GrpcCode.DEADLINE_EXCEEDED:
      case GrpcCode.UNAVAILABLE:
      case GrpcCode.INTERNAL:
      case GrpcCode.CANCELLED:
        return this.transportFailure(call, err, timeoutMs, opening);
      default:
        return new CriError('refused', `${call} at ${socketPath}: ${status}`, answered);
    }
  }

  /**
   * gRPC says little about a socket that is not what it should be: the peer is asked
   * directly (identifyPeer). A runtime's own Unavailable or Internal status reaches the
   * caller as it is.
   */
  private async transportFailure(
    call: string,
    err: ServiceError,
    timeoutMs: number,
    opening: boolean,
  ): Promise<CriError> {
    const socketPath = this.socketPath;
    const details = { socketPath, call, grpcCode: err.code, grpcMessage: err.details, cause: err };
    let peer: Peer;
    try {
      peer = await identifyPeer(this.dialPath, Math.min(PROBE_MS, timeoutMs));
    } catch (dialErr) {
      // The socket is gone or refuses now: the runtime went away.
      if (opening) return dialErr as CriError;
      return new CriError(
        'runtime-gone',
        `the runtime at ${socketPath} went away during ${call}: ${(dialErr as Error).message}`,
        details,
      );
    }
    const notCri = (what: string) =>
      new CriError(
        'not-cri',
        `${socketPath} is not a CRI socket: ${what}; give the runtime's CRI socket with --cri-socket`,
        details,
      );
    switch (peer) {
      case 'closed':
        return notCri('it closes the connection on an HTTP/2 request (an NRI socket does)');
      case 'http1':
        return notCri('it answers HTTP/1.x, not gRPC');
      case 'other':
        return notCri('it answers with something other than HTTP/2');
      case 'silent':
        return new CriError(
          'no-answer',
          `${socketPath} accepts connections but says nothing (waited ${formatDuration(Math.min(PROBE_MS, timeoutMs))}): the runtime is hung, or this is not a CRI socket`,
          details,
        );
      case 'http2':
        if (err.code === GrpcCode.DEADLINE_EXCEEDED)
          return new CriError(
            'no-answer',
            `${socketPath} did not answer ${call} within ${formatDuration(timeoutMs)}: the runtime is busy or hung${opening ? '' : '; the call may still take effect'}`,
            details,
          );
        // The socket speaks HTTP/2: an Internal status while connecting is an answer gRPC
        // could not read as CRI; anything else is the runtime's own status.
        if (opening && err.code === GrpcCode.INTERNAL)
          return notCri(`its answer to Version is not CRI (${err.details})`);
        return new CriError('refused', `${call} at ${socketPath}: ${grpcCodeName(err.code)}: ${err.details}`, details);
    }
  }
}

function cancelled(call: string, socketPath: string): CriError {
  return new CriError('cancelled', `${call} at ${socketPath} cancelled`, { socketPath, call });
}

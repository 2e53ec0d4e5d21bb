/** The bytes on the trunk do not follow NRI's mux framing (or a bound was exceeded). */
export class MuxProtocolError extends Error {
  readonly code = 'MUX_PROTOCOL' as const;
  readonly kind = 'runtime-gone' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MuxProtocolError';
  }
}

/** The trunk is gone: every logical connection on it fails with this (unless a cause is known). */
export class MuxClosedError extends Error {
  readonly code = 'MUX_CLOSED' as const;
  readonly kind = 'runtime-gone' as const;
  readonly connId: number | undefined;
  constructor(message: string, connId?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MuxClosedError';
    this.connId = connId;
  }
}

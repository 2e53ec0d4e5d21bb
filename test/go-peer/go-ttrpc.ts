// containerd/ttrpc as a Go peer runs it over a mux connection (channel.go, client.go,
// server.go): messages are read through a 4096-byte bufio.Reader (header, then the body
// into a buffer of exactly its length) and written through a 4096-byte bufio.Writer that
// is flushed after every message. The envelopes are decoded with protobufjs reflection,
// not with src/ttrpc's hand-written codec.
import protobuf from 'protobufjs';
import { GoBufferedReader, GoBufferedWriter } from './go-bufio.js';
import type { GoMuxConn } from './go-mux.js';

const HEADER = 10;
const MESSAGE_MAX = 4 << 20;
const REQUEST = 1;
const RESPONSE = 2;

const envelopes = protobuf.Root.fromJSON({
  nested: {
    Request: {
      fields: {
        service: { type: 'string', id: 1 },
        method: { type: 'string', id: 2 },
        payload: { type: 'bytes', id: 3 },
        timeoutNano: { type: 'int64', id: 4 },
        metadata: { rule: 'repeated', type: 'KeyValue', id: 5 },
      },
    },
    KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
    Status: { fields: { code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 } } },
    Response: { fields: { status: { type: 'Status', id: 1 }, payload: { type: 'bytes', id: 2 } } },
  },
});
const RequestType = envelopes.lookupType('Request');
const ResponseType = envelopes.lookupType('Response');

export interface GoMessage {
  streamId: number;
  type: number;
  payload: Buffer;
}

export class GoChannel {
  private readonly reader: GoBufferedReader;
  private readonly writer: GoBufferedWriter;

  /**
   * @param wholeFrames write each message as one frame instead, as nrictl did before it
   *   framed like Go: what a non-Go peer might do, and what a Go reader refuses over 4096 bytes.
   */
  constructor(
    private readonly conn: GoMuxConn,
    private readonly wholeFrames = false,
  ) {
    this.reader = new GoBufferedReader(conn);
    this.writer = new GoBufferedWriter(conn);
  }

  async recv(): Promise<GoMessage> {
    const header = await this.reader.readFull(HEADER);
    const length = header.readUInt32BE(0);
    if (length > MESSAGE_MAX) throw new Error(`message length ${length} exceeds maximum message size`);
    const payload = length > 0 ? await this.reader.readFull(length) : Buffer.alloc(0);
    return { streamId: header.readUInt32BE(4), type: header[8], payload };
  }

  send(streamId: number, type: number, payload: Uint8Array): void {
    const header = Buffer.alloc(HEADER);
    header.writeUInt32BE(payload.length, 0);
    header.writeUInt32BE(streamId, 4);
    header[8] = type;
    if (this.wholeFrames) {
      this.conn.write(Buffer.concat([header, payload]));
      return;
    }
    this.writer.write(header);
    if (payload.length > 0) this.writer.write(Buffer.from(payload));
    this.writer.flush();
  }
}

export type GoHandler = (method: string, payload: Buffer) => Uint8Array | Promise<Uint8Array>;

/** Serves requests until the connection fails; a read error ends it, as the Go server's receive loop does. */
export async function goServe(
  conn: GoMuxConn,
  service: string,
  handle: GoHandler,
  onError: (err: Error) => void,
  wholeFrames = false,
): Promise<void> {
  const ch = new GoChannel(conn, wholeFrames);
  for (;;) {
    let msg: GoMessage;
    try {
      msg = await ch.recv();
    } catch (err) {
      onError(err as Error);
      return;
    }
    if (msg.type !== REQUEST) continue;
    const req = RequestType.toObject(RequestType.decode(msg.payload), { bytes: Buffer }) as {
      service: string;
      method: string;
      payload?: Buffer;
    };
    void (async () => {
      let answer: object;
      if (req.service !== service) {
        answer = { status: { code: 12, message: `service ${req.service}: not implemented` } };
      } else {
        try {
          answer = { payload: await handle(req.method, req.payload ?? Buffer.alloc(0)) };
        } catch (err) {
          answer = { status: { code: 2, message: (err as Error).message } };
        }
      }
      ch.send(msg.streamId, RESPONSE, ResponseType.encode(ResponseType.fromObject(answer)).finish());
    })();
  }
}

/** A Go ttrpc client: odd stream ids, one receive loop; a read error fails every call, as "ttrpc: closed". */
export class GoClient {
  private readonly ch: GoChannel;
  private next = 1;
  private readonly calls = new Map<number, { resolve(b: Buffer): void; reject(e: Error): void }>();
  failure: Error | undefined;

  constructor(conn: GoMuxConn) {
    this.ch = new GoChannel(conn);
    void this.receive();
  }

  call(service: string, method: string, payload: Uint8Array): Promise<Buffer> {
    if (this.failure) return Promise.reject(new Error(`ttrpc: closed (${this.failure.message})`));
    const id = this.next;
    this.next += 2;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      const req = RequestType.encode(
        RequestType.fromObject({ service, method, payload, timeoutNano: 2_000_000_000 }),
      ).finish();
      this.ch.send(id, REQUEST, req);
    });
  }

  private async receive(): Promise<void> {
    for (;;) {
      let msg: GoMessage;
      try {
        msg = await this.ch.recv();
      } catch (err) {
        this.failure = err as Error;
        for (const c of this.calls.values()) c.reject(new Error(`ttrpc: closed (${(err as Error).message})`));
        this.calls.clear();
        return;
      }
      const call = this.calls.get(msg.streamId);
      if (!call || msg.type !== RESPONSE) continue;
      this.calls.delete(msg.streamId);
      const res = ResponseType.toObject(ResponseType.decode(msg.payload), { bytes: Buffer }) as {
        status?: { code?: number; message?: string };
        payload?: Buffer;
      };
      if (res.status && res.status.code) call.reject(new Error(`status ${res.status.code}: ${res.status.message}`));
      else call.resolve(res.payload ?? Buffer.alloc(0));
    }
  }
}

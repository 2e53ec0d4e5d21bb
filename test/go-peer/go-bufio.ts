// Go's bufio.Reader and bufio.Writer (default size 4096), step for step, over a Go mux
// connection. They matter because a Go mux connection returns one frame per Read: what
// a Go ttrpc peer can read depends on the size of the buffer each Read offers.
import type { GoMuxConn } from './go-mux.js';

export const GO_BUFIO_SIZE = 4096;

export class GoBufferedReader {
  private readonly buf = Buffer.alloc(GO_BUFIO_SIZE);
  private r = 0;
  private w = 0;

  constructor(private readonly conn: GoMuxConn) {}

  /**
   * bufio.Reader.Read(p): with bytes buffered, copy them; with none, a read at least as
   * large as the buffer goes straight into p (offering p's length, as a fresh Go slice's
   * capacity), a smaller one does a single Read into the whole internal buffer.
   */
  async read(p: Buffer): Promise<number> {
    if (p.length === 0) return 0;
    if (this.r === this.w) {
      if (p.length >= this.buf.length) {
        const frame = await this.conn.read(p.length);
        frame.copy(p);
        return frame.length;
      }
      this.r = 0;
      this.w = 0;
      const frame = await this.conn.read(this.buf.length);
      frame.copy(this.buf);
      this.w = frame.length;
      if (frame.length === 0) return 0;
    }
    const n = this.buf.copy(p, 0, this.r, this.w);
    this.r += n;
    return n;
  }

  /** io.ReadFull into a fresh slice of exactly n bytes (ttrpc's getmbuf on an empty pool). */
  async readFull(n: number): Promise<Buffer> {
    const p = Buffer.alloc(n);
    let got = 0;
    while (got < n) got += await this.read(p.subarray(got));
    return p;
  }
}

export class GoBufferedWriter {
  private readonly buf = Buffer.alloc(GO_BUFIO_SIZE);
  private n = 0;

  constructor(private readonly conn: GoMuxConn) {}

  /** bufio.Writer.Write: fill and flush the buffer; a large write on an empty buffer goes out directly. */
  write(p: Buffer): void {
    while (p.length > this.buf.length - this.n) {
      let written: number;
      if (this.n === 0) {
        this.conn.write(p);
        written = p.length;
      } else {
        written = p.copy(this.buf, this.n);
        this.n += written;
        this.flush();
      }
      p = p.subarray(written);
    }
    this.n += p.copy(this.buf, this.n);
  }

  flush(): void {
    if (this.n === 0) return;
    this.conn.write(this.buf.subarray(0, this.n));
    this.n = 0;
  }
}

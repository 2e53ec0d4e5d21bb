// Would a Go ttrpc peer read this? Over a transport that keeps write boundaries (NRI's
// multiplexer hands over one frame per Read and fails the Read with ENOMEM when the frame
// is larger than the buffer offered), Go's ttrpc reads through a 4096-byte bufio.Reader:
// a header read offers the whole 4096-byte buffer; a body read first takes what is
// buffered, then offers a remainder of 4096 bytes or more directly, a smaller one through
// the buffer. This follows that reader chunk by chunk, without copying the data, so that
// a peer which frames messages in a way Go cannot read is caught by us too. Pure.
import { HEADER_LENGTH } from './frame.js';

export const GO_BUFIO_SIZE = 4096;

export interface GoReadRefusal {
  /** The chunk a Go reader was handed. */
  length: number;
  /** The buffer it offered. */
  capacity: number;
}

export class GoReadCheck {
  // The message part being read: its header, or its body of `want` more bytes.
  #inHeader = true;
  #want = HEADER_LENGTH;
  readonly #header = Buffer.alloc(HEADER_LENGTH);

  /** Takes the next chunk as the transport delivered it; a refusal when a Go reader could not read it. */
  push(chunk: Buffer): GoReadRefusal | undefined {
    const direct = !this.#inHeader && this.#want >= GO_BUFIO_SIZE;
    const capacity = direct ? this.#want : GO_BUFIO_SIZE;
    if (chunk.length > capacity) return { length: chunk.length, capacity };
    if (direct) {
      this.#want -= chunk.length;
      if (this.#want === 0) this.#startHeader();
      return undefined;
    }
    // Through the buffer: the reader consumes it part by part before it reads again.
    let pos = 0;
    while (pos < chunk.length) {
      const n = Math.min(this.#want, chunk.length - pos);
      if (this.#inHeader) chunk.copy(this.#header, HEADER_LENGTH - this.#want, pos, pos + n);
      pos += n;
      this.#want -= n;
      if (this.#want > 0) continue;
      if (this.#inHeader) {
        this.#inHeader = false;
        this.#want = this.#header.readUInt32BE(0);
        if (this.#want === 0) this.#startHeader();
      } else {
        this.#startHeader();
      }
    }
    return undefined;
  }

  #startHeader(): void {
    this.#inHeader = true;
    this.#want = HEADER_LENGTH;
  }
}

/**
 * Go's bufio default size, 4096 bytes: the buffer through which containerd/ttrpc reads
 * and writes each connection (channel.go). Over NRI's multiplexer, which hands a reader
 * one whole frame per Read, it is the most a Go peer can take where a message starts, so
 * the mux frames every write to it and the ttrpc writer joins messages only within it
 * (src/mux/README.md, "Framing for Go peers").
 */
export const GO_BUFIO_SIZE = 4096;

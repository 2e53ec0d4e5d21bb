// Strings read from a Buffer (src/api/protobuf.ts): ASCII the fast way, anything else
// through protobufjs's strict UTF-8 reader, with the same results as before.
import { describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';

const decodeFromBuffer = (pod: nri.IPodSandbox): nri.PodSandbox =>
  nri.PodSandbox.decode(Buffer.from(nri.PodSandbox.encode(pod).finish()));

describe('protobuf strings from a Buffer', () => {
  it('reads ASCII, multi-byte UTF-8, empty and long strings as they were written', () => {
    const pod = {
      id: 'a'.repeat(300),
      name: 'café-ünïcödé-名前-🚀',
      namespace: '',
      labels: { 'app.kubernetes.io/name': 'web', 'emoji🙂': 'ok', ascii: 'x'.repeat(70_000) },
    };
    const back = decodeFromBuffer(pod);
    expect([back.id, back.name, back.namespace, { ...back.labels }]).toEqual([
      pod.id,
      pod.name,
      pod.namespace,
      pod.labels,
    ]);
  });

  it('still rejects a string that is not UTF-8', () => {
    const bytes = Buffer.from(nri.PodSandbox.encode({ name: 'xx' }).finish());
    bytes[bytes.length - 1] = 0xff; // the name's last byte: a lone 0xff is never UTF-8
    expect(() => nri.PodSandbox.decode(bytes)).toThrow();
  });

  it('a string that runs past the end of the message is an error, not a shorter string', () => {
    const bytes = Buffer.from(nri.PodSandbox.encode({ name: 'abcdef' }).finish());
    expect(() => nri.PodSandbox.decode(bytes.subarray(0, bytes.length - 2))).toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { nri } from '../../src/api/index.js';
import { jsonDocument, jsonLine, renderDocument, renderStreamItem, toPlain, yamlStreamItem } from '../../src/render/format.js';

// A container as it comes off the wire: encoded by protobufjs, then decoded.
function decodedContainer(): nri.Container {
  const msg = nri.Container.fromObject({
    id: 'c0ffee', podSandboxId: 'pod1', name: 'app', state: 'CONTAINER_RUNNING',
    createdAt: 1_700_000_000_000,
    labels: { tier: 'web' },
    linux: { resources: { memory: { limit: { value: 536870912 } }, cpu: { cpus: '0-3', shares: { value: 1024 } } } },
  });
  return nri.Container.decode(nri.Container.encode(msg).finish());
}

describe('toPlain', () => {
  it('converts decoded messages with enum names and 64-bit numbers as numbers', () => {
    const plain = toPlain(decodedContainer()) as Record<string, any>;
    expect(plain.state).toBe('CONTAINER_RUNNING');
    expect(plain.createdAt).toBe(1_700_000_000_000);
    expect(plain.linux.resources.memory.limit.value).toBe(536870912);
    expect(plain.linux.resources.cpu.shares.value).toBe(1024);
    expect(plain.labels).toEqual({ tier: 'web' });
    // unset fields are left out, like protojson
    expect(plain).not.toHaveProperty('exitCode');
  });
  it('converts messages nested in plain wrappers', () => {
    const plain = toPlain({ time: new Date(0), event: 'CREATE_CONTAINER', container: decodedContainer(), raw: new Uint8Array([1, 2, 3]), n: 5n }) as Record<string, any>;
    expect(plain.time).toBe('1970-01-01T00:00:00.000Z');
    expect(plain.container.state).toBe('CONTAINER_RUNNING');
    expect(plain.raw).toBe('AQID');
    expect(plain.n).toBe(5);
  });
  it('names enums of plain objects when given their type', () => {
    const plain = toPlain({ id: 'x', state: 4 }, nri.Container) as Record<string, unknown>;
    expect(plain.state).toBe('CONTAINER_STOPPED');
  });
  it('turns Long-like values into numbers', () => {
    const longish = { low: 5, high: 1, unsigned: false, toNumber: () => 2 ** 32 + 5 };
    expect(toPlain({ v: longish })).toEqual({ v: 2 ** 32 + 5 });
  });
});

describe('JSON and YAML', () => {
  it('writes one compact object per line for streams and pretty documents', () => {
    const line = jsonLine({ a: 1, b: { c: [1, 2] } });
    expect(line).toBe('{"a":1,"b":{"c":[1,2]}}\n');
    const doc = jsonDocument({ a: 1 });
    expect(doc).toBe('{\n  "a": 1\n}\n');
    expect(JSON.parse(renderStreamItem(decodedContainer(), 'json')).linux.resources.memory.limit.value).toBe(536870912);
  });
  it('separates YAML stream items with --- and keeps numbers numeric', () => {
    const stream = yamlStreamItem({ event: 'CreateContainer', n: 1 }) + yamlStreamItem({ event: 'StartContainer', n: 2 });
    const docs = YAML.parseAllDocuments(stream).map((d) => d.toJS());
    expect(docs).toEqual([{ event: 'CreateContainer', n: 1 }, { event: 'StartContainer', n: 2 }]);
    const doc = YAML.parse(renderDocument({ containers: [decodedContainer()] }, 'yaml'));
    expect(doc.containers[0].linux.resources.memory.limit.value).toBe(536870912);
    expect(doc.containers[0].state).toBe('CONTAINER_RUNNING');
  });
  it('never folds long strings nor writes aliases for repeated objects', () => {
    const long = 'x'.repeat(300);
    const shared = { k: 'v' };
    const text = renderDocument({ a: long, one: shared, two: shared }, 'yaml');
    expect(text).toContain(`a: ${long}\n`);
    expect(text).not.toMatch(/[&*]a1/);
  });
});

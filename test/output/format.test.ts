import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { nri } from '../../src/api/index.js';
import { jsonDocument, jsonLine, renderDocument, toPlain, yamlStreamItem } from '../../src/output/format.js';

// A container as it comes off the wire: encoded by protobufjs, then decoded.
function decodedContainer(): nri.Container {
  const msg = nri.Container.fromObject({
    id: 'c0ffee',
    podSandboxId: 'pod1',
    name: 'app',
    state: 'CONTAINER_RUNNING',
    createdAt: 1_700_000_000_000,
    labels: { tier: 'web' },
    linux: { resources: { memory: { limit: { value: 536870912 } }, cpu: { cpus: '0-3', shares: { value: 1024 } } } },
  });
  return nri.Container.decode(nri.Container.encode(msg).finish());
}

describe('toPlain', () => {
  it('converts decoded messages with enum names and 64-bit integers as strings, as protojson does', () => {
    const plain = toPlain(decodedContainer()) as Record<string, any>;
    expect(plain.state).toBe('CONTAINER_RUNNING');
    expect(plain.createdAt).toBe('1700000000000');
    expect(plain.linux.resources.memory.limit.value).toBe('536870912');
    expect(plain.linux.resources.cpu.shares.value).toBe('1024');
    expect(plain.labels).toEqual({ tier: 'web' });
    // unset fields are left out, like protojson
    expect(plain).not.toHaveProperty('exitCode');
  });
  it('converts messages nested in plain wrappers', () => {
    const plain = toPlain({
      time: new Date(0),
      event: 'CREATE_CONTAINER',
      container: decodedContainer(),
      raw: new Uint8Array([1, 2, 3]),
      n: 5n,
    }) as Record<string, any>;
    expect(plain.time).toBe('1970-01-01T00:00:00.000Z');
    expect(plain.container.state).toBe('CONTAINER_RUNNING');
    expect(plain.raw).toBe('AQID');
    expect(plain.n).toBe('5');
  });
  it('names enums of plain objects when given their type', () => {
    const plain = toPlain({ id: 'x', state: 4 }, nri.Container) as Record<string, unknown>;
    expect(plain.state).toBe('CONTAINER_STOPPED');
  });
  it('turns Long-like values and bigints into exact decimal strings', () => {
    const longish = { low: 5, high: 1, unsigned: false, toNumber: () => 2 ** 32 + 5 };
    expect(toPlain({ v: longish })).toEqual({ v: String(2 ** 32 + 5) });
    // 2^63 - 1 and -1 from their halves; a double would have made the first 9223372036854775808.
    expect(toPlain({ v: { low: -1, high: 0x7fffffff, toNumber: () => 0 } })).toEqual({ v: '9223372036854775807' });
    expect(toPlain({ v: { low: -1, high: -1, toNumber: () => -1 } })).toEqual({ v: '-1' });
    expect(toPlain({ v: { low: -1, high: -1, unsigned: true, toNumber: () => 0 } })).toEqual({
      v: '18446744073709551615',
    });
    expect(toPlain({ v: 1_700_000_000_123_456_789n })).toEqual({ v: '1700000000123456789' });
  });
  it('writes a nanosecond timestamp past 2^53 as a string, so a JSON reader does not round it again', () => {
    const line = jsonLine(
      nri.Container.decode(nri.Container.encode({ id: 'c', createdAt: 1_714_641_247_331_845_000 }).finish()),
    );
    expect(line).toContain('"createdAt":"1714641247331845000"');
  });
});

describe('JSON and YAML', () => {
  it('writes one compact object per line for streams and pretty documents', () => {
    const line = jsonLine({ a: 1, b: { c: [1, 2] } });
    expect(line).toBe('{"a":1,"b":{"c":[1,2]}}\n');
    const doc = jsonDocument({ a: 1 });
    expect(doc).toBe('{\n  "a": 1\n}\n');
    expect(JSON.parse(jsonLine(decodedContainer())).linux.resources.memory.limit.value).toBe('536870912');
  });
  it('separates YAML stream items with --- and keeps numbers numeric, int64 as strings', () => {
    const stream =
      yamlStreamItem({ event: 'CreateContainer', n: 1 }) + yamlStreamItem({ event: 'StartContainer', n: 2 });
    const docs = YAML.parseAllDocuments(stream).map((d) => d.toJS());
    expect(docs).toEqual([
      { event: 'CreateContainer', n: 1 },
      { event: 'StartContainer', n: 2 },
    ]);
    const doc = YAML.parse(renderDocument({ containers: [decodedContainer()] }, 'yaml'));
    expect(doc.containers[0].linux.resources.memory.limit.value).toBe('536870912');
    expect(doc.containers[0].state).toBe('CONTAINER_RUNNING');
  });
  it('never folds long strings nor writes aliases for repeated objects', () => {
    const long = 'x'.repeat(300);
    const shared = { k: 'v' };
    const text = renderDocument({ a: long, one: shared, two: shared }, 'yaml');
    expect(text).toContain(`a: ${long}\n`);
    expect(text).not.toMatch(/[&*]a1/);
  });
  it('quotes every string a YAML 1.1 reader would read as a boolean, date, number or null', () => {
    const retyped = [
      'yes',
      'no',
      'on',
      'off',
      'y',
      'n',
      'Y',
      'N',
      'YES',
      'On',
      'True',
      'false',
      '~',
      'null',
      '',
      '2024-05-02',
      '2024-05-02T09:14:07.331845Z',
      '2024-05-02 09:14:07',
      '0777',
      '0o17',
      '0x1F',
      '0b101',
      '1_000',
      '1:30',
      '190:20:30',
      '1e3',
      '.5',
      '+1',
      '-1',
      '123',
      '1.0',
      '.inf',
      '-.Inf',
      '.NaN',
      '<<',
      '=',
    ];
    const value = {
      labels: Object.fromEntries(retyped.map((v, i) => [`k${i}`, v])),
      keys: Object.fromEntries(retyped.map((v) => [v, v])),
    };
    const text = renderDocument(value, 'yaml');
    // Read back as YAML 1.1 (what PyYAML and yaml.v2 implement) and as YAML 1.2: every value stays the string it was.
    expect(YAML.parse(text, { version: '1.1' })).toEqual(value);
    expect(YAML.parse(text)).toEqual(value);
    // Plain words stay plain: quoting is only where a reader would retype.
    expect(renderDocument({ a: 'nginx', b: 'CONTAINER_RUNNING' }, 'yaml')).toBe('a: nginx\nb: CONTAINER_RUNNING\n');
  });
  // The reader people actually hit this with; skipped where python3 or its yaml module is missing.
  const pyYaml = spawnSync('python3', ['-c', 'import yaml'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!pyYaml)('PyYAML safe_load reads back every string as a string', () => {
    const value = {
      labels: {
        a: 'yes',
        b: 'on',
        c: 'off',
        d: 'y',
        e: 'n',
        f: '2024-05-02',
        g: '2024-05-02T09:14:07Z',
        h: '0777',
        i: '1_000',
        j: '1:30',
        k: '=',
        l: '~',
        m: '123',
      },
      on: 'no',
    };
    const r = spawnSync('python3', ['-c', 'import sys, json, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))'], {
      input: renderDocument(value, 'yaml'),
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(value);
  });
});

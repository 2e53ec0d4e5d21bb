// Recordings made against the Go reference runtime (refrt on containerd/nri v0.12.2's
// pkg/adaptation, with the Go sample plugins ulimit-adjuster and device-injector; how:
// test/fixtures/recordings/go-reference/README.md) replay in CI without Go: the same
// requests, handed to TypeScript stand-ins of the two samples, give the adjustments the
// Go runtime applied, and trace's view of them ends every field as the Go plugins did.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { assertBuilt, runCli } from '../commands/nri-cli.js';
import { fromGo, fromSim } from '../runtime/differential/nri-json.js';
import type { GoJson } from '../runtime/differential/fixture.js';

const dir = path.resolve(import.meta.dirname, '../fixtures/recordings/go-reference');
const at = (f: string) => path.join(dir, f);
const plugins = at('plugins');

describe('the Go reference recordings', () => {
  it('are the files the recording script wrote', () => {
    const sums = readFileSync(at('SHA256SUMS'), 'utf8').trim().split('\n');
    expect(sums.map((l) => l.split(/\s+/)[1])).toEqual(['trace.jsonl', 'logs.jsonl.gz', 'go-adjustments.json']);
    for (const line of sums) {
      const [hash, file] = line.split(/\s+/);
      expect(
        createHash('sha256')
          .update(readFileSync(at(file)))
          .digest('hex'),
        file,
      ).toBe(hash);
    }
  });

  it('logs --record: replayed to the stand-ins, every creation gets the adjustment the Go runtime applied', async () => {
    assertBuilt('sim');
    const r = await runCli([
      'sim',
      '--replay',
      at('logs.jsonl.gz'),
      '--plugin-dir',
      plugins,
      '-o',
      'json',
      '--no-interactive',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const records = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    const replay = records.find((x) => x.type === 'replay')!;
    // refrt is no runtime a preset imitates: NRI v0.12.2's rules, its name and version.
    expect(replay.preset).toBeUndefined();
    expect(replay).toMatchObject({
      presetFrom: 'recording',
      recordedOn: { name: 'refrt', version: '0.1.0', nriVersion: 'v0.12.2' },
      events: 17,
      pods: 1,
      containers: 1,
    });
    expect(records.find((x) => x.type === 'script-done')).toMatchObject({ failed: 0 });
    // The merged adjustment of each creation: what each plugin adjusted, in invocation order.
    const merged = new Map<string, GoJson>();
    for (const e of records.filter((x) => x.type === 'adjusted')) {
      const one = fromSim('ContainerAdjustment', nri.ContainerAdjustment.fromObject(e.adjust));
      merged.set(e.container, merge(merged.get(e.container) ?? {}, one));
    }
    const go = JSON.parse(readFileSync(at('go-adjustments.json'), 'utf8')) as {
      adjustments: Array<{ container: string; adjust: GoJson; update: unknown[] }>;
    };
    expect(go.adjustments.map((a) => a.container)).toEqual(['ctr-db', 'ctr-db-exporter', 'ctr-web-sidecar']);
    for (const a of go.adjustments) {
      expect(merged.get(a.container) ?? {}, a.container).toEqual(fromGo('ContainerAdjustment', a.adjust));
      expect(a.update).toEqual([]);
    }
    // Not nothing: rlimits and a device for the db, a mount for the sidecar.
    expect(Object.keys(merged.get('ctr-db')!).sort()).toEqual(['linux', 'rlimits']);
    expect(Object.keys(merged.get('ctr-web-sidecar')!)).toEqual(['mounts']);
  });

  it('trace --record: --compare with the stand-ins finds every traced field ending as the Go plugins left it', async () => {
    const r = await runCli(['sim', '--replay', at('trace.jsonl'), '--plugin-dir', plugins, '--compare', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ compared: 6, uncompared: { then: 0, now: 0 }, containers: [] });
  });
});

/** Two plugins' adjustments of one container as one: lists joined, messages merged. */
function merge(a: GoJson, b: GoJson): GoJson {
  const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
  for (const [k, v] of Object.entries(b as Record<string, unknown>)) {
    const prev = out[k];
    out[k] =
      Array.isArray(prev) && Array.isArray(v) ? [...prev, ...v] : isObject(prev) && isObject(v) ? merge(prev, v) : v;
  }
  return out;
}

const isObject = (v: unknown): v is GoJson => typeof v === 'object' && v !== null && !Array.isArray(v);

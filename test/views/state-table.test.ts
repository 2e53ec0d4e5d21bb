import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import chalk from 'chalk';
import { nri } from '../../src/api/index.js';
import { generateScenario } from '../../src/runtime/sim/generate.js';
import {
  renderCompactTable,
  renderStateTable,
  renderWithCliTable3,
  stateTableChunks,
  stateTableHead,
  stateTableRows,
} from '../../src/views/state-table.js';
import type { Container, Pod } from '../../src/output/nri-values.js';
import { syntheticState } from './fixtures.js';

const level = chalk.level;
beforeEach(() => {
  chalk.level = 0;
});
afterEach(() => {
  chalk.level = level;
});

const POD_A = `aaaa${'0'.repeat(60)}`;
const POD_B = `bbbb${'0'.repeat(60)}`;
const pods: Pod[] = [
  { id: POD_B, name: 'web-0', namespace: 'default' },
  { id: POD_A, name: 'empty', namespace: 'kube-system' },
];
const containers: Container[] = [
  { id: `cc02${'1'.repeat(60)}`, podSandboxId: POD_B, name: 'sidecar', state: 1 },
  {
    id: `cc01${'1'.repeat(60)}`,
    podSandboxId: POD_B,
    name: 'nginx',
    state: 'CONTAINER_RUNNING' as never, // as toObject leaves it
    linux: {
      resources: {
        cpu: { cpus: '0-3', mems: '0', quota: { value: 50000 }, period: { value: 100000 }, shares: { value: 512 } },
        memory: { limit: { value: 536870912 } },
      },
    },
  },
  { id: `dd01${'1'.repeat(60)}`, podSandboxId: 'gone', name: 'orphan', state: 4 },
];

describe('state table', () => {
  it('lists pods by namespace/name with their containers, short IDs and states', () => {
    const lines = renderStateTable(pods, containers).trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['POD', 'POD ID', 'CONTAINER', 'CONTAINER ID', 'STATE']);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/))).toEqual([
      ['default/web-0', 'bbbb000000000', 'nginx', 'cc01111111111', 'Running'],
      ['default/web-0', 'bbbb000000000', 'sidecar', 'cc02111111111', 'Created'],
      ['kube-system/empty', 'aaaa000000000', '-', '-', '-'],
      ['<unknown pod>', 'gone', 'orphan', 'dd01111111111', 'Stopped'],
    ]);
  });
  it('adds the resources in wide', () => {
    const lines = renderStateTable(pods, containers, { wide: true }).trimEnd().split('\n');
    expect(lines[0]).toMatch(/STATE\s+CPUSET\s+MEMS\s+MEMORY LIMIT\s+CPU QUOTA\/PERIOD\s+SHARES$/);
    expect(lines[1].split(/\s{2,}/).slice(4)).toEqual(['Running', '0-3', '0', '512Mi', '50000/100000', '512']);
    expect(lines[2].split(/\s{2,}/).slice(4)).toEqual(['Created', '-', '-', '-', '-', '-']);
  });
  it('turns into a list grouped by pod when the table is wider than the terminal', () => {
    const table = renderStateTable(pods, containers);
    const widest = Math.max(...table.split('\n').map((l) => l.length));
    expect(renderStateTable(pods, containers, { width: widest })).toBe(table);
    expect(renderStateTable(pods, containers, { width: undefined })).toBe(table);
    expect(renderStateTable(pods, containers, { width: widest - 1 }).split('\n')).toEqual([
      'default/web-0  bbbb000000000',
      '  nginx    cc01111111111  Running',
      '  sidecar  cc02111111111  Created',
      'kube-system/empty  aaaa000000000',
      '  (no containers)',
      '<unknown pod>  gone',
      '  orphan   dd01111111111  Stopped',
      '',
    ]);
    const wide = renderStateTable(pods, containers, { wide: true, width: 60 }).split('\n');
    expect(wide.slice(0, 4)).toEqual([
      'default/web-0  bbbb000000000',
      '  nginx    cc01111111111  Running',
      '    cpus 0-3  mems 0  memory 512Mi  quota/period 50000/100000  shares 512',
      '  sidecar  cc02111111111  Created',
    ]);
  });
  it('prints only the header for an empty runtime', () => {
    expect(renderStateTable([], []).trimEnd().split('\n')).toHaveLength(1);
  });
  it('lays out exactly as cli-table3 does, with and without colours', () => {
    for (const colour of [0, 1]) {
      chalk.level = colour as 0 | 1;
      for (const wide of [false, true]) {
        const head = stateTableHead({ wide }).map((h) => chalk.bold(h));
        const rows = stateTableRows(pods, containers, { wide });
        expect(renderCompactTable(stateTableHead({ wide }), rows)).toBe(renderWithCliTable3(head, rows));
      }
    }
  });
  it('falls back to cli-table3 for wide characters and keeps columns aligned', () => {
    const text = renderCompactTable(
      ['NAME', 'X'],
      [
        ['名前', '1'],
        ['ab', '2'],
      ],
    );
    const lines = text.trimEnd().split('\n');
    // cli-table3 measures 名前 as four columns wide, so the second column lines up on screen
    expect(lines[1].indexOf('1')).toBe(lines[2].indexOf('2') - 2);
  });
  it('renders 1,000 pods with 5,000 containers completely', () => {
    const big = syntheticState(1000, 5);
    const text = renderStateTable(big.pods, big.containers, { wide: true });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(5001);
    // every row's STATE column starts under the header's
    const stateColumn = lines[0].indexOf('STATE');
    expect(lines.slice(1).every((l) => /^(Running|Stopped) /.test(l.slice(stateColumn)))).toBe(true);
    expect(lines.filter((l) => l.includes('app-999-7d4b9c'))).toHaveLength(5);
  });
});

describe('stateTableChunks', () => {
  it.each([false, true])('wide %s: the compact table of every row, in pieces of a few hundred lines', (wide) => {
    const many = generateScenario({ pods: 300, containersPerPod: 3 });
    const chunks = [...stateTableChunks(many.pods, many.containers, { wide })];
    expect(chunks.length).toBeGreaterThan(2);
    const rows = stateTableRows(many.pods, many.containers, { wide });
    expect(chunks.join('')).toBe(renderCompactTable(stateTableHead({ wide }), rows));
  });

  it('a terminal narrower than the table gets the list by pod; one wide enough, the table', () => {
    // Complete messages, as sync dump decodes them (enums as numbers, int64 fields as numbers).
    const state = generateScenario({ pods: 40, containersPerPod: 3, detail: 'full' });
    const pods = state.pods.map((p) => nri.PodSandbox.decode(nri.PodSandbox.encode(p).finish()));
    const containers = state.containers.map((c) => nri.Container.decode(nri.Container.encode(c).finish()));
    const table = [...stateTableChunks(pods, containers)].join('');
    const widest = Math.max(...table.split('\n').map((l) => l.length));
    expect([...stateTableChunks(pods, containers, { width: widest })].join('')).toBe(table);
    const list = [...stateTableChunks(pods, containers, { width: widest - 1 })].join('');
    expect(list).not.toBe(table);
    expect(list.split('\n')[0]).toMatch(/^\S+\/\S+ {2}[0-9a-f]{13}$/); // a pod and its short id, no header
  });
});

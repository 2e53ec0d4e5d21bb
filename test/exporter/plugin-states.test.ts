// The six states of the exporter's contract from what `nrictl plugins` computes: the cases
// the command-line tests do not reach (a failed plugin that came back, probes that could
// not see, connections whose names only the runtime knows, the exporter itself).
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/checks/index.js';
import type { PluginsReport } from '../../src/diagnose/index.js';
import { pluginStates, simPluginStates } from '../../src/exporter/plugin-states.js';

const report = (over: Partial<PluginsReport>): PluginsReport => ({
  source: 'plugin-dir',
  runtime: 'crio',
  pluginDir: '/opt/nri/plugins',
  requestTimeoutMs: 2000,
  plugins: [],
  ...over,
});
const misnamed: Finding = {
  severity: 'error',
  path: '/opt/nri/plugins/topology-aware',
  code: 'misnamed-executable',
  message: '',
  fix: '',
};

describe('pluginStates', () => {
  it('from the runtime metrics: origin decides active, pre-started or external; failed counts as running; itself left out', () => {
    const s = pluginStates(
      report({
        source: 'runtime-metrics',
        plugins: [
          { name: '00-default-validator', state: 'active', origin: 'builtin' },
          { name: '10-policy', state: 'failed', origin: 'plugin-dir' },
          { name: '30-slow', state: 'dropped', origin: 'external' },
          { name: '50-logger', state: 'active', origin: 'external' },
          { name: '99-nrictl-exporter', state: 'active', origin: 'external' },
        ],
      }),
      [misnamed],
      '99-nrictl-exporter',
      true,
    );
    expect(s.plugins).toEqual([
      { plugin: 'default-validator', index: '00', state: 'active' },
      { plugin: 'policy', index: '10', state: 'pre-started' },
      { plugin: 'slow', index: '30', state: 'dropped' },
      { plugin: 'logger', index: '50', state: 'external' },
      { plugin: 'topology-aware', index: '', state: 'misnamed' },
    ]);
    expect(s.counts).toEqual({ active: 1, 'pre-started': 1, external: 1, 'not-running': 0, dropped: 1, misnamed: 1 });
  });

  it('a plugin gone before the drop window (a transient one that once failed) is in no state and no series, and not undetermined', () => {
    const s = pluginStates(
      report({
        source: 'runtime-metrics',
        plugins: [
          { name: '00-nrictl-conformance', state: 'gone', origin: 'external' },
          { name: '50-logger', state: 'active', origin: 'external' },
        ],
      }),
      [],
      '99-nrictl-exporter',
      true,
    );
    expect(s.plugins).toEqual([{ plugin: 'logger', index: '50', state: 'external' }]);
    expect(s.undetermined).toEqual([]);
    expect(s.counts.dropped).toBe(0);
  });

  it('from probes: a process seen is pre-started, none is not-running, unseen is in no state and said', () => {
    const s = pluginStates(
      report({
        plugins: [
          { name: '10-a', state: 'running', origin: 'plugin-dir' },
          { name: '20-b', state: 'not-running', origin: 'plugin-dir' },
          { name: '30-c', state: 'installed', origin: 'plugin-dir', byCommandLine: true },
          { name: '40-d', state: 'installed', origin: 'plugin-dir' },
        ],
      }),
      [],
      '99-nrictl-exporter',
      false,
    );
    expect(s.plugins.map((p) => `${p.index}-${p.plugin}:${p.state}`)).toEqual([
      '10-a:pre-started',
      '20-b:not-running',
      '30-c:pre-started',
    ]);
    expect(s.undetermined).toEqual(['40-d']);
  });

  it("counts unnamed connections as external, without the exporter's own", () => {
    const conn = (pid?: number) => ({ inode: 1, peers: pid === undefined ? [] : [{ pid, command: 'x' }] });
    // Ours named by pid: left out.
    const named = pluginStates(report({ connections: [conn(process.pid), conn(4242)] }), [], 'me', true);
    expect(named.counts.external).toBe(1);
    expect(named.plugins).toEqual([]);
    // No peer named (not root): one of them is ours while connected.
    expect(pluginStates(report({ connections: [conn(), conn()] }), [], 'me', true).counts.external).toBe(1);
    expect(pluginStates(report({ connections: [conn(), conn()] }), [], 'me', false).counts.external).toBe(2);
  });
});

describe('simPluginStates', () => {
  it("the simulator's plugins, and what its plugin directory holds that it does not run", () => {
    const s = simPluginStates(
      [
        { name: '10-a', external: false },
        { name: '50-ext', external: true },
        { name: '99-nrictl-exporter', external: true },
      ],
      ['10-a', '20-idle'],
      [],
      '99-nrictl-exporter',
    );
    expect(s.plugins.map((p) => `${p.index}-${p.plugin}:${p.state}`)).toEqual([
      '10-a:pre-started',
      '50-ext:external',
      '20-idle:not-running',
    ]);
  });
});

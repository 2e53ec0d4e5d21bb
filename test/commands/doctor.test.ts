// `nrictl doctor` against a fake node: a temporary root with a real containerd config,
// plugin directory and conf.d, and the simulated runtime listening on the socket path
// that config names. The CLI runs built, as a child process (node bin/run.js over dist/).
// Owner checks are on (the tests run as root, as on a node) when run as root.
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'vitest';
import YAML from 'yaml';
import { writeElf } from '../checks/helpers.js';
import { OTHERS_CANNOT_REACH, reachableTempDir, UNREACHABLE_NOTE } from '../support/reachable.js';
import { RUNTIME_PRESETS } from '../../src/runtime/index.js';
import { runCli, startRuntime, type SimHandle } from './nri-cli.js';

const repo = join(import.meta.dirname, '..', '..');

interface Doctor {
  code: number | null;
  stdout: string;
  stderr: string;
  json: {
    verdict: { status: string; reason: string };
    connection: string;
    runtime: {
      name: string;
      version: string;
      vintage: string;
      kind: string;
      label: string;
      pods: number;
      containers: number;
    } | null;
    findings: Array<{ severity: string; path: string; code: string; message: string }>;
  };
}

// Asynchronous on purpose: the simulated runtime in this process must answer meanwhile.
async function doctor(...args: string[]): Promise<Doctor> {
  const r = await runCli(['doctor', ...args]);
  let json: Doctor['json'];
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined as unknown as Doctor['json'];
  }
  return { ...r, json };
}

const errors = (d: Doctor) => d.json.findings.filter((f) => f.severity === 'error').map((f) => `${f.code} ${f.path}`);

const CONFIG = (disable: boolean) => `version = 2
[plugins."io.containerd.nri.v1.nri"]
  disable = ${disable}
  socket_path = "/run/nri/nri.sock"
  plugin_path = "/opt/nri/plugins"
  plugin_config_path = "/etc/nri/conf.d"
  plugin_registration_timeout = "5s"
  plugin_request_timeout = "2s"
`;

const POD_STATE = {
  pods: [{ id: 'pod0', name: 'web-0', namespace: 'default', uid: 'u0' }],
  containers: [
    { id: 'ctr0', podSandboxId: 'pod0', name: 'app', state: 2 },
    { id: 'ctr1', podSandboxId: 'pod0', name: 'sidecar', state: 2 },
  ],
};

/** A fake node of one test's own, so that the tests run side by side: its root, and the simulator on its socket. */
interface FakeNode {
  /** A temporary directory others can reach (0755), removed with the simulator when the test ends. */
  root: string;
  at(p: string): string;
  socket(): string;
  /** The containerd config, plugin directory and conf.d of a healthy node. */
  writeNode(opts?: { disable?: boolean }): void;
  startNodeRuntime(): Promise<void>;
  /** The simulator as the runtime of a preset (its name, version, NRI version and quirks) on the node's socket. */
  startPreset(preset: string): Promise<void>;
  /** The simulator with this state and these options. */
  serve(...args: Parameters<typeof startRuntime>): Promise<SimHandle>;
  runtime(): SimHandle | undefined;
  stopRuntime(): Promise<void>;
}

function fakeNode(onTestFinished: TestContext['onTestFinished']): FakeNode {
  const t = reachableTempDir('nridr-');
  const root = t.dir;
  chmodSync(root, 0o755);
  let runtime: SimHandle | undefined;
  const at = (p: string) => join(root, p);
  const socket = () => at('run/nri/nri.sock');
  const stopRuntime = async (): Promise<void> => {
    await runtime?.stop();
    runtime = undefined;
  };
  onTestFinished(async () => {
    await stopRuntime();
    t.cleanup();
  });
  const serve = async (...args: Parameters<typeof startRuntime>): Promise<SimHandle> => {
    runtime = await startRuntime(...args);
    return runtime;
  };
  return {
    root,
    at,
    socket,
    writeNode(opts = {}) {
      for (const d of ['etc/containerd', 'opt/nri/plugins', 'etc/nri/conf.d'])
        mkdirSync(at(d), { recursive: true, mode: 0o755 });
      writeFileSync(at('etc/containerd/config.toml'), CONFIG(opts.disable ?? false), { mode: 0o644 });
      writeElf(at('opt/nri/plugins/10-alpha'));
      writeFileSync(at('etc/nri/conf.d/10-alpha.conf'), 'cpus: "0-1"\n', { mode: 0o644 });
    },
    async startNodeRuntime() {
      await serve(POD_STATE, { socketPath: socket(), runtimeName: 'containerd', runtimeVersion: 'v1.7.20' });
    },
    async startPreset(preset) {
      const p = RUNTIME_PRESETS[preset];
      await serve(
        { pods: [], containers: [] },
        {
          socketPath: socket(),
          runtimeName: p.runtimeName,
          runtimeVersion: p.runtimeVersion,
          nriVersion: p.nriVersion,
          ...(p.quirks ? { quirks: p.quirks } : {}),
        },
      );
    },
    serve,
    runtime: () => runtime,
    stopRuntime,
  };
}

describe.concurrent('nrictl doctor on a fake node root', () => {
  it('healthy: reads the config, checks the paths it names, and the runtime answers', async ({
    expect,
    onTestFinished,
  }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode();
    await n.startNodeRuntime();
    const d = await doctor('--root', n.root, '--strict', '-o', 'json');
    expect(d.stderr).toBe('');
    expect(d.code).toBe(0);
    expect(d.json.connection).toBe('answered');
    expect(d.json.runtime).toEqual({
      name: 'containerd',
      version: 'v1.7.20',
      vintage: 'NRI v0.12.0',
      kind: 'containerd',
      label: 'containerd v1.7.20',
      // What the (simulated) runtime says of its NRI in Configure, v0.12 and later.
      nriVersion: 'v0.12.0',
      pods: 1,
      containers: 2,
    });
    expect(d.json.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(d.json.findings.map((f) => f.code)).toEqual(
      expect.arrayContaining(['config-used', 'nri-settings', 'runtime-answers']),
    );
    expect(d.json.verdict.status).toBe('healthy');

    const table = await doctor('--root', n.root);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(`Runtime config ${n.at('etc/containerd/config.toml')} (containerd): NRI enabled`);
    expect(table.stdout).toContain('Runtime: containerd v1.7.20 (NRI v0.12.0), 1 pods, 2 containers');
    expect(table.stdout).toMatch(
      /^Verdict: healthy: the runtime answers on .*run\/nri\/nri\.sock \(1 pods, 2 containers\)$/m,
    );
  });

  it('missing socket: socket-missing, no connection attempt, exit 1', async ({ expect, onTestFinished }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode();
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(d.code).toBe(1);
    expect(errors(d)).toEqual([`socket-missing ${n.socket()}`]);
    expect(d.json.connection).toBe('skipped');
    expect(d.json.verdict).toEqual({ status: 'broken', reason: '1 error: socket-missing' });
  });

  it("the runtime's own 0755 socket in a 0700 or 0755 directory: no socket finding, healthy", async ({
    expect,
    onTestFinished,
  }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode();
    await n.startNodeRuntime();
    chmodSync(n.socket(), 0o755);
    for (const dirMode of [0o700, 0o755]) {
      chmodSync(n.at('run/nri'), dirMode);
      chmodSync(n.at('run'), 0o755);
      const d = await doctor('--root', n.root, '--strict', '-o', 'json');
      expect(d.json.findings.filter((f) => f.code.startsWith('socket'))).toEqual([]);
      expect(d.code).toBe(0);
      expect(d.json.verdict.status).toBe('healthy');
    }
  });

  it.skipIf(OTHERS_CANNOT_REACH !== undefined)(
    `a 0666 socket others can reach: socket-writable-by-others, exit 1, though the runtime answers${UNREACHABLE_NOTE}`,
    async ({ expect, onTestFinished }) => {
      const n = fakeNode(onTestFinished);
      n.writeNode();
      await n.startNodeRuntime();
      chmodSync(n.socket(), 0o666);
      chmodSync(n.at('run'), 0o755);
      chmodSync(n.at('run/nri'), 0o755);
      const d = await doctor('--root', n.root, '-o', 'json');
      expect(d.code).toBe(1);
      expect(errors(d)).toEqual([`socket-writable-by-others ${n.socket()}`]);
      expect(d.json.findings.find((f) => f.code === 'socket-writable-by-others')!.message).toContain('mode 0666');
      expect(d.json.connection).toBe('answered');
      expect(d.json.verdict.status).toBe('broken');
    },
  );

  it.skipIf(OTHERS_CANNOT_REACH !== undefined)(
    `a socket under a directory others can write: socket-dir-writable-by-others, exit 1${UNREACHABLE_NOTE}`,
    async ({ expect, onTestFinished }) => {
      const n = fakeNode(onTestFinished);
      n.writeNode();
      await n.startNodeRuntime();
      chmodSync(n.at('run'), 0o777);
      const d = await doctor('--root', n.root, '-o', 'json');
      expect(d.code).toBe(1);
      expect(errors(d)).toEqual([`socket-dir-writable-by-others ${n.at('run')}`]);
    },
  );

  it('a misnamed plugin: misnamed-executable (discovery fails), exit 1', async ({ expect, onTestFinished }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode();
    writeElf(n.at('opt/nri/plugins/alpha'));
    await n.startNodeRuntime();
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(d.code).toBe(1);
    expect(errors(d)).toEqual([`misnamed-executable ${n.at('opt/nri/plugins/alpha')}`]);
  });

  it('an unreadable plugin configuration: config-unreadable once, exit 1', async ({ expect, onTestFinished }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode();
    // A directory where the file should be: unreadable even for root.
    mkdirSync(n.at('etc/nri/conf.d/20-beta.conf'));
    writeElf(n.at('opt/nri/plugins/20-beta'));
    await n.startNodeRuntime();
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(d.code).toBe(1);
    expect(errors(d)).toEqual([`config-unreadable ${n.at('etc/nri/conf.d/20-beta.conf')}`]);
  });

  it('NRI disabled in the config: nri-disabled is an error, and the socket is missing', async ({
    expect,
    onTestFinished,
  }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode({ disable: true });
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(d.code).toBe(1);
    expect(errors(d)).toEqual([`nri-disabled ${n.at('etc/containerd/config.toml')}`, `socket-missing ${n.socket()}`]);
    expect(d.json.verdict).toEqual({ status: 'broken', reason: '2 errors: nri-disabled, socket-missing' });
    const table = await doctor('--root', n.root);
    expect(table.stdout).toContain('(containerd): NRI disabled');
    expect(table.stdout).toMatch(/^Verdict: broken: 2 errors: nri-disabled, socket-missing$/m);
  });

  it('warnings only: exit 0, or 3 under --strict', async ({ expect, onTestFinished }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode();
    writeFileSync(n.at('etc/nri/conf.d/99-gone.conf'), 'x: 1\n');
    await n.startNodeRuntime();
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(d.code).toBe(0);
    expect(d.json.verdict.status).toBe('warnings');
    expect(d.json.verdict.reason).toContain('1 warning: config-orphan');
    expect((await doctor('--root', n.root, '--strict', '-o', 'json')).code).toBe(3);
  });

  it("--sim connects to the embedded simulator instead of the node's socket", async ({ expect, onTestFinished }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode();
    const d = await doctor('--root', n.root, '--sim', join(repo, 'examples/demo.yaml'), '-o', 'json');
    expect(d.code).toBe(0);
    expect(d.json.connection).toBe('answered');
    expect(d.json.runtime).toMatchObject({ name: 'nrictl-sim', pods: 3, containers: 5 });
  });

  it("--sim: never judges the embedded simulator's socket, even in a temporary directory others can write", async ({
    expect,
    onTestFinished,
  }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode();
    const tmp = n.at('shared-tmp');
    mkdirSync(tmp);
    chmodSync(tmp, 0o777);
    const r = await runCli(['doctor', '--root', n.root, '--sim', join(repo, 'examples/demo.yaml'), '-o', 'json'], {
      TMPDIR: tmp,
    });
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as Doctor['json'];
    expect(json.findings.filter((f) => f.code.startsWith('socket'))).toEqual([]);
    expect(json.connection).toBe('answered');
  });

  it('exits 2 for a --runtime-config that does not exist', async ({ expect, onTestFinished }) => {
    const n = fakeNode(onTestFinished);
    const d = await doctor('--root', n.root, '--runtime-config', n.at('nope.toml'));
    expect(d.code).toBe(2);
    expect(d.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 with one line when --root is not a directory', async ({ expect, onTestFinished }) => {
    const n = fakeNode(onTestFinished);
    writeFileSync(n.at('passwd'), 'root:x:0:0::/root:/bin/sh\n');
    const d = await doctor('--root', n.at('passwd'));
    expect(d.code).toBe(2);
    expect(d.stdout).toBe('');
    expect(d.stderr.trim().split('\n')).toEqual([
      `Error: --root: ${n.at('passwd')} is not a directory (the node's root directory: /, or where a node image is mounted)`,
    ]);
    const missing = await doctor('--root', n.at('nope'));
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([
      2,
      '',
      `Error: --root: ${n.at('nope')} does not exist\n`,
    ]);
  });

  it('exits 2 for a plugin name the runtime would refuse, before anything is asked', async ({
    expect,
    onTestFinished,
  }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode();
    await n.startNodeRuntime();
    const d = await doctor('--root', n.root, '--plugin-name', 'bad/name');
    expect(d.code).toBe(2);
    expect(d.stdout).toBe('');
    expect(d.stderr).toMatch(/^Error: --plugin-name "bad\/name": invalid plugin name/);
    expect(n.runtime()!.events.filter((e) => e.type === 'registered')).toEqual([]);
  });

  it('-o yaml: the same document as -o json', async ({ expect, onTestFinished }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode();
    await n.startNodeRuntime();
    const json = await doctor('--root', n.root, '-o', 'json');
    const yaml = await runCli(['doctor', '--root', n.root, '-o', 'yaml']);
    expect([json.code, yaml.code]).toEqual([0, 0]);
    expect(YAML.parse(yaml.stdout)).toEqual(json.json);
    expect(json.json.verdict.status).toBe('healthy');
  });

  it('keeps every fault of a runtime config: two wrong-type findings in one file are two findings', async ({
    expect,
    onTestFinished,
  }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode();
    writeFileSync(
      n.at('etc/containerd/config.toml'),
      CONFIG(false)
        .replace('disable = false', 'disable = "false"')
        .replace('plugin_request_timeout = "2s"', 'plugin_request_timeout = "5x"'),
    );
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(errors(d).filter((e) => e.startsWith('wrong-type'))).toHaveLength(2);
    const table = await doctor('--root', n.root);
    expect(table.stdout).toContain('(containerd): NRI on or off: invalid ("false")');
  });

  it('a missing plugin directory is said once', async ({ expect, onTestFinished }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode();
    rmSync(n.at('opt/nri/plugins'), { recursive: true });
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(d.json.findings.filter((f) => f.code === 'plugin-dir-missing')).toHaveLength(1);
  });
});

describe.concurrent('nrictl doctor on an iSulad node', () => {
  it('names iSulad, warns that plugin updates crash it, and says which timeout key it reads', async ({
    expect,
    onTestFinished,
  }) => {
    const n = fakeNode(onTestFinished);
    // iSulad's socket is not configurable: always /var/run/nri/nri.sock.
    for (const d of ['etc/isulad', 'opt/nri/plugins', 'etc/nri/conf.d', 'var/run/nri'])
      mkdirSync(n.at(d), { recursive: true, mode: 0o755 });
    chmodSync(n.at('var/run/nri'), 0o700);
    writeFileSync(
      n.at('etc/isulad/daemon.json'),
      JSON.stringify({ 'nri-support': true, 'enable-cri-v1': true, 'plugin-request-timeout': 5 }),
      { mode: 0o644 },
    );
    const isulad = RUNTIME_PRESETS['isulad-2.1.5'];
    await n.serve(
      { pods: [], containers: [] },
      {
        socketPath: n.at('var/run/nri/nri.sock'),
        runtimeName: isulad.runtimeName,
        runtimeVersion: isulad.runtimeVersion,
        nriVersion: isulad.nriVersion,
        quirks: isulad.quirks!,
      },
    );
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(d.code, d.stderr).toBe(0);
    const codes = d.json.findings.map((f) => `${f.severity}:${f.code}`);
    expect(codes).toContain('info:plugin-updates-crash-runtime');
    expect(codes).toContain('warning:request-timeout-ignored');
    const answers = d.json.findings.find((f) => f.code === 'runtime-answers');
    expect(answers?.message).toMatch(
      /^iSulad \(reports v2 2\.0\.0-beta\.2\+unknown\) \(NRI v0\.6 or older\) registered/,
    );
    expect(d.json.findings.find((f) => f.code === 'plugin-updates-crash-runtime')?.message).toMatch(
      /^iSulad crashes on any update or eviction a plugin sends through NRI .*nrictl update and evict refuse to send them here/,
    );
    expect(d.json.runtime).toMatchObject({ kind: 'isulad', label: 'iSulad (reports v2 2.0.0-beta.2+unknown)' });
  });
});

describe.concurrent("nrictl doctor and the default validator, against the running runtime's version", () => {
  /** The node of writeNode with a default_validator table; 10-alpha is installed. */
  function writeValidatorNode(n: FakeNode, table: string): void {
    n.writeNode();
    writeFileSync(
      n.at('etc/containerd/config.toml'),
      `${CONFIG(false)}  [plugins."io.containerd.nri.v1.nri".default_validator]\n${table}`,
      { mode: 0o644 },
    );
  }
  const validatorFindings = (d: Doctor) =>
    d.json.findings
      .filter((f) => /validator|required-plugin|plugins-connected/.test(f.code))
      .map((f) => [f.severity, f.code, f.message]);

  it('containerd 2.2.7: a required plugin installed passes, one not installed is a warning while nothing says which plugins are connected', async ({
    expect,
    onTestFinished,
  }) => {
    const n = fakeNode(onTestFinished);
    writeValidatorNode(
      n,
      '    enable = true\n    required_plugins = ["alpha", "10-alpha", "default-validator", "gatekeeper"]\n',
    );
    await n.startPreset('containerd-2.2.1');
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(d.code, d.stderr).toBe(0);
    const plugins = n.at('opt/nri/plugins');
    expect(validatorFindings(d)).toEqual([
      [
        'warning',
        'required-plugin-missing',
        `required plugin "gatekeeper" is not installed in ${plugins}: unless an external plugin of that name is connected, the runtime rejects every container creation (validation error: required plugin "gatekeeper" not present)`,
      ],
      [
        'info',
        'plugins-connected-unknown',
        `could not check which plugins are connected: ${n.at('etc/containerd/config.toml')} sets no metrics address, so the runtime's NRI metrics were not read; the validator's required plugins were checked against ${plugins} only`,
      ],
    ]);
    // The running version knows the table: lint's note on which versions do is not repeated.
    expect(d.json.findings.map((f) => f.code)).not.toContain('validator-key-version');
    expect(d.json.verdict.status).toBe('warnings');
  });

  it('containerd 2.1: the table is unknown to the running version, a warning, and its required plugins are not judged', async ({
    expect,
    onTestFinished,
  }) => {
    const n = fakeNode(onTestFinished);
    writeValidatorNode(n, '    enable = true\n    required_plugins = ["gatekeeper"]\n');
    await n.startPreset('containerd-2.1');
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(validatorFindings(d)).toEqual([
      [
        'warning',
        'validator-unknown-to-runtime',
        'the running containerd v2.1.9 does not know default_validator (containerd 2.2.0 and later do): it ignores the table and runs no default validator',
      ],
    ]);
    // A table that enables nothing loses nothing by being ignored: a note, not a warning.
    writeValidatorNode(n, '    enable = false\n');
    const off = await doctor('--root', n.root, '-o', 'json');
    expect(validatorFindings(off).map(([s, c]) => `${s}:${c}`)).toEqual(['info:validator-unknown-to-runtime']);
    expect(off.json.verdict.status).toBe('healthy');
  });

  it('containerd 2.2.0: reject_sysctl_adjustment is unknown to it (2.2.1 and later); 2.2.7 knows it', async ({
    expect,
    onTestFinished,
  }) => {
    const n = fakeNode(onTestFinished);
    writeValidatorNode(n, '    enable = true\n    reject_sysctl_adjustment = true\n');
    await n.startPreset('containerd-2.2.0');
    const old = await doctor('--root', n.root, '-o', 'json');
    expect(validatorFindings(old)).toEqual([
      [
        'warning',
        'validator-key-unknown-to-runtime',
        "the running containerd v2.2.0 does not know default_validator's reject_sysctl_adjustment (containerd 2.2.1 and later do): it ignores the key and does not reject sysctl adjustments",
      ],
    ]);
    await n.stopRuntime();
    await n.startPreset('containerd-2.2.1');
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(validatorFindings(d)).toEqual([]);
    expect(d.json.verdict.status).toBe('healthy');
  });

  it("no runtime answering: the version is unknown, so lint's notes on which versions know the keys stay", async ({
    expect,
    onTestFinished,
  }) => {
    const n = fakeNode(onTestFinished);
    writeValidatorNode(n, '    enable = true\n    reject_sysctl_adjustment = true\n');
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(d.json.connection).toBe('skipped');
    expect(validatorFindings(d).map(([s, c]) => `${s}:${c}`)).toEqual([
      'info:validator-key-version',
      'info:validator-key-version',
    ]);
  });

  it('no default validator: no finding about it at all', async ({ expect, onTestFinished }) => {
    const n = fakeNode(onTestFinished);
    n.writeNode();
    await n.startPreset('containerd-2.3');
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(validatorFindings(d)).toEqual([]);
    expect(d.json.verdict.status).toBe('healthy');
  });
});

describe.concurrent('nrictl doctor and the default validator on a CRI-O node', () => {
  function writeCrioNode(n: FakeNode): void {
    for (const d of ['etc/crio', 'opt/nri/plugins', 'etc/nri/conf.d'])
      mkdirSync(n.at(d), { recursive: true, mode: 0o755 });
    writeFileSync(
      n.at('etc/crio/crio.conf'),
      `[crio.nri]\nenable_nri = true\nnri_listen = "/run/nri/nri.sock"\n` +
        `[crio.nri.default_validator]\nnri_enable_default_validator = true\nnri_validator_required_plugins = ["gatekeeper"]\n`,
      { mode: 0o644 },
    );
  }
  const codes = (d: Doctor) =>
    d.json.findings
      .filter((f) => /validator|required-plugin|plugins-connected/.test(f.code))
      .map((f) => `${f.severity}:${f.code}`);

  it('CRI-O 1.33 does not know the table; 1.34 does, and cannot say which plugins are connected', async ({
    expect,
    onTestFinished,
  }) => {
    const n = fakeNode(onTestFinished);
    writeCrioNode(n);
    await n.startPreset('crio-1.33');
    const old = await doctor('--root', n.root, '-o', 'json');
    expect(codes(old)).toEqual(['warning:validator-unknown-to-runtime']);
    expect(old.json.findings.find((f) => f.code === 'validator-unknown-to-runtime')?.message).toBe(
      'the running cri-o 1.33.13 does not know [crio.nri.default_validator] (CRI-O 1.34.0 and later do): it ignores the table and runs no default validator',
    );
    await n.stopRuntime();
    await n.startPreset('crio-1.34');
    const d = await doctor('--root', n.root, '-o', 'json');
    expect(codes(d)).toEqual(['warning:required-plugin-missing', 'info:plugins-connected-unknown']);
    expect(d.json.findings.find((f) => f.code === 'plugins-connected-unknown')?.message).toMatch(
      /^could not check which plugins are connected: CRI-O serves no NRI metrics \(containerd does, from 2\.3 on\)/,
    );
  });
});

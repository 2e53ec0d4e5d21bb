import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  findRuntimeConfigs,
  lintRuntimeConfig,
  lintRuntimeConfigs,
  UnknownConfigFormatError,
} from '../../src/checks/index.js';
import { codesOf, tempDir, writeUnder } from './helpers.js';

let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir('nrirc-')));
afterEach(() => t.cleanup());
const file = (name: string, text: string) => writeUnder(t.dir, name, text);

describe('containerd config.toml', () => {
  it('reads the 1.7 layout (version 2) with every setting', () => {
    const r = lintRuntimeConfig(
      file(
        'config.toml',
        `version = 2
[plugins."io.containerd.nri.v1.nri"]
  disable = false
  disable_connections = true
  plugin_config_path = "/etc/nri/conf.d"
  plugin_path = "/opt/nri/plugins"
  plugin_registration_timeout = "10s"
  plugin_request_timeout = "1500ms"
  socket_path = "/run/nri/nri.sock"
`,
      ),
    );
    expect(r.format).toBe('containerd');
    expect(r.settings).toMatchObject({
      enabled: true,
      socketPath: '/run/nri/nri.sock',
      registrationTimeoutMs: 10000,
      requestTimeoutMs: 1500,
      externalConnections: false,
    });
    expect(codesOf(r.findings)).toEqual(['info:external-connections-disabled', 'info:nri-settings']);
  });

  it('reads the 2.x layout (version 3), the validator table, and flags unknown keys, bad types and stray timeouts', () => {
    const r = lintRuntimeConfig(
      file(
        'config.toml',
        `version = 3
plugin_request_timeout = "2s"
[plugins.'io.containerd.nri.v1.nri']
  disabel = true
  plugin_registration_timeout = 5
  plugin_request_timeout = "soon"
  config_file = "/etc/nri/nri.conf"
  [plugins.'io.containerd.nri.v1.nri'.default_validator]
    enable = true
    reject_oci_hooks = true
`,
      ),
    );
    expect(codesOf(r.findings)).toEqual(
      [
        'info:nri-settings',
        'info:validator-key-version', // default_validator needs containerd 2.2.0 or later
        'warning:nri-key-outside-section',
        'warning:obsolete-key',
        'warning:unknown-key',
        'warning:unknown-key',
        'error:wrong-type',
        'error:wrong-type',
      ].sort(),
    );
    expect(r.findings.find((f) => f.message.includes('disabel'))!.message).toContain('did you mean "disable"');
    expect(r.settings.enabled).toBe(true);
  });

  it('flags a missing NRI section and disable = true', () => {
    expect(
      codesOf(
        lintRuntimeConfig(
          file('a/config.toml', 'version = 2\n[plugins."io.containerd.grpc.v1.cri"]\n  sandbox_image = "x"\n'),
        ).findings,
      ),
    ).toEqual(['info:nri-settings', 'warning:nri-section-missing']);
    const off = lintRuntimeConfig(
      file('b/config.toml', 'version = 2\n[plugins."io.containerd.nri.v1.nri"]\n  disable = true\n'),
    );
    expect(codesOf(off.findings)).toEqual(['info:nri-settings', 'warning:nri-disabled']);
    expect(off.settings.enabled).toBe(false);
  });

  it('reports TOML syntax errors', () => {
    expect(codesOf(lintRuntimeConfig(file('config.toml', 'version = 2\n[plugins\n')).findings)).toEqual([
      'error:toml-syntax',
    ]);
  });
});

describe('CRI-O crio.conf and drop-ins', () => {
  it('reads [crio.nri], suggests enable_nri for enabled_nri, checks the validator table', () => {
    const r = lintRuntimeConfig(
      file(
        'crio.conf',
        `[crio.nri]
enabled_nri = true
nri_listen = "/var/run/nri/nri.sock"
nri_plugin_request_timeout = "3s"
nri_socket_path = "/x"
[crio.nri.default_validator]
nri_enable_default_validator = true
nri_validator_required_plugins = ["a", 1]
[crio.runtime]
enable_nri = true
`,
      ),
    );
    expect(r.format).toBe('crio');
    expect(codesOf(r.findings)).toEqual([
      'error:wrong-type',
      'info:nri-settings',
      'warning:nri-default',
      'warning:nri-key-outside-section',
      'warning:obsolete-key',
      'warning:unknown-key',
    ]);
    expect(r.findings.find((f) => f.code === 'unknown-key')!.fix).toBe('rename "enabled_nri" to "enable_nri"');
    expect(r.settings.requestTimeoutMs).toBe(3000);
  });

  it('a validator value of the wrong type gives no setting, as in containerd: only its finding', () => {
    const crio = lintRuntimeConfig(
      file(
        'crio.conf',
        `[crio.nri]
enable_nri = true
[crio.nri.default_validator]
nri_enable_default_validator = true
nri_validator_required_plugins = "ab"
`,
      ),
    );
    const containerd = lintRuntimeConfig(
      file(
        'config.toml',
        `version = 3
[plugins."io.containerd.nri.v1.nri"]
disable = false
[plugins."io.containerd.nri.v1.nri".default_validator]
enable = true
required_plugins = "ab"
`,
      ),
    );
    for (const r of [crio, containerd]) {
      expect(r.findings.find((f) => f.code === 'wrong-type')?.message).toMatch(/is a string, not a list of strings/);
      // Not "ab", whose characters lint would name as two missing plugins.
      expect(r.settings.defaultValidator).toEqual({ enable: true });
    }
  });

  it('applies drop-ins after crio.conf, in lexical order', () => {
    const main = file('crio.conf', '[crio.nri]\nenable_nri = false\nnri_plugin_dir = "/a"\n');
    const d2 = file('crio.conf.d/20-b.conf', '[crio.nri]\nnri_plugin_dir = "/c"\n');
    const d1 = file('crio.conf.d/10-a.conf', '[crio.nri]\nenable_nri = true\nnri_plugin_dir = "/b"\n');
    const reports = lintRuntimeConfigs([d2, main, d1]);
    expect(reports.map((r) => r.file)).toEqual([main, d1, d2]);
    const last = reports.at(-1)!;
    expect(last.settings).toMatchObject({ enabled: true, pluginPath: '/c' });
    expect(codesOf(reports[1].findings)).toEqual(['info:overrides-earlier-file', 'info:overrides-earlier-file']);
  });
});

describe('iSulad daemon.json', () => {
  it('reads hyphenated keys and requires enable-cri-v1', () => {
    const r = lintRuntimeConfig(
      file(
        'daemon.json',
        JSON.stringify({
          'nri-support': true,
          'plugin-path': '/opt/nri/plugins',
          'plugin-registration-timeout': 7,
          'plugin-requst-timeout': 3,
          'log-level': 'ERROR',
        }),
      ),
    );
    expect(r.format).toBe('isulad');
    expect(r.settings).toMatchObject({ enabled: true, registrationTimeoutMs: 7000, requestTimeoutMs: 3000 });
    expect(codesOf(r.findings)).toEqual([
      'error:cri-v1-required',
      'info:nri-settings',
      'info:request-timeout-spelling',
    ]);
  });

  it('says that iSulad reads "plugin-requst-timeout" and ignores "plugin-request-timeout"', () => {
    const lint = (cfg: object) =>
      lintRuntimeConfig(file('daemon.json', JSON.stringify({ 'nri-support': true, 'enable-cri-v1': true, ...cfg })));
    const unread = lint({ 'plugin-request-timeout': 9 });
    expect(codesOf(unread.findings)).toEqual(['info:nri-settings', 'warning:request-timeout-ignored']);
    expect(unread.settings.requestTimeoutMs).toBe(2000);
    const ignored = unread.findings.find((f) => f.code === 'request-timeout-ignored')!;
    expect(ignored.message).toBe(
      '"plugin-request-timeout" is not read: iSulad (2.1.5, and its master as of 2025-07) reads the request timeout from "plugin-requst-timeout", so the request timeout stays 2 s',
    );
    expect(ignored.fix).toBe(
      'write the value as "plugin-requst-timeout": 9 (keeping "plugin-request-timeout" does no harm)',
    );
    const both = lint({ 'plugin-request-timeout': 9, 'plugin-requst-timeout': 4 });
    expect(codesOf(both.findings)).toEqual(['info:nri-settings', 'warning:request-timeout-conflict']);
    expect(both.settings.requestTimeoutMs).toBe(4000);
    const same = lint({ 'plugin-request-timeout': 4, 'plugin-requst-timeout': 4 });
    expect(codesOf(same.findings)).toEqual(['info:nri-settings', 'info:request-timeout-spelling']);
  });

  it('says that "nri-socket-path" is never applied: the socket stays where it is', () => {
    const r = lintRuntimeConfig(
      file(
        'daemon.json',
        JSON.stringify({ 'nri-support': true, 'enable-cri-v1': true, 'nri-socket-path': '/run/x.sock' }),
      ),
    );
    expect(codesOf(r.findings)).toEqual(['info:nri-settings', 'warning:socket-path-not-applied']);
    expect(r.settings.socketPath).toBe('/var/run/nri/nri.sock');
  });

  it('ignores underscore spellings and flags wrong types and misspellings', () => {
    const r = lintRuntimeConfig(
      file(
        'daemon.json',
        JSON.stringify({
          nri_support: true,
          'enable-cri-v1': true,
          'plugin-registration-timeout': '5s',
          'nri-suport': true,
        }),
      ),
    );
    expect(codesOf(r.findings)).toEqual([
      'error:wrong-type',
      'info:nri-settings',
      'warning:nri-disabled',
      'warning:underscore-key-ignored',
      'warning:unknown-key',
    ]);
    expect(r.settings.enabled).toBe(false);
  });

  it('reports JSON syntax errors', () => {
    expect(codesOf(lintRuntimeConfig(file('daemon.json', '{"nri-support": true,')).findings)).toEqual([
      'error:json-syntax',
    ]);
  });
});

describe('one finding per fault, and never a default in place of an invalid value', () => {
  const setting = (r: { findings: Array<{ code: string; message: string }> }) =>
    r.findings.find((f) => f.code === 'nri-settings')!.message;

  it('containerd: disable = "false" is a wrong type, not also "does not set disable"; an invalid timeout is shown as written', () => {
    const r = lintRuntimeConfig(
      file(
        'config.toml',
        `version = 2
[plugins."io.containerd.nri.v1.nri"]
  disable = "false"
  plugin_request_timeout = "5x"
`,
      ),
    );
    expect(codesOf(r.findings)).toEqual(['error:wrong-type', 'error:wrong-type', 'info:nri-settings']);
    expect(r.settings.invalid).toEqual({ enabled: '"false"', requestTimeoutMs: '"5x"' });
    expect(r.settings.requestTimeoutMs).toBeNull();
    expect(setting(r)).toContain('NRI on or off: invalid ("false")');
    expect(setting(r)).toContain('request timeout invalid ("5x")');
    expect(setting(r)).not.toContain('2000 ms');
    expect(setting(r)).toContain('registration timeout 5000 ms'); // not set: the default is what runs
  });

  it('CRI-O: enable_nri = "yes" is a wrong type, not also "does not set enable_nri"; a later drop-in with a valid value wins', () => {
    const conf = file('etc/crio/crio.conf', '[crio.nri]\nenable_nri = "yes"\nnri_plugin_request_timeout = 5\n');
    const [only] = lintRuntimeConfigs([conf]);
    expect(codesOf(only.findings)).toEqual(['error:wrong-type', 'error:wrong-type', 'info:nri-settings']);
    expect(setting(only)).toContain('request timeout invalid (5)');
    const dropIn = file('etc/crio/crio.conf.d/10-nri.conf', '[crio.nri]\nnri_plugin_request_timeout = "3s"\n');
    const both = lintRuntimeConfigs([conf, dropIn]);
    expect(both.at(-1)!.settings.requestTimeoutMs).toBe(3000);
    expect(both.at(-1)!.settings.invalid).toEqual({ enabled: '"yes"' });
  });

  it('iSulad: "nri-support": "true" is a wrong type, not also "nri-support is false"', () => {
    const r = lintRuntimeConfig(
      file(
        'daemon.json',
        JSON.stringify({ 'nri-support': 'true', 'enable-cri-v1': true, 'plugin-requst-timeout': '2' }),
      ),
    );
    expect(codesOf(r.findings)).toEqual(['error:wrong-type', 'error:wrong-type', 'info:nri-settings']);
    expect(setting(r)).toContain('NRI on or off: invalid ("true")');
    expect(setting(r)).toContain('request timeout invalid ("2")');
  });
});

describe('timeouts are read as Go reads them, by the one duration parser', () => {
  const containerd = (name: string, registration: string, request: string) =>
    lintRuntimeConfig(
      file(
        name,
        `version = 2\n[plugins."io.containerd.nri.v1.nri"]\n  disable = false\n  plugin_registration_timeout = "${registration}"\n  plugin_request_timeout = "${request}"\n`,
      ),
    );

  it('Go syntax: 1h2m3.5s, 300ms, 1.5h; and values beyond a Node timer are still valid to the runtime', () => {
    const r = containerd('a/config.toml', '1h2m3.5s', '300ms');
    expect(r.settings.registrationTimeoutMs).toBe(3_723_500);
    expect(r.settings.requestTimeoutMs).toBe(300);
    expect(containerd('b/config.toml', '1.5h', '600h').settings.requestTimeoutMs).toBe(600 * 3_600_000);
    expect(codesOf(containerd('c/config.toml', '1.5h', '600h').findings)).toEqual(['info:nri-settings']);
  });

  it('zero parses, as in Go, and is its own finding; a bare number is a wrong type that says a unit is missing', () => {
    expect(codesOf(containerd('d/config.toml', '5s', '0').findings)).toEqual([
      'error:timeout-not-positive',
      'info:nri-settings',
    ]);
    const bare = containerd('e/config.toml', '5s', '2');
    expect(codesOf(bare.findings)).toEqual(['error:wrong-type', 'info:nri-settings']);
    expect(bare.findings[0].message).toContain('"2" is not a duration (a duration needs a unit, such as 2s or 500ms)');
  });
});

describe('messages are one line', () => {
  it('a JSON syntax error names line and column, without the text V8 copies into its message', () => {
    const r = lintRuntimeConfig(file('daemon.json', '{\n  "nri-support": true,\n  "a": }\n'));
    const f = r.findings.find((x) => x.code === 'json-syntax')!;
    expect(f.message).not.toMatch(/[\r\n]/);
    expect(f.message).toMatch(/^not valid JSON \(Unexpected token '}'\): iSulad does not start$/);
    const trailing = lintRuntimeConfig(file('b/daemon.json', '{\n  "nri-support": true,\n}\n')).findings.find(
      (x) => x.code === 'json-syntax',
    )!;
    expect(trailing.message).toBe(
      'not valid JSON (line 3, column 1: Expected double-quoted property name): iSulad does not start',
    );
  });
});

describe('discovery and formats', () => {
  it('finds the runtime configs present under a root', () => {
    file('etc/containerd/config.toml', 'version = 2\n');
    file('etc/crio/crio.conf.d/10-nri.conf', '[crio.nri]\n');
    file('etc/isulad/daemon.json', '{}');
    expect(findRuntimeConfigs(t.dir)).toEqual([
      join(t.dir, 'etc/containerd/config.toml'),
      join(t.dir, 'etc/crio/crio.conf.d/10-nri.conf'),
      join(t.dir, 'etc/isulad/daemon.json'),
    ]);
  });

  it('recognises content when the name says nothing, and refuses what it cannot recognise', () => {
    expect(lintRuntimeConfig(file('x.conf', '[crio.nri]\nenable_nri = true\n')).format).toBe('crio');
    expect(() => lintRuntimeConfig(file('y.conf', 'hello'))).toThrow(UnknownConfigFormatError);
  });
});

describe('one reader for every runtime', () => {
  it('a key named as a JavaScript object member ("constructor", "toString") is an unknown key, not taken for a known one', () => {
    const containerd = lintRuntimeConfig(
      file('config.toml', 'version = 3\n[plugins."io.containerd.nri.v1.nri"]\n  constructor = 1\n'),
    );
    expect(containerd.findings.find((f) => f.code === 'unknown-key')?.message).toBe(
      '[plugins."io.containerd.nri.v1.nri"]: unknown key "constructor": containerd ignores it',
    );
    const crio = lintRuntimeConfig(file('crio.conf', '[crio.nri]\nenable_nri = true\ntoString = "x"\n'));
    expect(codesOf(crio.findings)).toEqual(['info:nri-settings', 'warning:unknown-key']);
    const docker = lintRuntimeConfig(file('d/daemon.json', '{"nri-opts": {"enable": true, "constructor": 1}}'));
    expect(docker.findings.find((f) => f.code === 'unknown-key')?.severity).toBe('error');
  });
});

describe('findings keep the key they are about', () => {
  const outside = (r: { findings: Array<{ code: string; message: string }> }) =>
    r.findings.find((f) => f.code === 'nri-key-outside-section')!.message;

  it('a timeout under the CRI section is named whole', () => {
    const r = lintRuntimeConfig(
      file('config.toml', 'version = 2\n[plugins."io.containerd.grpc.v1.cri"]\n  plugin_registration_timeout = "5s"\n'),
    );
    expect(outside(r)).toBe(
      '"plugins."io.containerd.grpc.v1.cri".plugin_registration_timeout" is outside [plugins."io.containerd.nri.v1.nri"]: containerd ignores it there',
    );
  });

  it('under a long table name the middle of the path is cut, never the key, and the path stays bounded', () => {
    const handler = `${'gpu-'.repeat(60)}handler`;
    const r = lintRuntimeConfig(
      file(
        'config.toml',
        `version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes."${handler}.x".options]\n  plugin_request_timeout = "5s"\n`,
      ),
    );
    const path = /^"(.*)" is outside /.exec(outside(r))![1];
    expect(path).toHaveLength(120);
    expect(path).toMatch(
      /^plugins\."io\.containerd\.grpc\.v1\.cri"\.containerd\.r…u-(gpu-)+handler\.x"\.options\.plugin_request_timeout$/,
    );
    expect(path.endsWith('handler.x".options.plugin_request_timeout')).toBe(true);
  });

  it('a pathological key is cut in its middle: its start and its end are shown, the message bounded', () => {
    const key = `plugin_${'x'.repeat(50_000)}_timeout`;
    const r = lintRuntimeConfig(
      file('config.toml', `version = 3\n[plugins."io.containerd.nri.v1.nri"]\n  ${key} = 1\n`),
    );
    const unknown = r.findings.find((f) => f.code === 'unknown-key')!;
    expect(unknown.message.length).toBeLessThan(200);
    expect(unknown.message).toMatch(/unknown key "plugin_x+…x+_timeout": containerd ignores it$/);
    const crio = lintRuntimeConfig(file('crio.conf', `[crio.${'t'.repeat(50_000)}_nri]\nnri_listen = "/x"\n`));
    const stray = crio.findings.find((f) => f.code === 'nri-key-outside-section')!;
    expect(stray.message.length).toBeLessThan(200);
    expect(stray.message).toMatch(/^"nri_listen" is in \[crio\.t+…t+_nri\], not \[crio\.nri\]/);
  });
});

describe('the pause image a config names (conformance runs its containers from it)', () => {
  it("containerd: 2.x's pinned sandbox image before 1.7's sandbox_image; none when unset, empty or not a string", () => {
    const pause = (name: string, text: string) => lintRuntimeConfig(file(`${name}/config.toml`, text)).pauseImage;
    const cri17 = '[plugins."io.containerd.grpc.v1.cri"]\nsandbox_image = "registry.k8s.io/pause:3.8"\n';
    const pinned = '[plugins."io.containerd.cri.v1.images".pinned_images]\nsandbox = "registry.k8s.io/pause:3.10"\n';
    expect(pause('a', `version = 2\n${cri17}`)).toBe('registry.k8s.io/pause:3.8');
    expect(pause('b', `version = 3\n${pinned}`)).toBe('registry.k8s.io/pause:3.10');
    expect(pause('c', `version = 3\n${pinned}${cri17}`)).toBe('registry.k8s.io/pause:3.10');
    expect(pause('d', 'version = 3\n')).toBeUndefined();
    expect(pause('e', 'version = 2\n[plugins."io.containerd.grpc.v1.cri"]\nsandbox_image = ""\n')).toBeUndefined();
    expect(pause('f', 'version = 2\n[plugins."io.containerd.grpc.v1.cri"]\nsandbox_image = 3\n')).toBeUndefined();
  });

  it("CRI-O: [crio.image] pause_image, a later drop-in's winning; iSulad: pod-sandbox-image", () => {
    const main = file('crio.conf', '[crio.image]\npause_image = "registry.k8s.io/pause:3.9"\n');
    const later = file('crio.conf.d/10-pause.conf', '[crio.image]\npause_image = "example.com/pause:1"\n');
    expect(lintRuntimeConfigs([main]).at(-1)!.pauseImage).toBe('registry.k8s.io/pause:3.9');
    expect(lintRuntimeConfigs([later, main]).at(-1)!.pauseImage).toBe('example.com/pause:1');
    const isulad = (text: string) => lintRuntimeConfig(file('isulad/daemon.json', text)).pauseImage;
    expect(isulad('{"pod-sandbox-image": "mirrors/pause:3.9"}')).toBe('mirrors/pause:3.9');
    expect(isulad('{"pod-sandbox-image": 7}')).toBeUndefined();
  });
});

// The files of a new plugin project. Each is a function of the plugin's name so that
// what is written is exactly what the project's own test exercises.
export interface ProjectSpec {
  /** Plugin and npm package name: lower case, digits, '.', '_', '-'. */
  name: string;
  /** Two-digit index the plugin gets in tests and in its bundle name. */
  index: string;
  /** What package.json depends on for nrictl: a semver range, or file:/path/to/nrictl.tgz. */
  nrictlSpec: string;
  typescriptVersion: string;
  typesNodeVersion: string;
}

function packageJson(p: ProjectSpec): string {
  return `${JSON.stringify(
    {
      name: p.name,
      version: '0.1.0',
      private: true,
      description: `NRI plugin ${p.name}, written with nrictl's SDK`,
      type: 'module',
      scripts: {
        build: 'tsc -p .',
        test: 'npm run build && node --test test/',
        bundle: `npm run build && nrictl plugin bundle src/index.ts --out build/${p.index}-${p.name}`,
      },
      engines: { node: '>=20.12.0' },
      dependencies: { nrictl: p.nrictlSpec },
      devDependencies: { '@types/node': p.typesNodeVersion, typescript: p.typescriptVersion },
    },
    null,
    2,
  )}\n`;
}

function tsconfigJson(): string {
  return `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023'],
        types: ['node'],
        strict: true,
        skipLibCheck: true,
        outDir: 'dist',
        rootDir: 'src',
      },
      include: ['src'],
    },
    null,
    2,
  )}\n`;
}

function indexTs(p: ProjectSpec): string {
  return `// ${p.name}: an NRI plugin. Every container created gets an annotation saying the
// plugin saw it, and, when its pod asks with the annotation "${p.name}.nri.io/env",
// that NAME=value pair in its environment.
import { Stub, PluginError, socketPathFromArgs, type nri } from 'nrictl/plugin';

const ENV_ANNOTATION = '${p.name}.nri.io/env';

export function createContainer(pod: nri.IPodSandbox, ctr: nri.IContainer) {
  const env: nri.IKeyValue[] = [];
  const wanted = pod.annotations?.[ENV_ANNOTATION];
  if (wanted !== undefined) {
    const eq = wanted.indexOf('=');
    if (eq <= 0) throw new Error(\`pod \${pod.namespace}/\${pod.name}: \${ENV_ANNOTATION} must read NAME=value, got "\${wanted}"\`);
    env.push({ key: wanted.slice(0, eq), value: wanted.slice(eq + 1) });
  }
  return { adjust: { annotations: { '${p.name}.nri.io/seen': ctr.name ?? '' }, env } };
}

const stub = new Stub({ createContainer, onClose: (err) => process.exit(err ? 1 : 0) }, { socketPath: socketPathFromArgs() });
try {
  // --socket PATH as an external plugin; launched by a runtime, the connection on fd 3.
  await stub.start();
  console.error(\`\${stub.fullName}: live on \${stub.runtime?.name} \${stub.runtime?.version}\`);
} catch (err) {
  console.error(err instanceof PluginError ? err.message : err);
  process.exit(1);
}
`;
}

function scenarioYaml(p: ProjectSpec): string {
  return `# A pod that asks for an environment variable through ${p.name}'s annotation, one that
# does not, and a container in each. test/expect.yaml says what the plugin must do.
pods:
  - id: pod-asks
    name: web-0
    uid: 0b7d6a52-1c2e-4f3a-9b8c-7d6e5f4a3b21
    namespace: demo
    annotations: {${p.name}.nri.io/env: GREETING=hello}
  - id: pod-plain
    name: worker-0
    uid: 4c1e2f3a-5b6c-4d7e-8f90-a1b2c3d4e5f6
    namespace: demo

steps:
  - create:
      id: ctr-web
      pod: pod-asks
      name: web
      env: [PATH=/usr/bin:/bin]
  - create:
      id: ctr-worker
      pod: pod-plain
      name: worker
`;
}

function expectYaml(p: ProjectSpec): string {
  return `# What ${p.name} must have done after each step of scenario.yaml; checked by
# \`nrictl sim --plugin-path DIR --expect test/expect.yaml\` (npm test does it). A value
# that differs is reported with the plugin that set it.
scenario: scenario.yaml
no-plugin-failures: true
expect:
  - after: create ctr-web
    result: succeeded
    env: {GREETING: hello, PATH: /usr/bin:/bin}
    annotations: {${p.name}.nri.io/seen: web}
  - after: create ctr-worker
    env: {GREETING: null}
    annotations: {${p.name}.nri.io/seen: worker}
`;
}

function testMjs(p: ProjectSpec): string {
  return `// Runs the built plugin under nrictl's simulated runtime, launched from a plugin
// directory as ${p.index}-${p.name} the way containerd would start it, drives
// test/scenario.yaml and checks test/expect.yaml; a failure shows the diff.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const nrictl = join(root, 'node_modules', '.bin', 'nrictl');

test('the plugin does what test/expect.yaml says', () => {
  const plugins = mkdtempSync(join(tmpdir(), '${p.name}-plugins-'));
  try {
    // The runtime starts an executable named NN-name; this one runs the compiled plugin.
    const exe = join(plugins, '${p.index}-${p.name}');
    writeFileSync(exe, \`#!/bin/sh\\nexec "\${process.execPath}" "\${join(root, 'dist', 'index.js')}" "$@"\\n\`);
    chmodSync(exe, 0o755);
    const r = spawnSync(nrictl, ['sim', '--plugin-path', plugins, '--expect', join(root, 'test', 'expect.yaml'), '--no-interactive'], { encoding: 'utf8', timeout: 60_000 });
    const report = r.stdout.split('\\n').filter((l) => !/^\\d\\d:/.test(l)).join('\\n');
    assert.equal(r.status, 0, \`nrictl sim --expect exited \${r.status}:\\n\${report}\${r.stderr}\`);
    assert.match(report, /expectations: \\d+ passed, 0 failed/);
  } finally {
    rmSync(plugins, { recursive: true, force: true });
  }
});
`;
}

function readmeMd(p: ProjectSpec): string {
  return `# ${p.name}

An NRI plugin written with [nrictl](https://www.npmjs.com/package/nrictl)'s SDK. It
annotates every new container and, when the pod carries \`${p.name}.nri.io/env: NAME=value\`,
puts that variable into the container's environment.

\`\`\`sh
npm install
npm test          # build, then run the plugin under nrictl's simulated runtime (test/scenario.yaml)
npm run bundle    # one executable file, build/${p.index}-${p.name}, the SDK inside
\`\`\`

- \`src/index.ts\`: the plugin. Handlers may be async, but must answer within the
  runtime's request timeout (\`stub.requestTimeoutMs\`, 2 s by default).
- \`test/scenario.yaml\`: pods and the steps the simulator drives; \`test/expect.yaml\`:
  what the plugin must have done after them (\`nrictl sim --help\`, --expect).

Deploy: copy \`build/${p.index}-${p.name}\` into the runtime's plugin directory
(\`/opt/nri/plugins\` by default) to have it started with the runtime, or run it as an
external plugin: \`./build/${p.index}-${p.name} --socket /var/run/nri/nri.sock\`. It needs
\`node\` (20.12 or newer) on the host's PATH.
`;
}

function gitignore(): string {
  return 'node_modules/\ndist/\nbuild/\n';
}

export function projectFiles(p: ProjectSpec): Array<{ path: string; content: string }> {
  return [
    { path: 'package.json', content: packageJson(p) },
    { path: 'tsconfig.json', content: tsconfigJson() },
    { path: 'src/index.ts', content: indexTs(p) },
    { path: 'test/scenario.yaml', content: scenarioYaml(p) },
    { path: 'test/expect.yaml', content: expectYaml(p) },
    { path: 'test/plugin.test.mjs', content: testMjs(p) },
    { path: 'README.md', content: readmeMd(p) },
    { path: '.gitignore', content: gitignore() },
  ];
}

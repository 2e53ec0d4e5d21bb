// The files of a new plugin project. Each is a function of the plugin's name so that
// what is written is exactly what the project's own test exercises.
import { BUNDLE_NODE, NRI_SOCKET, containerfile, containerignore, daemonsetYaml } from './deploy-templates.js';
import type { ProjectSpec } from './project-spec.js';

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
      // What runs the bundle; nrictl itself runs on less.
      engines: { node: `>=${BUNDLE_NODE}.0` },
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
# \`nrictl sim --plugin-dir DIR --expect test/expect.yaml\` (npm test does it). A value
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
    const r = spawnSync(nrictl, ['sim', '--plugin-dir', plugins, '--expect', join(root, 'test', 'expect.yaml'), '--no-interactive'], { encoding: 'utf8', timeout: 60_000 });
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
  const b = `${p.index}-${p.name}`;
  const vendored = p.nrictlSpec.startsWith('file:vendor/');
  return `# ${p.name}

An NRI plugin written with [nrictl](https://www.npmjs.com/package/nrictl)'s SDK. It
annotates every new container and, when the pod carries \`${p.name}.nri.io/env: NAME=value\`,
puts that variable into the container's environment.

\`\`\`sh
npm install
npm test          # build, then run the plugin under nrictl's simulated runtime (test/scenario.yaml)
npm run bundle    # one executable file, build/${b}, the SDK inside
\`\`\`

- \`src/index.ts\`: the plugin. Handlers may be async, but must answer within the
  runtime's request timeout (\`stub.requestTimeoutMs\`, 2 s by default).
- \`test/scenario.yaml\`: pods and the steps the simulator drives; \`test/expect.yaml\`:
  what the plugin must have done after them (\`nrictl sim --help\`, --expect).
${
  vendored
    ? `- \`${p.nrictlSpec.slice('file:'.length)}\`: the nrictl this project builds and tests with, a copy of the
  one that created it (package.json: \`${p.nrictlSpec}\`). Keep it with the project;
  to move to another nrictl, \`npm install nrictl@VERSION\` or a newer tarball.
`
    : ''
}
## Deploy

The bundle needs \`node\` ${BUNDLE_NODE} or newer where it runs: it is an ES module without an
extension, which older Node reads as CommonJS.

### As an external plugin, in a container on every node

\`\`\`sh
npm run bundle
podman build -t ${p.name}:0.1.0 .          # Containerfile: node:20-slim and the bundle
# push the image where your nodes pull from, set it as image: in deploy/daemonset.yaml, then
kubectl apply -f deploy/daemonset.yaml
\`\`\`

Each pod mounts the node's \`/var/run/nri\` and dials \`${NRI_SOCKET}\`; the runtime must
allow external plugins (containerd: \`disable_connections = false\`, the default). The
plugin registers as ${b} (its file name in the image). When the runtime restarts, the
connection closes, the plugin exits and the pod's container is restarted, registering again.
Without Kubernetes: \`./build/${b} --socket ${NRI_SOCKET}\` on the node, as root.

### Pre-installed, in the runtime's plugin directory

The runtime starts every \`NN-name\` executable of its plugin directory when it starts,
before any container, handing each its connection:

\`\`\`sh
install -m 0755 -o root -g root build/${b} /opt/nri/plugins/${b}
# Optional configuration, passed to the plugin when it registers. containerd and CRI-O
# read /etc/nri/conf.d/${b}.conf, else /etc/nri/conf.d/${p.name}.conf; iSulad only
# ${b}.conf, so that name works everywhere.
install -m 0644 -o root -g root my-config.yaml /etc/nri/conf.d/${b}.conf
nrictl validate /opt/nri/plugins          # names, owners and modes as the runtime wants them
systemctl restart containerd              # or crio, isulad: the plugin is picked up at the restart
\`\`\`

The directories are the runtime's \`plugin_path\` and \`plugin_config_path\` (containerd's
defaults here); \`nrictl doctor\` shows the ones your runtime uses.
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
    { path: 'Containerfile', content: containerfile(p) },
    { path: '.dockerignore', content: containerignore() },
    { path: 'deploy/daemonset.yaml', content: daemonsetYaml(p) },
    { path: '.gitignore', content: gitignore() },
  ];
}

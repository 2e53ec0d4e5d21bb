// `nrictl conformance` as users run it (the built CLI): against a simulated runtime in
// this process serving NRI and CRI on real sockets, as against a node; and --sim.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCri } from '../../src/runtime/sim/cri/serve.js';
import { assertBuilt, runCli, startCli, startRuntime, tempDir, type SimHandle } from './nri-cli.js';

let sim: SimHandle;
let criSocket: string;
let closeCri: () => Promise<void>;
const scratch = tempDir('nrcf-');

beforeAll(async () => {
  assertBuilt('conformance');
  sim = await startRuntime({}, { runtimeName: 'containerd', runtimeVersion: 'v2.3.4' });
  const served = await serveCri(sim.runtime, path.join(path.dirname(sim.socketPath), 'cri.sock'), {
    runtimeName: 'containerd',
    runtimeVersion: 'v2.3.4',
    // The node has its pause image and nothing else.
    images: ['registry.k8s.io/pause:3.10'],
  });
  criSocket = served.socketPath;
  closeCri = () => served.close();
});
afterAll(async () => {
  await closeCri?.();
  await sim?.stop();
  scratch.cleanup();
});

const node = () => ['conformance', '--cri-socket', criSocket, '--socket', sim.socketPath];
/** Nothing of a run is left in the simulator, and nothing was ever made when `made` is false. */
function nothingLeft(made = true): void {
  expect(sim.runtime.state.pods()).toEqual([]);
  expect(sim.runtime.state.containers()).toEqual([]);
  expect(sim.runtime.plugins()).toEqual([]);
  if (!made) expect(sim.of('state-changed').filter((e) => e.event === 'RunPodSandbox')).toEqual([]);
}
function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0];
}

describe('bad input: exit 2, one line, nothing made', () => {
  it('no CRI socket', async () => {
    const r = await runCli(['conformance', '--cri-socket', path.join(scratch.dir, 'none.sock'), '--yes']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/^Error: --cri-socket: no CRI runtime to test: no CRI socket at .*none\.sock/);
  });

  it('a CRI socket that is not CRI (an NRI socket)', async () => {
    const r = await runCli(['conformance', '--cri-socket', sim.socketPath, '--yes']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/^Error: --cri-socket: no CRI runtime to test: .*nri\.sock is not a CRI socket/);
    nothingLeft(false);
  });

  it('a runtime without NRI', async () => {
    const r = await runCli([...node().slice(0, 3), '--socket', path.join(scratch.dir, 'nri.sock'), '--yes']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/^Error: --socket: no NRI socket at .*nri\.sock: the runtime has NRI disabled/);
    nothingLeft(false);
  });

  it('an NRI socket that is not NRI (the CRI socket)', async () => {
    const r = await runCli([...node().slice(0, 3), '--socket', criSocket, '--yes']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(
      /^Error: --socket: the runtime at .*cri\.sock takes no NRI plugin: nrictl rejected a malformed message from .*cri\.sock/,
    );
    nothingLeft(false);
  });

  it("two runtimes' sockets: CRI-O's CRI and containerd's NRI", async () => {
    const crio = await serveCri(sim.runtime, path.join(scratch.dir, 'crio.sock'), {
      runtimeName: 'cri-o',
      runtimeVersion: '1.34.0',
      images: ['registry.k8s.io/pause:3.10'],
    });
    try {
      const r = await runCli(['conformance', '--cri-socket', crio.socketPath, '--socket', sim.socketPath, '--yes']);
      expect(r.code).toBe(2);
      expect(oneLine(r.stderr)).toMatch(
        /^Error: --socket: .*nri\.sock belongs to containerd v2\.3\.4, but .*crio\.sock to cri-o 1\.34\.0: give the same runtime's sockets/,
      );
      nothingLeft(false);
    } finally {
      await crio.close();
    }
  });

  it('an image the node does not have', async () => {
    const r = await runCli([...node(), '--image', 'busybox:1.36', '--yes']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/^Error: --image: the image busybox:1\.36 is not on the node: .*--pull/);
    nothingLeft(false);
  });

  it('a --focus that matches nothing', async () => {
    const r = await runCli([...node(), '--focus', 'no-such-check', '--yes']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/^Error: --focus: "no-such-check" matches no check/);
    nothingLeft(false);
  });

  it('a --junit file that cannot be written: said before the run, not after it', async () => {
    const r = await runCli([...node(), '--yes', '--junit', path.join(scratch.dir, 'no-such-dir', 'c.xml')]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/^Error: --junit: cannot write a file in .*no-such-dir \(ENOENT\)/);
    nothingLeft(false);
  });

  it('a --junit path that is a directory', async () => {
    const r = await runCli([...node(), '--yes', '--junit', scratch.dir]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toBe(`Error: --junit: ${scratch.dir} is a directory: give a file name`);
    nothingLeft(false);
  });

  it('the Docker preset alone', async () => {
    const r = await runCli(['conformance', '--sim', '--preset', 'docker-29']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/^Error: --preset: Docker serves no CRI .*: the checks run through CRI$/);
  });

  it('without a terminal, or under CI, it runs only with --yes', async () => {
    const r = await runCli([...node()], { CI: 'true' });
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/no terminal to confirm on .*add --yes/);
    nothingLeft(false);
  });
});

describe('a run', () => {
  it('against a node: the chosen checks, JSON on stdout, JUnit in a file, nothing left', async () => {
    const junit = path.join(scratch.dir, 'c.xml');
    const r = await runCli([
      ...node(),
      '--yes',
      '--focus',
      'pod-lifecycle,sync,8',
      '--skip',
      'stop-pod/idempotent',
      '-o',
      'json',
      '--junit',
      junit,
    ]);
    expect(r.code).toBe(0);
    // What it runs against, said before anything is made (on stderr: stdout is the document).
    expect(oneLine(r.stderr)).toMatch(
      /^nrictl conformance: 5 checks in namespace nrictl-conformance-\w+: containerd v2\.3\.4 at .*cri\.sock, NRI at .*nri\.sock, NRI v0\.12\.0; request timeout 2s \(from Configure\), hooks held at most 1s; image registry\.k8s\.io\/pause:3\.10 \(the runtime's pause image, as its CRI Status says\)\.$/,
    );
    const report = JSON.parse(r.stdout) as { namespace: string; verdicts: Array<{ name: string; status: string }> };
    expect(report.verdicts.map((v) => `${v.name} ${v.status}`)).toEqual([
      'pod-lifecycle pass',
      'stop-pod/no-reuse pass',
      'sync/late-plugin-sees-state pass',
      'sync/created-during-sync pass',
      'sync/created-during-sync-under-load pass',
    ]);
    expect(report.namespace).toMatch(/^nrictl-conformance-[0-9a-f]{8}$/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(5);
    expect(xml).toContain(
      '<testsuite name="nrictl conformance: containerd v2.3.4" tests="5" failures="0" errors="0" skipped="0"',
    );
    nothingLeft();
  });

  it('one check is said as one', async () => {
    const r = await runCli([...node(), '--yes', '--focus', 'pod-lifecycle']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^nrictl conformance: 1 check in namespace nrictl-conformance-\w+: /);
    expect(r.stdout).toMatch(/^1 check in .*: 1 passed, 0 failed, 0 skipped, 0 errors$/m);
    nothingLeft();
  });

  it('stopped by SIGTERM: what it made is removed, exit 1', async () => {
    const run = startCli([...node(), '--yes', '--focus', 'sync,ordering,stop-pod']);
    // Stopped once a pod of the run exists.
    for (
      let i = 0;
      i < 400 && !sim.runtime.state.pods().some((p) => p.namespace?.startsWith('nrictl-conformance-'));
      i++
    )
      await new Promise((r) => setTimeout(r, 5));
    run.child.kill('SIGTERM');
    const { code } = await run.exited;
    expect(code).toBe(1);
    expect(run.stdout()).toMatch(/interrupted: the checks not run are not listed/);
    nothingLeft();
  });

  it('--sim: the same checks against an in-process simulator', async () => {
    const r = await runCli(['conformance', '--sim', '--preset', 'containerd-2.1', '--focus', 'stop-pod/no-reuse']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL +stop-pod\/no-reuse/);
    expect(r.stdout).toMatch(/saw it create container [0-9a-f]{64} \[known: containerd#13599\]/);
    expect(r.stdout).toMatch(/^1 check in .*: 0 passed, 1 failed \(1 known gap\), 0 skipped, 0 errors$/m);
  });

  it('--sim as iSulad: what would crash it is skipped with the reason; --include-crashing sends it, and it goes', async () => {
    const args = ['conformance', '--sim', '--preset', 'isulad-2.1.5', '--focus', 'update-container/relayed'];
    const skipped = await runCli(args);
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toMatch(/^skip +update-container\/relayed/m);
    expect(skipped.stdout).toMatch(
      /not sent, so as not to bring the runtime down: iSulad .*\(--include-crashing runs it anyway\)/,
    );
    const sent = await runCli([...args, '--include-crashing']);
    expect(sent.code).toBe(1);
    expect(sent.stdout).toMatch(/^ERROR +update-container\/relayed/m);
    expect(sent.stdout).toMatch(/went away during UpdateContainerResources/);
  });
});

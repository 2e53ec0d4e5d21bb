// Every check can fail: against a simulator put into the fault mode that breaks exactly
// its clause (src/runtime/sim/faults.ts), the check fails with its reason; against the
// faultless simulator, every check passes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKS, runOnSimulator } from '../../src/conformance/index.js';
import { SIM_FAULTS, type SimFault } from '../../src/runtime/index.js';

/** The checks each fault must fail, and what their reason must say. */
const BREAKS: Record<SimFault, Record<string, RegExp>> = {
  'skip-stop-pod-event': { 'pod-lifecycle': /saw RunPodSandbox, RemovePodSandbox$/ },
  'skip-start-container-event': { 'container-lifecycle': /saw CreateContainer, StopContainer, RemoveContainer$/ },
  'skip-post-start-event': {
    'container-lifecycle/post-events': /saw CreateContainer, PostCreateContainer, StartContainer, StopContainer/,
  },
  'no-stop-event-on-exit': {
    'container-exits-by-itself': /expected StopContainer for container c, saw nothing within/,
  },
  'pod-listed-during-run-hook': {
    'run-pod/hidden-while-hook-runs': /no pod p-c\d+ in ListPodSandbox while its RunPodSandbox hook runs/,
  },
  'pod-found-during-run-hook': {
    'run-pod/no-workload-before-hook-returns': /to fail while its RunPodSandbox hook runs, saw it wait/,
  },
  'keep-pod-after-run-hook-error': {
    'run-pod/hook-error-leaves-nothing': /no pod p-c\d+ in ListPodSandbox after its hook failed/,
  },
  'stop-pod-hook-before-containers': {
    'stop-pod/containers-stopped-during-hook':
      /CONTAINER_EXITED while the StopPodSandbox hook runs, saw c CONTAINER_RUNNING/,
  },
  'stop-pod-event-twice': { 'stop-pod/idempotent': /expected 1 StopPodSandbox for pod p-c\d+, saw 2/ },
  'create-in-stopped-pod': {
    'stop-pod/no-reuse': /CreateContainer of c in pod p-c\d+ to fail, saw it create container/,
  },
  'stop-pod-aborts-on-plugin-error': {
    'stop-pod/plugin-error-teardown-goes-on':
      /SANDBOX_NOTREADY after a plugin's StopPodSandbox error, saw SANDBOX_READY/,
  },
  'remove-pod-without-stop': { 'remove-pod/stops-first': /saw StopContainer, RemoveContainer, RemovePodSandbox$/ },
  'containers-listed-during-remove-hook': {
    'remove-pod/containers-gone-during-hook': /no container of pod p-c\d+ listed while the RemovePodSandbox hook runs/,
  },
  'remove-pod-aborts-on-plugin-error': {
    'remove-pod/plugin-error-teardown-goes-on': /no pod p-c\d+ in ListPodSandbox after RemovePodSandbox/,
  },
  'plugins-in-registration-order': {
    'teardown/index-order': /at plugins 10, 11, 12, 13 in that order, saw it at 13, 11, 12, 10/,
    'ordering/index-order-and-held-back':
      /at plugins 10, 11 in that order, once each, by the time the last is held, saw 11$/,
  },
  'container-listed-during-create-hook': {
    'create-container/hidden-while-hook-runs': /no container c in ListContainers while its CreateContainer hook runs/,
  },
  'keep-container-after-create-hook-error': {
    'create-container/hook-error-leaves-nothing':
      /no container c in ListContainers after its CreateContainer hook failed/,
  },
  'drop-adjusted-env': { 'adjust/env': /NRICTL_CONFORMANCE=adjusted in process.env .* saw env \[\]/ },
  'drop-adjusted-annotations': {
    'adjust/annotation': /annotation nrictl.io\/conformance-adjusted=yes .* saw annotations without it/,
  },
  'drop-adjusted-mounts': { 'adjust/mount': /a tmpfs mount at \/run\/nrictl-conformance .* saw mounts none/ },
  'drop-adjusted-resources': {
    'adjust/resources':
      /expected container c's OCI spec with CPU shares 384 and a memory limit of 96Mi, saw CPU shares 256 and a memory limit of 128Mi$/,
  },
  'skip-post-update-container-event': {
    'update-container/relayed': /expected UpdateContainer, PostUpdateContainer for container c, saw UpdateContainer$/,
  },
  'relay-create-in-unknown-pod': {
    'invalid/create-in-unknown-pod': /no NRI event for CreateContainer into an unknown pod, saw CreateContainer/,
  },
  'relay-create-without-metadata': {
    'invalid/create-without-metadata': /no NRI event for CreateContainer without metadata, saw CreateContainer/,
  },
  'relay-run-pod-without-metadata': {
    'invalid/run-pod-without-metadata': /no NRI event for RunPodSandbox without metadata, saw RunPodSandbox/,
  },
  'relay-stop-unknown-pod': {
    'invalid/unknown-pod-teardown': /no NRI event for teardown of an unknown pod, saw StopPodSandbox/,
  },
  'duplicate-pod-gets-new-id': {
    'invalid/duplicate-pod-metadata': /the duplicate RunPodSandbox to fail or answer pod \w+, saw a new pod/,
  },
  'start-unknown-container-succeeds': {
    'invalid/unknown-container': /StartContainer of an unknown id to fail, saw it succeed/,
  },
  'sync-omits-containers': { 'sync/late-plugin-sees-state': /Synchronize to list p, c1, saw it without container c1/ },
  'join-after-sync': {
    'sync/created-during-sync': /saw c2 reach it neither way/,
    'sync/created-during-sync-under-load': /saw c3, c4, c5 reach it neither way/,
  },
  'skip-post-update-pod-event': { 'update-pod/relayed': /expected 1 PostUpdatePodSandbox of pod p-c\d+, saw none/ },
  'ignore-update-pod-error': { 'update-pod/rejection': /to fail with the plugin's error, saw it succeed/ },
  'apply-rejected-pod-update': {
    'update-pod/rejected-values-not-applied': /to have the initial values applied .* saw resources shares 768/,
  },
  'post-update-pod-error-fails-call': {
    'update-pod/post-failure-harmless': /to the updated values to succeed, saw Unknown: .*PostUpdatePodSandbox failed/,
  },
  'pods-named-by-runtime': {
    'pod-lifecycle': /RunPodSandbox to carry name\/namespace\/uid p-c\d+\/.* saw k8s_POD_p-c\d+_/,
  },
};

const stop = new AbortController().signal;

describe('every check against the simulator', () => {
  it('passes every check when nothing is broken', async () => {
    const r = await runOnSimulator({ signal: stop });
    expect(r.verdicts.map((v) => v.name)).toEqual(CHECKS.map((c) => c.name));
    expect(r.verdicts.filter((v) => v.status !== 'pass').map((v) => `${v.name}: ${v.status} ${v.reason}`)).toEqual([]);
    expect(r.leftovers).toEqual([]);
    expect(r.exitCode).toBe(0);
  });

  it('has a fault for every check and a check for every fault', () => {
    const broken = new Set(Object.values(BREAKS).flatMap((m) => Object.keys(m)));
    expect(CHECKS.map((c) => c.name).filter((n) => !broken.has(n))).toEqual([]);
    expect(Object.keys(BREAKS).sort()).toEqual([...SIM_FAULTS].sort());
  });

  it('docs/conformance.md lists every check, with the fault that breaks it', () => {
    const rows = readFileSync('docs/conformance.md', 'utf8')
      .split('\n')
      .filter((l) => /^\| [a-z]/.test(l) && !l.startsWith('| check ') && l.split('|').length === 7)
      .map((l) => l.split('|').map((c) => c.trim()));
    const documented = Object.fromEntries(rows.map((c) => [c[1], c[5]]));
    const expected = Object.fromEntries(
      CHECKS.map((c) => [c.name, Object.entries(BREAKS).find(([, checks]) => c.name in checks)?.[0]]),
    );
    expect(documented).toEqual(expected);
  });

  it('fails each check, with its reason, in the mode that breaks its clause', async () => {
    const wrong: string[] = [];
    for (const [fault, checks] of Object.entries(BREAKS)) {
      const r = await runOnSimulator({ faults: [fault as SimFault], focus: Object.keys(checks), signal: stop });
      expect(r.verdicts.map((v) => v.name).sort()).toEqual(Object.keys(checks).sort());
      for (const v of r.verdicts)
        if (v.status !== 'fail' || !checks[v.name].test(v.reason ?? ''))
          wrong.push(`${fault} -> ${v.name}: ${v.status} ${v.reason ?? ''}`);
      expect(r.leftovers).toEqual([]);
    }
    expect(wrong).toEqual([]);
  });
});

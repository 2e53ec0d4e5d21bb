// A CRI-O that verifies image signatures (crio.conf's signature_policy set) refuses
// CreateContainer without ImageSpec.user_specified_image, in its words and as a plain
// error (gRPC Unknown), before any NRI event; `sim --signature-policy` imitates it on the
// CRI-O presets. nrictl conformance, which sets the field as the kubelet does, is clean on it.
import { describe, expect, it } from 'vitest';
import { runOnSimulator } from '../../src/conformance/index.js';
import { planSimulation } from '../../src/runtime/sim/inputs.js';
import { runSimulation } from '../../src/runtime/sim/run.js';
import { openCriClient, type CriError } from '../../src/cri/index.js';
import { container, POD } from '../cri/helpers.js';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const WORDS = 'user specified image not specified, cannot verify image signature';

/** A simulated CRI-O 1.32 that verifies signatures, driven by `drive` over its CRI socket. */
async function withVerifyingCrio(drive: (criSocket: string) => Promise<void>, signaturePolicy = true) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sigpol-'));
  try {
    await runSimulation(
      {
        preset: 'crio-1.32',
        socketPath: path.join(dir, 'nri.sock'),
        criSocketPath: path.join(dir, 'cri.sock'),
        ...(signaturePolicy ? { signaturePolicy: true } : {}),
        drive: () => drive(path.join(dir, 'cri.sock')),
      },
      new AbortController().signal,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('sim --signature-policy', () => {
  it('refuses CreateContainer without user_specified_image as CRI-O does, and takes it with the field', async () => {
    const outcomes: unknown[] = [];
    await withVerifyingCrio(async (criSocket) => {
      const client = await openCriClient({ socketPath: criSocket, timeoutMs: 5000 });
      try {
        const { podSandboxId: pod } = await client.runPodSandbox(POD);
        const err = (await client.createContainer(pod, container('bare'), POD).catch((e: unknown) => e)) as CriError;
        outcomes.push([err.details?.grpcCode, err.details?.grpcMessage]);
        // Nothing was made: no container listed.
        outcomes.push((await client.listContainers()).containers.length);
        const image = 'registry.k8s.io/e2e-test-images/busybox:1.29-2';
        const ok = await client.createContainer(
          pod,
          container('signed', { image: { image, userSpecifiedImage: image } }),
          POD,
        );
        outcomes.push(typeof ok.containerId);
      } finally {
        client.close();
      }
    });
    expect(outcomes).toEqual([[2, WORDS], 0, 'string']);
  });

  it('without it, the same CRI-O takes a CreateContainer without the field', async () => {
    let made = '';
    await withVerifyingCrio(async (criSocket) => {
      const client = await openCriClient({ socketPath: criSocket, timeoutMs: 5000 });
      try {
        const { podSandboxId: pod } = await client.runPodSandbox(POD);
        made = (await client.createContainer(pod, container('bare'), POD)).containerId;
      } finally {
        client.close();
      }
    }, false);
    expect(made).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is refused, in one line, for a preset that is not CRI-O and without a CRI socket', async () => {
    await expect(
      planSimulation({ preset: 'containerd-2.3', signaturePolicy: true, criSocketPath: '/tmp/x.sock' }),
    ).rejects.toThrow(
      "--signature-policy imitates CRI-O's signature_policy, and preset containerd-2.3 is not CRI-O: pick a crio-* preset, or leave it out",
    );
    await expect(planSimulation({ preset: 'crio-1.36', signaturePolicy: true })).rejects.toThrow(
      '--signature-policy acts on CRI CreateContainer: give --cri-socket too',
    );
  });

  it('every CRI-O preset has the refusal, in the same words', async () => {
    const { RUNTIME_PRESETS } = await import('../../src/runtime/sim/presets.js');
    const crio = Object.entries(RUNTIME_PRESETS).filter(([n]) => n.startsWith('crio-'));
    expect(crio.map(([n, p]) => [n, p.quirks?.signaturePolicyRefusal])).toEqual(crio.map(([n]) => [n, WORDS]));
  });

  it('conformance, which fills the field as the kubelet does, is clean on it', async () => {
    const report = await runOnSimulator({
      preset: 'crio-1.32',
      signaturePolicy: true,
      focus: ['container-lifecycle', 'adjust/env', 'create-container/hook-error-leaves-nothing'],
      signal: new AbortController().signal,
    });
    expect(report.verdicts.map((v) => [v.name, v.status, v.reason ?? ''])).toEqual([
      ['container-lifecycle', 'pass', ''],
      ['create-container/hook-error-leaves-nothing', 'pass', ''],
      ['adjust/env', 'pass', ''],
    ]);
  });
});

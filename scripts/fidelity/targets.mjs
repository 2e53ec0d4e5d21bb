// What docs/fidelity.md holds: each preset that imitates a runtime of the real-runtimes kit,
// the real runtime it is held to, and where that runtime's sockets are under the kit's
// output directory (its README: "Start and stop"; iSulad: isulad/README.md).

/**
 * Conformance, check by check. `presetArgs` is what `conformance --sim` is given to imitate
 * the runtime as it runs in the kit; `mode` is the CRI-O image policy the real runtime must
 * be running with for its result to count for this row (read from the crio.conf the kit
 * rendered when it started CRI-O).
 */
export const CONFORMANCE_TARGETS = [
  {
    id: 'containerd-2.3',
    title: 'containerd-2.3',
    runtime: 'containerd',
    presetArgs: ['--preset', 'containerd-2.3'],
  },
  {
    id: 'crio-1.32',
    title: 'crio-1.32',
    runtime: 'crio',
    mode: 'stock',
    presetArgs: ['--preset', 'crio-1.32'],
  },
  {
    id: 'crio-1.32-verify',
    title: 'crio-1.32, verifying images',
    runtime: 'crio',
    mode: 'verify',
    // The preset as it imitates a CRI-O whose crio.conf sets signature_policy. Until the
    // presets model that policy this is the stock preset, and the table shows what it misses.
    presetArgs: ['--preset', 'crio-1.32'],
  },
  {
    id: 'isulad-2.1.5',
    title: 'isulad-2.1.5',
    runtime: 'isulad',
    presetArgs: ['--preset', 'isulad-2.1.5'],
  },
];

/** critest's NRI specs, real runtime against `nrictl sim --cri-socket --preset P`. */
export const CRITEST_TARGETS = [
  { id: 'containerd-2.3', title: 'containerd-2.3', runtime: 'containerd', preset: 'containerd-2.3' },
  { id: 'crio-1.32', title: 'crio-1.32', runtime: 'crio', preset: 'crio-1.32' },
];

/**
 * critest's specs whose outcome is a race on the runtime: they hold a late plugin's
 * Synchronize exactly the default request timeout, and its answer lands within the
 * runtime's timer slack, so a run keeps the plugin (pass) or drops it (skip). One run says
 * little: they are run again, alone, and compared by the outcomes seen.
 */
export const CRITEST_RACES = [
  'NRI plugin synchronization should receive a callback for container created during the Synchronize call',
  'NRI plugin synchronization should receive information about all containers without the race condition during initialization',
];

/** The kit's endpoints of a runtime, under its output directory. */
export function kitEndpoints(out, runtime) {
  switch (runtime) {
    case 'containerd':
      return {
        cri: `${out}/containerd/run/containerd.sock`,
        nri: `${out}/containerd/run/nri.sock`,
        pidFile: `${out}/containerd/run/containerd.pid`,
        log: `${out}/containerd/containerd.log`,
      };
    case 'crio':
      return {
        cri: `${out}/crio/run/crio.sock`,
        nri: `${out}/crio/run/nri.sock`,
        pidFile: `${out}/crio/run/crio.pid`,
        log: `${out}/crio/crio.log`,
        config: `${out}/crio/crio.conf`,
      };
    case 'isulad':
      return { cri: `${out}/isulad/run/isulad.sock`, nri: `${out}/isulad/run/nri.sock` };
    default:
      throw new Error(`no kit endpoints for runtime ${runtime}`);
  }
}

/**
 * The image policy of a crio.conf as the kit renders it: `signature_policy = ""` is CRI-O's
 * stock default (pulls use /etc/containers/policy.json, CreateContainer verifies nothing);
 * any explicit file makes CreateContainer verify every image. undefined: no such key.
 */
export function crioImagePolicy(confText) {
  const m = /^\s*signature_policy\s*=\s*"([^"]*)"/m.exec(confText);
  if (!m) return undefined;
  return m[1] === '' ? 'stock' : 'verify';
}

// Before anything is made: reach the runtime's CRI socket and its NRI socket, learn what
// runtime it is and its request timeout, and find the test image. Every way this can go
// wrong is the caller's input (a socket, a runtime without NRI, an image): one line,
// exit 2, nothing created. Reading only: a transient plugin registers and leaves.
import { statSync } from 'node:fs';
import { DEFAULT_SOCKET_PATH, runtimeFamily } from '../api/index.js';
import { findRuntimeConfigs, lintRuntimeConfigs, type RuntimeConfigReport } from '../checks/index.js';
import {
  CriCgroupDriver,
  CriError,
  locateCriSocket,
  openCriClient,
  type CriClient,
  type CriSocketChoice,
  type cri,
} from '../cri/index.js';
import { ProbeSet } from '../session/index.js';
import { ConformanceError } from './errors.js';
import type { TargetInfo } from './model.js';
import type { ImageKind } from './suite-scope.js';
import { SUBSCRIBED } from './test-plugin.js';
import { timing, type Pace, type Timing } from './timing.js';
import { openProcNode } from './node-proc.js';
import type { NodeSource } from './node-view.js';

/** critest's cgroup parent under the systemd driver (and when RuntimeConfig does not answer). */
const SYSTEMD_PARENT = '/test.slice';

export interface TargetOptions {
  /** --cri-socket; undefined: the runtime's config, else a well-known socket. */
  criSocket?: string | undefined;
  /** --socket; undefined: the one the runtime's config names, else /var/run/nri/nri.sock. */
  nriSocket?: string | undefined;
  /** --image; undefined: the runtime's own pause image. */
  image?: string | undefined;
  /** --pull: pull a missing image rather than refuse. */
  pull?: boolean | undefined;
  pace: Pace;
  /** The node's root for its runtime configs (tests). */
  root?: string | undefined;
  /** Where to look beyond CRI for what the run leaves; undefined: /proc and /sys/fs/cgroup. */
  node?: NodeSource | undefined;
  signal?: AbortSignal | undefined;
}

/** What the checks run against, found out without changing anything. */
export interface Prepared {
  cri: CriClient;
  target: TargetInfo;
  timing: Timing;
  acceptedEvents: number;
  imageKind: ImageKind;
  /** The image's id, as ImageStatus or PullImage answered it: what CreateContainer names, as the kubelet's does. */
  imageId: string;
  cgroupParent: string;
  node: NodeSource;
}

const bad = (message: string, option?: string, cause?: unknown): ConformanceError =>
  new ConformanceError('bad-input', message, option, cause === undefined ? undefined : { cause });

export async function prepare(opts: TargetOptions): Promise<Prepared> {
  const configs = runtimeConfigs(opts.root);
  let choice: CriSocketChoice;
  try {
    choice = locateCriSocket({ criSocket: opts.criSocket, root: opts.root });
  } catch (err) {
    throw bad((err as Error).message, 'criSocket', err);
  }
  const pace = timing(2000, opts.pace);
  let cri: CriClient;
  try {
    cri = await openCriClient({ socketPath: choice.socketPath, timeoutMs: pace.callMs });
  } catch (err) {
    if (err instanceof CriError) throw bad(`no CRI runtime to test: ${err.message}`, 'criSocket', err);
    throw err;
  }
  try {
    return await prepareWith(cri, choice, configs, opts);
  } catch (err) {
    cri.close();
    throw err;
  }
}

async function prepareWith(
  cri: CriClient,
  choice: CriSocketChoice,
  configs: RuntimeConfigReport[],
  opts: TargetOptions,
): Promise<Prepared> {
  const version = cri.runtimeVersion;
  const runtimeName = version.runtimeName.toLowerCase();
  const ours = configs.find((c) => c.format === (choice.runtime ?? criFormat(runtimeName)));
  const nriSocket = opts.nriSocket ?? ours?.settings.socketPath ?? DEFAULT_SOCKET_PATH;
  const nri = await probeNri(nriSocket, opts.signal);
  // Two runtimes' sockets would end every check in a timeout: refused when both names
  // say which runtime they are and they differ (a runtime neither names is let through).
  const nriFamily = runtimeFamily(nri.name, nri.version);
  const criFamily = runtimeFamily(version.runtimeName, version.runtimeVersion);
  if (nriFamily !== 'other' && criFamily !== 'other' && nriFamily !== criFamily)
    throw bad(
      `${nriSocket} belongs to ${nri.label}, but ${choice.socketPath} to ${version.runtimeName} ${version.runtimeVersion}: give the same runtime's sockets (--socket, --cri-socket)`,
      'socketPath',
    );
  const timeout = requestTimeout(nri.requestTimeoutMs, ours);
  const image = await findImage(cri, opts, configs, ours);
  return {
    cri,
    target: {
      runtime: `${version.runtimeName} ${version.runtimeVersion}`,
      runtimeName: version.runtimeName,
      runtimeVersion: version.runtimeVersion,
      criSocket: choice.socketPath,
      nriSocket,
      nri: nri.vintage,
      requestTimeoutMs: timeout.ms,
      requestTimeoutFrom: timeout.from,
      image: image.ref,
      imageFrom: image.from,
    },
    timing: timing(timeout.ms, opts.pace),
    acceptedEvents: nri.accepted,
    imageKind: imageKind(image.ref),
    imageId: image.id,
    cgroupParent: await cgroupParent(cri),
    node: opts.node ?? openProcNode({ runtimeName: version.runtimeName.toLowerCase() }),
  };
}

function runtimeConfigs(root: string | undefined): RuntimeConfigReport[] {
  try {
    const reports = lintRuntimeConfigs(findRuntimeConfigs(root ?? '/'));
    // CRI-O: the last file carries the merged settings.
    const lastCrio = reports.filter((r) => r.format === 'crio').at(-1);
    return reports.filter((r) => r.format !== 'crio' || r === lastCrio);
  } catch {
    return []; // a config nrictl cannot read: the sockets and the image must then be given or found otherwise
  }
}

function criFormat(runtimeName: string): RuntimeConfigReport['format'] | undefined {
  if (runtimeName === 'containerd') return 'containerd';
  if (runtimeName === 'cri-o') return 'crio';
  if (runtimeName === 'isulad') return 'isulad';
  return undefined;
}

interface NriAnswer {
  name: string;
  version: string;
  label: string;
  vintage: string;
  requestTimeoutMs: number | undefined;
  accepted: number;
}

/** Registers a transient plugin, reads Configure, leaves. A runtime without NRI is the caller's mistake: exit 2. */
async function probeNri(socketPath: string, signal: AbortSignal | undefined): Promise<NriAnswer> {
  let isSocket = false;
  try {
    isSocket = statSync(socketPath).isSocket();
  } catch {
    // not there
  }
  if (!isSocket)
    throw bad(
      `no NRI socket at ${socketPath}: the runtime has NRI disabled or listens elsewhere (enable NRI in its config, or give the socket with --socket)`,
      'socketPath',
    );
  let set: ProbeSet;
  try {
    set = await ProbeSet.open({
      target: { socketPath },
      name: 'nrictl-conformance',
      probes: [{ index: '99', handlers: { runPodSandbox: () => {} }, events: SUBSCRIBED }],
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    throw bad(`the runtime at ${socketPath} takes no NRI plugin: ${(err as Error).message}`, 'socketPath', err);
  }
  const rt = set.runtime;
  const answer: NriAnswer = {
    name: rt?.name ?? '',
    version: rt?.version ?? '',
    label: rt?.label ?? 'a runtime',
    vintage: rt?.vintage ?? '',
    requestTimeoutMs: set.configuredRequestTimeoutMs,
    accepted: set.probes[0]?.events ?? 0,
  };
  await set.close();
  return answer;
}

/** Configure's request timeout (NRI v0.7+), else the runtime's config file's, else the runtimes' default 2 s. */
function requestTimeout(
  configured: number | undefined,
  config: RuntimeConfigReport | undefined,
): { ms: number; from: TargetInfo['requestTimeoutFrom'] } {
  if (configured !== undefined) return { ms: configured, from: 'configure' };
  const fromFile = config?.settings.requestTimeoutMs;
  if (typeof fromFile === 'number' && fromFile > 0) return { ms: fromFile, from: 'config-file' };
  return { ms: 2000, from: 'default' };
}

async function findImage(
  cri: CriClient,
  opts: TargetOptions,
  configs: RuntimeConfigReport[],
  ours: RuntimeConfigReport | undefined,
): Promise<{ ref: string; from: string; id: string }> {
  const found = opts.image !== undefined ? { ref: opts.image, from: '--image' } : await pauseImage(cri, configs, ours);
  if (!found)
    throw bad(
      'no test image: the runtime names no pause image (CRI Status, its config) and the node has none; give one with --image',
      'image',
    );
  let present: cri.IImage | null | undefined;
  try {
    present = (await cri.imageStatus(found.ref)).image;
  } catch (err) {
    throw bad(`cannot ask the runtime for the image ${found.ref}: ${(err as Error).message}`, 'image', err);
  }
  if (present) return { ...found, id: present.id ?? '' };
  if (!opts.pull)
    throw bad(
      `the image ${found.ref} is not on the node: pull it first (crictl pull ${found.ref}), add --pull, or give another with --image`,
      'image',
    );
  let pulled: string;
  try {
    pulled = (await cri.pullImage(found.ref)).imageRef;
  } catch (err) {
    throw bad(`cannot pull ${found.ref}: ${(err as Error).message}`, 'image', err);
  }
  return { ...found, from: `${found.from}, pulled`, id: pulled };
}

/** The runtime's own pause image: as its CRI Status says (containerd 1.7), its config, or one the node has. */
async function pauseImage(
  cri: CriClient,
  configs: RuntimeConfigReport[],
  ours: RuntimeConfigReport | undefined,
): Promise<{ ref: string; from: string } | undefined> {
  try {
    const info = (await cri.status(true)).info ?? {};
    const config = JSON.parse(info.config ?? '{}') as { sandboxImage?: unknown };
    if (typeof config.sandboxImage === 'string' && config.sandboxImage !== '')
      return { ref: config.sandboxImage, from: "the runtime's pause image, as its CRI Status says" };
  } catch {
    // no verbose status, or not JSON: the config is asked next
  }
  const fromConfig = ours?.pauseImage ?? configs.find((c) => c.pauseImage)?.pauseImage;
  if (fromConfig) return { ref: fromConfig, from: `the runtime's pause image, as ${ours?.file ?? 'its config'} says` };
  try {
    const images = (await cri.listImages()).images;
    const tag = images.flatMap((i) => i.repoTags ?? []).find((t) => /(^|\/)pause:/.test(t));
    if (tag) return { ref: tag, from: 'a pause image the node has' };
  } catch {
    // no image service: nothing found
  }
  return undefined;
}

/** "registry.k8s.io/pause:3.10" runs as pause (`/pause -v` exits 0); any other image is taken to have a shell. */
function imageKind(ref: string): ImageKind {
  const name = ref.split('@')[0].split('/').pop() ?? '';
  return name.split(':')[0] === 'pause' ? 'pause' : 'shell';
}

async function cgroupParent(cri: CriClient): Promise<string> {
  try {
    const cfg = await cri.runtimeConfig();
    return cfg.linux?.cgroupDriver === CriCgroupDriver.CGROUPFS ? '' : SYSTEMD_PARENT;
  } catch {
    return SYSTEMD_PARENT;
  }
}

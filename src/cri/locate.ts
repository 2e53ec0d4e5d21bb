// Where a node's CRI socket is, when the caller did not say: the socket its runtime's
// configuration names (containerd's [grpc] address, CRI-O's [crio.api] listen, iSulad's
// hosts; src/checks reads them), else the first of the runtimes' well-known sockets that
// is there. Docker serves no CRI: that is an error, not a guess. The choice comes with a
// line that says which socket and why, for the command to show.
import { statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import {
  DEFAULT_CRI_SOCKETS,
  findDockerd,
  findRuntimeConfigs,
  lintRuntimeConfigs,
  type RuntimeConfigReport,
} from '../checks/index.js';
import { CriError } from './errors.js';

type CriRuntime = keyof typeof DEFAULT_CRI_SOCKETS;

const RUNTIME_NAMES: Readonly<Record<CriRuntime, string>> = {
  containerd: 'containerd',
  crio: 'CRI-O',
  isulad: 'iSulad',
};

/** Each runtime's own socket, where it listens unless configured otherwise; tried in this order. */
const WELL_KNOWN_CRI_SOCKETS: ReadonlyArray<{ runtime: CriRuntime; path: string }> = (
  Object.keys(DEFAULT_CRI_SOCKETS) as CriRuntime[]
).map((runtime) => ({ runtime, path: DEFAULT_CRI_SOCKETS[runtime] }));

export const DOCKER_HAS_NO_CRI =
  'Docker serves no CRI socket: the kubelet and crictl reach Docker through cri-dockerd (by default at /run/cri-dockerd.sock); give that socket with --cri-socket if cri-dockerd runs';

export interface LocateOptions {
  /** The socket the caller named (a path, or unix://PATH): used as it is. */
  criSocket?: string | undefined;
  /** The node's root (tests); configs and the paths they name are taken under it. Default '/'. */
  root?: string | undefined;
  /** Runtime config files to read instead of the ones found under root. */
  runtimeConfigs?: string[] | undefined;
}

export interface CriSocketChoice {
  socketPath: string;
  /** Whose socket it is, when a config or a well-known path says. */
  runtime?: CriRuntime;
  /** How it was chosen. */
  source: 'given' | 'config' | 'well-known';
  /** The runtime config it came from. */
  config?: string;
  /** Whether a socket was at socketPath when it was chosen; a given one is not looked at. */
  present?: boolean;
  /** One line for the user: which socket, and why that one. */
  note: string;
}

/** Throws CriError 'no-cri' where the node's runtime is Docker, and CheckPathError for a named config it cannot read. */
export function locateCriSocket(opts: LocateOptions = {}): CriSocketChoice {
  if (opts.criSocket !== undefined) {
    const socketPath = withoutScheme(opts.criSocket);
    return { socketPath, source: 'given', note: `CRI socket ${socketPath} (as given)` };
  }
  const root = opts.root ?? '/';
  const under = (p: string): string => (root === '/' || !isAbsolute(p) ? p : join(root, p));
  const dockerd = findDockerd(root);
  const reports = effective(lintRuntimeConfigs(opts.runtimeConfigs ?? findRuntimeConfigs(root), dockerd));
  const serving = reports.filter(
    (r): r is RuntimeConfigReport & { format: CriRuntime; criSocket: string } =>
      r.format !== 'docker' && r.criSocket !== undefined && r.criDisabled === undefined,
  );
  const present = serving.find((r) => isSocket(under(r.criSocket)));
  const chosen = present ?? serving[0];
  if (chosen) {
    const socketPath = under(chosen.criSocket);
    return {
      socketPath,
      runtime: chosen.format,
      source: 'config',
      config: chosen.file,
      present: present !== undefined,
      note: `CRI socket ${socketPath} (${RUNTIME_NAMES[chosen.format]}'s, from ${chosen.file}${present ? '' : '; it is not there'})`,
    };
  }
  if (reports.some((r) => r.format === 'docker') || dockerd !== undefined)
    throw new CriError('no-cri', DOCKER_HAS_NO_CRI);
  const found = WELL_KNOWN_CRI_SOCKETS.find((w) => isSocket(under(w.path)));
  const pick = found ?? WELL_KNOWN_CRI_SOCKETS[0];
  const socketPath = under(pick.path);
  return {
    socketPath,
    runtime: pick.runtime,
    source: 'well-known',
    present: found !== undefined,
    note: found
      ? `CRI socket ${socketPath} (${RUNTIME_NAMES[pick.runtime]}'s well-known path; no runtime config names one)`
      : `CRI socket ${socketPath} (no runtime config found, and none of ${WELL_KNOWN_CRI_SOCKETS.map((w) => w.path).join(', ')} is there)`,
  };
}

/** crictl's and the kubelet's unix:///path form, or a plain path. */
function withoutScheme(endpoint: string): string {
  return endpoint.startsWith('unix://') ? endpoint.slice('unix://'.length) : endpoint;
}

// One report per runtime: CRI-O's last file carries its merged settings.
function effective(reports: RuntimeConfigReport[]): RuntimeConfigReport[] {
  const lastCrio = reports.filter((r) => r.format === 'crio').at(-1);
  return reports.filter((r) => r.format !== 'crio' || r === lastCrio);
}

function isSocket(p: string): boolean {
  try {
    return statSync(p).isSocket();
  } catch {
    return false;
  }
}

// Where each runtime serves CRI, as its configuration says (else its built-in default):
// containerd's [grpc] address (CRI shares containerd's own gRPC socket), CRI-O's
// [crio.api] listen, iSulad's "hosts" (its first unix:// entry; CRI shares it too).
// Docker serves no CRI at all. Read by src/cri's locateCriSocket.
import { isTable } from './schema.js';

export const DEFAULT_CRI_SOCKETS = {
  containerd: '/run/containerd/containerd.sock',
  crio: '/var/run/crio/crio.sock',
  isulad: '/var/run/isulad.sock',
} as const;

/** The CRI socket a containerd config.toml names, and whether it turns the CRI plugin off. */
export function containerdCriSocket(doc: Record<string, unknown>): { criSocket: string; criDisabled?: true } {
  const grpc = isTable(doc.grpc) ? doc.grpc : {};
  const criSocket =
    typeof grpc.address === 'string' && grpc.address !== '' ? grpc.address : DEFAULT_CRI_SOCKETS.containerd;
  // Docker's own containerd ships with disabled_plugins = ["cri"].
  const disabled =
    Array.isArray(doc.disabled_plugins) &&
    doc.disabled_plugins.some(
      (p) => p === 'cri' || p === 'io.containerd.grpc.v1.cri' || p === 'io.containerd.cri.v1.runtime',
    );
  return disabled ? { criSocket, criDisabled: true } : { criSocket };
}

/** CRI-O's [crio.api] listen in one file, if it sets it. */
export function crioCriSocket(doc: Record<string, unknown>): string | undefined {
  const crio = isTable(doc.crio) ? doc.crio : {};
  const api = isTable(crio.api) ? crio.api : {};
  return typeof api.listen === 'string' && api.listen !== '' ? api.listen : undefined;
}

/** iSulad's first unix:// host in daemon.json, else its default socket. */
export function isuladCriSocket(cfg: Record<string, unknown>): string {
  const hosts = Array.isArray(cfg.hosts) ? cfg.hosts : [];
  const unix = hosts.find((h): h is string => typeof h === 'string' && h.startsWith('unix://'));
  return unix ? unix.slice('unix://'.length) : DEFAULT_CRI_SOCKETS.isulad;
}

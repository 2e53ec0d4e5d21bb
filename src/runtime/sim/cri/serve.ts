// `sim --cri-socket PATH`: the CRI face served over gRPC on its own socket, made as the
// NRI socket is (a 0600 socket; a given path's directory must not be writable by others;
// an old socket is removed only when nothing answers on it), and closed with the run.
import { closeListener, listenForPlugins } from '../../adaptation/index.js';
import { createCriServer } from '../../../cri/index.js';
import type { Runtime } from '../runtime.js';
import { CriFace, type CriFaceOptions } from './face.js';

export interface ServedCri {
  socketPath: string;
  /** Ends every CRI connection and call, and removes the socket. */
  close(): Promise<void>;
}

export async function serveCri(
  runtime: Runtime,
  socketPath: string,
  opts: Omit<CriFaceOptions, 'goAway'>,
): Promise<ServedCri> {
  let closing: Promise<void> | undefined;
  const goAway = (): Promise<void> => Promise.all([close(), runtime.stop()]).then(() => undefined);
  const server = await createCriServer(new CriFace(runtime, { ...opts, goAway }).handlers());
  let listening;
  try {
    listening = await listenForPlugins(socketPath, (socket) => server.accept(socket), { flag: '--cri-socket' });
  } catch (err) {
    server.close();
    throw err;
  }
  const l = listening;
  function close(): Promise<void> {
    // The listener stops taking connections at once, so that a client that lost its call
    // finds nobody at the socket (the runtime went away), not a server that hangs up; then
    // the sessions end, which the listener's close waits for.
    return (closing ??= (async () => {
      const listener = closeListener(l);
      server.close();
      await listener;
    })());
  }
  return { socketPath: l.socketPath, close };
}

// The spinner a connecting command shows while it waits on the runtime, driven by the
// session's progress phases. It writes only on a terminal outside CI (see the output layer's spinner).
import { spinner } from '../output/index.js';
import type { SessionPhase } from '../session/index.js';

export interface ConnectProgress {
  onProgress: (phase: SessionPhase) => void;
  stop: () => void;
}

/** `where`: the socket path, or the embedded simulator. */
export function connectProgress(where: string): ConnectProgress {
  let s: ReturnType<typeof spinner> | undefined;
  return {
    onProgress: (phase) => {
      if (phase === 'connecting') {
        s ??= spinner(process.stderr, `connecting to ${where}`);
      } else {
        s?.update("registered; receiving the runtime's pods and containers");
      }
    },
    stop: () => {
      s?.stop();
      s = undefined;
    },
  };
}

/** How connecting commands name their target while waiting. */
export function targetLabel(flags: { socket: string; sim?: string | undefined }): string {
  return flags.sim ? 'the embedded simulator' : flags.socket;
}

// The replay's own trace, for --compare: trace's probes (src/trace) around the plugins
// under test in the simulator, so that what they do is found by the same instrument that
// found what the node's plugins did in the recording.
import { planProbes, TraceSession, type TraceRecord } from '../trace/index.js';
import type { Runtime } from '../runtime/index.js';

/** The probes around the simulator's live plugins, each traced event handed to `onRecord`. */
export async function startReplayTrace(
  runtime: Runtime,
  events: number,
  onRecord: (r: TraceRecord) => void,
  signal: AbortSignal,
): Promise<TraceSession> {
  const plan = planProbes(
    runtime.plugins().map((p) => ({ index: p.index, name: p.base, source: 'simulator' as const })),
    'around',
  );
  let written = 0;
  const session = new TraceSession({
    target: { socketPath: runtime.socketPath! },
    plan,
    events,
    validator: false,
    name: 'nrictl-replay',
    signal,
    // Never drops: the simulator is the only source, and the comparer keeps up.
    sink: {
      push: (r: TraceRecord) => {
        written++;
        onRecord(r);
        return true;
      },
      end: () => Promise.resolve({ written, dropped: 0, complete: true }),
      room: () => undefined,
      get written() {
        return written;
      },
      dropped: 0,
    },
  });
  await session.start();
  return session;
}

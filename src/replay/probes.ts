// The replay's own trace, for --compare: trace's probes (src/trace) around the plugins
// under test in the simulator, so that what they do is found by the same instrument that
// found what the node's plugins did in the recording.
import { discardingSink } from '../output/index.js';
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
  // Never drops: the simulator is the only source, and the comparer keeps up.
  const sink = discardingSink<TraceRecord>();
  const count = sink.push.bind(sink);
  sink.push = (r) => {
    onRecord(r);
    return count(r);
  };
  const session = new TraceSession({
    target: { socketPath: runtime.socketPath! },
    plan,
    events,
    validator: false,
    name: 'nrictl-replay',
    signal,
    sink,
  });
  await session.start();
  return session;
}

// `nrictl sync dump`: the runtime's pods and containers, as a plugin receives them.
//   table, wide  the crictl-style table (wide: with resources); a list by pod on a
//                terminal narrower than it
//   json, yaml   runtime, pods and containers, complete, in the protobuf JSON mapping
//   name         one namespace/pod/container a line: what update and evict take
import type { RuntimeState } from '../../observe/index.js';
import type { View } from '../output.js';
import { renderStateTable } from '../state-table.js';

export const runtimeStateView: View<RuntimeState> = {
  text: (s, layout) =>
    s.pods.length === 0 && s.containers.length === 0
      ? ''
      : renderStateTable(s.pods, s.containers, { wide: layout.wide, width: layout.width }),
  data: ({ runtime, pods, containers }) => ({ ...(runtime ? { runtime } : {}), pods, containers }),
  names: containerNames,
  note: (s, file) => {
    if (file !== undefined) return `${s.pods.length} pods, ${s.containers.length} containers written to ${file}`;
    if (s.pods.length > 0 || s.containers.length > 0) return undefined;
    return s.filtered ? 'no pod or container matches the filters' : 'the runtime has no pods and no containers';
  },
};

/**
 * Every container as namespace/pod/container, sorted as the table sorts them; a
 * container whose pod the runtime did not report is named by its id.
 */
function containerNames(s: RuntimeState): string[] {
  const pods = new Map(s.pods.map((p) => [p.id ?? '', p]));
  return s.containers
    .map((c) => {
      const pod = pods.get(c.podSandboxId ?? '');
      return pod ? `${pod.namespace ?? ''}/${pod.name ?? ''}/${c.name ?? ''}` : (c.id ?? '');
    })
    .sort((a, b) => a.localeCompare(b));
}

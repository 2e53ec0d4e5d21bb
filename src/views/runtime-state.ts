// `nrictl sync dump`: the runtime's pods and containers, as a plugin receives them.
//   table, wide  the crictl-style table (wide: with resources); a list by pod on a
//                terminal narrower than it
//   json, yaml   runtime, pods and containers, complete, in the protobuf JSON mapping
//                (json written from each message's bytes, without decoding it)
//   name         one namespace/pod/container a line: what update and evict take
// A node's state is large: table, wide, json and yaml are written in pieces as they are
// rendered (chunks), each pod and container decoded only when its turn comes.
import type { RuntimeState } from '../observe/index.js';
import { documentChunks, type View, wireJsonChunks } from '../output/index.js';
import { stateTableChunks } from './state-table.js';

export const runtimeStateView: View<RuntimeState> = {
  text: (s, layout) => [...stateText(s, layout)].join(''),
  data: (s) => ({ ...head(s), pods: [...s.completePods()], containers: [...s.completeContainers()] }),
  chunks: (s, format, layout) => {
    if (format === 'table' || format === 'wide') return stateText(s, layout);
    if (format === 'json') {
      const wire = s.wire();
      return wireJsonChunks(head(s), wire.writer, { pods: wire.pods, containers: wire.containers });
    }
    if (format === 'yaml')
      return documentChunks(head(s), { pods: s.completePods(), containers: s.completeContainers() }, format);
    return undefined;
  },
  names: containerNames,
  note: (s, file) => {
    if (file !== undefined) return `${s.pods.length} pods, ${s.containers.length} containers written to ${file}`;
    if (s.pods.length > 0 || s.containers.length > 0) return undefined;
    return s.filtered ? 'no pod or container matches the filters' : 'the runtime has no pods and no containers';
  },
};

function stateText(s: RuntimeState, layout: { wide: boolean; width: number | undefined }): Iterable<string> {
  return s.pods.length === 0 && s.containers.length === 0
    ? []
    : stateTableChunks(s.pods, s.containers, { wide: layout.wide, width: layout.width });
}

const head = ({ runtime }: RuntimeState) => (runtime ? { runtime } : {});

/**
 * Every container as namespace/pod/container, sorted as the table sorts them; a
 * container whose pod the runtime did not report is named by its id.
 */
function containerNames(s: RuntimeState): string[] {
  const pods = new Map(s.pods.map((p) => [p.id, p]));
  return s.containers
    .map((c) => {
      const pod = pods.get(c.podSandboxId);
      return pod ? `${pod.namespace}/${pod.name}/${c.name}` : c.id;
    })
    .sort((a, b) => a.localeCompare(b));
}

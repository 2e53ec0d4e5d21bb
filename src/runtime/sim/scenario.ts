// Scenario files: the pods and containers a simulated runtime starts with, and an
// optional script of lifecycle steps. YAML or JSON (JSON is YAML), in the shape of
// the fixtures' scenario.json, with snake_case resource keys.
import { nri } from '../../api/index.js';
import {
  INPUT_LIMITS,
  InputDocumentError,
  InputFileError,
  parseInputDocument,
  readInputFile,
} from '../../checks/index.js';
import { excerpt, excerptKey } from '../../units/index.js';
import { ScenarioError } from './errors.js';
import { BUILTIN_SCENARIOS, resolveScenarioPath } from './builtin-scenarios.js';

export type Step =
  | { kind: 'run-pod'; pod: nri.IPodSandbox }
  | { kind: 'update-pod'; id: string; resources: nri.ILinuxResources; overhead?: nri.ILinuxResources }
  | { kind: 'stop-pod'; id: string }
  | { kind: 'remove-pod'; id: string }
  | { kind: 'create'; container: nri.IContainer }
  | { kind: 'start'; id: string }
  | { kind: 'update'; id: string; resources: nri.ILinuxResources }
  | { kind: 'stop'; id: string }
  | { kind: 'remove'; id: string }
  | { kind: 'sleep'; ms: number };

export interface Scenario {
  file: string;
  pods: nri.IPodSandbox[];
  containers: nri.IContainer[];
  steps: Step[];
  /**
   * The images the node has, as the CRI face (`sim --cri-socket`) reports them; a pull
   * of any other fails as a registry would. Absent: every image is there.
   */
  images?: string[];
}

const STEP_KINDS = [
  'run-pod',
  'update-pod',
  'stop-pod',
  'remove-pod',
  'create',
  'start',
  'update',
  'stop',
  'remove',
  'sleep',
] as const;

type Kind = 'int' | 'uint' | 'string' | 'bool';
// snake_case scenario key -> where it goes in LinuxResources and what it holds.
const RESOURCE_KEYS: Record<
  string,
  { group: 'cpu' | 'memory' | 'top'; field: string; kind: Kind; optional: boolean; hint: string }
> = {
  cpu_shares: { group: 'cpu', field: 'shares', kind: 'uint', optional: true, hint: 'relative weight, e.g. 1024' },
  cpu_quota: {
    group: 'cpu',
    field: 'quota',
    kind: 'int',
    optional: true,
    hint: 'microseconds per period, e.g. 100000, or -1 for none',
  },
  cpu_period: { group: 'cpu', field: 'period', kind: 'uint', optional: true, hint: 'microseconds, e.g. 100000' },
  cpu_realtime_runtime: {
    group: 'cpu',
    field: 'realtimeRuntime',
    kind: 'int',
    optional: true,
    hint: 'microseconds, e.g. 950000',
  },
  cpu_realtime_period: {
    group: 'cpu',
    field: 'realtimePeriod',
    kind: 'uint',
    optional: true,
    hint: 'microseconds, e.g. 1000000',
  },
  cpus: { group: 'cpu', field: 'cpus', kind: 'string', optional: false, hint: 'a cpuset list, e.g. "0-3,6"' },
  mems: { group: 'cpu', field: 'mems', kind: 'string', optional: false, hint: 'a memory node list, e.g. "0"' },
  memory_limit: {
    group: 'memory',
    field: 'limit',
    kind: 'int',
    optional: true,
    hint: 'bytes, e.g. 536870912 for 512 MiB',
  },
  memory_reservation: {
    group: 'memory',
    field: 'reservation',
    kind: 'int',
    optional: true,
    hint: 'bytes, e.g. 268435456',
  },
  memory_swap: { group: 'memory', field: 'swap', kind: 'int', optional: true, hint: 'bytes, e.g. 1073741824' },
  memory_kernel: { group: 'memory', field: 'kernel', kind: 'int', optional: true, hint: 'bytes' },
  memory_kernel_tcp: { group: 'memory', field: 'kernelTcp', kind: 'int', optional: true, hint: 'bytes' },
  memory_swappiness: { group: 'memory', field: 'swappiness', kind: 'uint', optional: true, hint: '0 to 100' },
  memory_disable_oom_killer: {
    group: 'memory',
    field: 'disableOomKiller',
    kind: 'bool',
    optional: true,
    hint: 'true or false',
  },
  memory_use_hierarchy: { group: 'memory', field: 'useHierarchy', kind: 'bool', optional: true, hint: 'true or false' },
  pids_limit: { group: 'top', field: 'pids', kind: 'int', optional: false, hint: 'a number of processes, e.g. 1024' },
  blockio_class: {
    group: 'top',
    field: 'blockioClass',
    kind: 'string',
    optional: true,
    hint: 'a class name, e.g. "throttled"',
  },
  rdt_class: { group: 'top', field: 'rdtClass', kind: 'string', optional: true, hint: 'a class name, e.g. "gold"' },
  unified: {
    group: 'top',
    field: 'unified',
    kind: 'string',
    optional: false,
    hint: 'a map of cgroup v2 files, e.g. {"memory.high": "400M"}',
  },
  hugepage_limits: {
    group: 'top',
    field: 'hugepageLimits',
    kind: 'string',
    optional: false,
    hint: 'a list of {page_size: "2MB", limit: 1073741824}',
  },
};

const POD_KEYS = [
  'id',
  'name',
  'uid',
  'namespace',
  'labels',
  'annotations',
  'runtime_handler',
  'cgroup_parent',
  'resources',
  'overhead',
];
const CONTAINER_KEYS = ['id', 'pod', 'name', 'state', 'labels', 'annotations', 'args', 'env', 'resources', 'pid'];
const STATES: Record<string, nri.ContainerState> = {
  UNKNOWN: nri.ContainerState.CONTAINER_UNKNOWN,
  CREATED: nri.ContainerState.CONTAINER_CREATED,
  PAUSED: nri.ContainerState.CONTAINER_PAUSED,
  RUNNING: nri.ContainerState.CONTAINER_RUNNING,
  STOPPED: nri.ContainerState.CONTAINER_STOPPED,
};

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What a value is, for messages; a string is quoted by its excerpt, never whole. */
function describe(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (isMap(v)) return 'a map';
  // What is left is a scalar (number, boolean): JSON writes it as the document did.
  return `${typeof v} ${typeof v === 'string' ? JSON.stringify(excerpt(v)) : JSON.stringify(v)}`;
}

/** Ids for a message: the first few, and how many there are in all. */
function someOf(ids: Iterable<string>, max = 8): string {
  const all = [...ids];
  if (all.length === 0) return '(none)';
  const shown = all.slice(0, max).map((id) => excerpt(id, 40));
  return all.length > max ? `${shown.join(', ')}, ... (${all.length} in all)` : shown.join(', ');
}

/** Closest known key by edit distance, to turn a typo into a suggestion. */
function closest(key: string, known: readonly string[]): string | undefined {
  if (key.length > 64) return undefined; // not a typo, and the distance costs its length times each key's
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = distance(key, k);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return bestD <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** Validates one document while converting it; every error names file, path and fix. */
class Reader {
  constructor(readonly file: string) {}

  fail(path: string, problem: string, fix: string): never {
    throw new ScenarioError(`${this.file}: ${path || '(top level)'}: ${problem} (${fix})`, this.file, path);
  }

  map(v: unknown, path: string, known: readonly string[]): Record<string, unknown> {
    if (!isMap(v)) this.fail(path, `expected a map, got ${describe(v)}`, `write "key: value" entries`);
    for (const k of Object.keys(v)) {
      if (!known.includes(k)) {
        const guess = closest(k, known);
        this.fail(
          `${path}.${excerptKey(k, 40)}`.replace(/^\./, ''),
          'unknown key',
          guess ? `did you mean ${guess}?` : `known keys: ${known.join(', ')}`,
        );
      }
    }
    return v;
  }

  str(v: unknown, path: string, fix: string): string {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    this.fail(path, `expected a string, got ${describe(v)}`, fix);
  }

  requiredStr(obj: Record<string, unknown>, key: string, path: string, fix: string): string {
    const v = obj[key];
    if (v === undefined || v === null || v === '') this.fail(`${path}.${key}`, 'missing', fix);
    return this.str(v, `${path}.${key}`, fix);
  }

  stringMap(v: unknown, path: string): Record<string, string> {
    if (v === undefined || v === null) return {};
    if (!isMap(v))
      this.fail(
        path,
        `expected a map of strings, got ${describe(v)}`,
        'write "key: value" entries, quoting values like "true" or "1"',
      );
    const out: Record<string, string> = {};
    for (const [k, val] of Object.entries(v)) out[k] = this.str(val, `${path}.${excerptKey(k, 40)}`, 'quote the value');
    return out;
  }

  stringList(v: unknown, path: string, fix: string): string[] {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) this.fail(path, `expected a list, got ${describe(v)}`, fix);
    return v.map((item, i) => this.str(item, `${path}[${i}]`, fix));
  }

  int(v: unknown, path: string, kind: 'int' | 'uint', hint: string): number {
    if (typeof v !== 'number' || !Number.isSafeInteger(v))
      this.fail(path, `expected an integer, got ${describe(v)}`, `write ${hint}`);
    if (kind === 'uint' && v < 0) this.fail(path, `expected a non-negative integer, got ${v}`, `write ${hint}`);
    return v;
  }

  /** images: a list of image references, each written once. */
  images(v: unknown): string[] {
    const fix = 'write images: followed by "- registry/name:tag" entries';
    const names = this.stringList(v, 'images', fix);
    const seen = new Set<string>();
    names.forEach((name, i) => {
      if (name.trim() === '' || /\s/.test(name))
        this.fail(`images[${i}]`, `"${excerpt(name, 40)}" is not an image reference`, fix);
      if (seen.has(name)) this.fail(`images[${i}]`, `"${excerpt(name, 40)}" is listed twice`, 'list each image once');
      seen.add(name);
    });
    return names;
  }

  resources(v: unknown, path: string): nri.ILinuxResources {
    const obj = this.map(v, path, Object.keys(RESOURCE_KEYS));
    const out: nri.ILinuxResources = {};
    const cpu: Record<string, unknown> = {};
    const memory: Record<string, unknown> = {};
    for (const [key, raw] of Object.entries(obj)) {
      const spec = RESOURCE_KEYS[key];
      const p = `${path}.${key}`;
      if (raw === null || raw === undefined) continue;
      let value: unknown;
      if (key === 'unified') value = this.stringMap(raw, p);
      else if (key === 'hugepage_limits') value = this.hugepages(raw, p);
      else if (spec.kind === 'string') value = this.str(raw, p, `write ${spec.hint}`);
      else if (spec.kind === 'bool') {
        if (typeof raw !== 'boolean')
          this.fail(p, `expected true or false, got ${describe(raw)}`, `write ${spec.hint}`);
        value = raw;
      } else value = this.int(raw, p, spec.kind, spec.hint);
      if (key === 'pids_limit') value = { limit: value };
      else if (spec.optional) value = { value };
      const target = spec.group === 'cpu' ? cpu : spec.group === 'memory' ? memory : (out as Record<string, unknown>);
      target[spec.field] = value;
    }
    if (Object.keys(cpu).length) out.cpu = cpu;
    if (Object.keys(memory).length) out.memory = memory;
    return out;
  }

  hugepages(v: unknown, path: string): nri.IHugepageLimit[] {
    if (!Array.isArray(v))
      this.fail(path, `expected a list, got ${describe(v)}`, 'write a list of {page_size: "2MB", limit: 1073741824}');
    return v.map((item, i) => {
      const p = `${path}[${i}]`;
      const m = this.map(item, p, ['page_size', 'limit']);
      return {
        pageSize: this.requiredStr(m, 'page_size', p, 'write the page size, e.g. "2MB" or "1GB"'),
        limit: this.int(m.limit, `${p}.limit`, 'uint', 'bytes, e.g. 1073741824'),
      };
    });
  }

  pod(v: unknown, path: string): nri.IPodSandbox {
    const m = this.map(v, path, POD_KEYS);
    const id = this.requiredStr(m, 'id', path, 'give every pod a unique id, e.g. id: pod0');
    const pod: nri.IPodSandbox = {
      id,
      name: m.name === undefined ? id : this.str(m.name, `${path}.name`, 'write the pod name'),
      uid: m.uid === undefined ? fakeUid(id) : this.str(m.uid, `${path}.uid`, 'write a UUID'),
      namespace:
        m.namespace === undefined ? 'default' : this.str(m.namespace, `${path}.namespace`, 'write a namespace name'),
      labels: this.stringMap(m.labels, `${path}.labels`),
      annotations: this.stringMap(m.annotations, `${path}.annotations`),
    };
    if (m.runtime_handler !== undefined)
      pod.runtimeHandler = this.str(m.runtime_handler, `${path}.runtime_handler`, 'write a handler name, e.g. runc');
    const linux: nri.ILinuxPodSandbox = {};
    if (m.cgroup_parent !== undefined)
      linux.cgroupParent = this.str(m.cgroup_parent, `${path}.cgroup_parent`, 'write a cgroup path');
    if (m.resources !== undefined) linux.resources = this.resources(m.resources, `${path}.resources`);
    if (m.overhead !== undefined) linux.podOverhead = this.resources(m.overhead, `${path}.overhead`);
    if (Object.keys(linux).length) pod.linux = linux;
    return pod;
  }

  container(v: unknown, path: string, defaultState: nri.ContainerState): nri.IContainer {
    const m = this.map(v, path, CONTAINER_KEYS);
    const id = this.requiredStr(m, 'id', path, 'give every container a unique id, e.g. id: ctr0');
    const ctr: nri.IContainer = {
      id,
      podSandboxId: this.requiredStr(m, 'pod', path, 'name the id of the pod the container belongs to'),
      name: m.name === undefined ? id : this.str(m.name, `${path}.name`, 'write the container name'),
      state: m.state === undefined ? defaultState : this.state(m.state, `${path}.state`),
      labels: this.stringMap(m.labels, `${path}.labels`),
      annotations: this.stringMap(m.annotations, `${path}.annotations`),
      args: this.stringList(m.args, `${path}.args`, 'write the command line as a list of strings'),
      env: this.stringList(m.env, `${path}.env`, 'write a list of "NAME=value" strings'),
    };
    ctr.env!.forEach((e, i) => {
      if (!e.includes('=')) this.fail(`${path}.env[${i}]`, `"${excerpt(e)}" has no "="`, 'write NAME=value');
    });
    if (m.pid !== undefined) ctr.pid = this.int(m.pid, `${path}.pid`, 'uint', 'a process id');
    if (m.resources !== undefined) ctr.linux = { resources: this.resources(m.resources, `${path}.resources`) };
    return ctr;
  }

  state(v: unknown, path: string): nri.ContainerState {
    const s = typeof v === 'string' ? v.toUpperCase().replace(/^CONTAINER_/, '') : '';
    const state = STATES[s];
    if (state === undefined)
      this.fail(path, `unknown container state ${describe(v)}`, `write one of ${Object.keys(STATES).join(', ')}`);
    return state;
  }

  id(v: unknown, path: string, what: string): string {
    if (isMap(v)) {
      const m = this.map(v, path, ['id']);
      return this.requiredStr(m, 'id', path, `name the ${what} id`);
    }
    const id = this.str(v, path, `name the ${what} id, e.g. "- stop: ctr0"`);
    if (!id) this.fail(path, 'empty id', `name the ${what} id`);
    return id;
  }

  step(v: unknown, path: string): Step {
    if (!isMap(v) || Object.keys(v).length !== 1) {
      this.fail(
        path,
        `expected one step such as "- start: ctr0", got ${describe(v)}`,
        `use one of ${STEP_KINDS.join(', ')}`,
      );
    }
    const [kind, arg] = Object.entries(v)[0];
    const p = `${path}.${excerptKey(kind, 40)}`;
    switch (kind) {
      case 'run-pod':
        return { kind, pod: this.pod(arg, p) };
      case 'create':
        return { kind, container: this.container(arg, p, nri.ContainerState.CONTAINER_CREATED) };
      case 'update':
      case 'update-pod': {
        const m = this.map(arg, p, kind === 'update' ? ['id', 'resources'] : ['id', 'resources', 'overhead']);
        const id = this.requiredStr(m, 'id', p, `name the ${kind === 'update' ? 'container' : 'pod'} id`);
        if (m.resources === undefined)
          this.fail(`${p}.resources`, 'missing', 'give the new resources, e.g. resources: {cpu_shares: 2048}');
        const resources = this.resources(m.resources, `${p}.resources`);
        if (kind === 'update') return { kind, id, resources };
        return m.overhead === undefined
          ? { kind, id, resources }
          : { kind, id, resources, overhead: this.resources(m.overhead, `${p}.overhead`) };
      }
      case 'start':
      case 'stop':
      case 'remove':
        return { kind, id: this.id(arg, p, 'container') };
      case 'stop-pod':
      case 'remove-pod':
        return { kind, id: this.id(arg, p, 'pod') };
      case 'sleep':
        return { kind, ms: this.int(arg, p, 'uint', 'milliseconds, e.g. 500') };
      default: {
        const guess = closest(kind, STEP_KINDS);
        this.fail(p, 'unknown step', guess ? `did you mean ${guess}?` : `use one of ${STEP_KINDS.join(', ')}`);
      }
    }
  }
}

/** A stable, UUID-shaped id derived from the pod id, for scenarios that do not care. */
function fakeUid(id: string): string {
  let h = 0x811c9dc5;
  const words: string[] = [];
  for (let round = 0; round < 4; round++) {
    for (const ch of `${round}:${id}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    words.push(h.toString(16).padStart(8, '0'));
  }
  const hex = words.join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Checks ids are unique and that containers and steps refer to pods and containers that exist at that point. */
function checkReferences(r: Reader, s: Omit<Scenario, 'file'>): void {
  const pods = new Set<string>();
  const ctrs = new Set<string>();
  // Which containers each pod holds, so that removing a pod costs its own containers, not all of them.
  const podContainers = new Map<string, string[]>();
  const addContainer = (c: nri.IContainer): void => {
    ctrs.add(c.id!);
    const list = podContainers.get(c.podSandboxId!);
    if (list) list.push(c.id!);
    else podContainers.set(c.podSandboxId!, [c.id!]);
  };
  const q = (id: string | null | undefined): string => JSON.stringify(excerpt(id ?? '', 40));
  s.pods.forEach((p, i) => {
    if (pods.has(p.id!)) r.fail(`pods[${i}].id`, `duplicate pod id ${q(p.id)}`, 'give every pod a unique id');
    pods.add(p.id!);
  });
  s.containers.forEach((c, i) => {
    if (ctrs.has(c.id!))
      r.fail(`containers[${i}].id`, `duplicate container id ${q(c.id)}`, 'give every container a unique id');
    if (!pods.has(c.podSandboxId!))
      r.fail(`containers[${i}].pod`, `no pod ${q(c.podSandboxId)}`, `use one of the ids under pods: ${someOf(pods)}`);
    addContainer(c);
  });
  s.steps.forEach((step, i) => {
    const p = `steps[${i}].${step.kind}`;
    switch (step.kind) {
      case 'run-pod':
        if (pods.has(step.pod.id!)) r.fail(`${p}.id`, `pod ${q(step.pod.id)} already exists`, 'use a new pod id');
        pods.add(step.pod.id!);
        break;
      case 'create':
        if (ctrs.has(step.container.id!))
          r.fail(`${p}.id`, `container ${q(step.container.id)} already exists`, 'use a new container id');
        if (!pods.has(step.container.podSandboxId!))
          r.fail(
            `${p}.pod`,
            `no pod ${q(step.container.podSandboxId)} at this step`,
            'run the pod first with a run-pod step, or list it under pods',
          );
        addContainer(step.container);
        break;
      case 'start':
      case 'stop':
      case 'update':
      case 'remove':
        if (!ctrs.has(step.id))
          r.fail(p, `no container ${q(step.id)} at this step`, 'create it first, or check the id');
        if (step.kind === 'remove') ctrs.delete(step.id);
        break;
      case 'stop-pod':
      case 'update-pod':
      case 'remove-pod':
        if (!pods.has(step.id)) r.fail(p, `no pod ${q(step.id)} at this step`, 'run it first, or check the id');
        if (step.kind === 'remove-pod') {
          pods.delete(step.id);
          // A removed pod takes its containers with it, as in a CRI runtime.
          for (const id of podContainers.get(step.id) ?? []) ctrs.delete(id);
          podContainers.delete(step.id);
        }
        break;
      case 'sleep':
        break;
    }
  });
}

/** Parses and validates scenario text; `file` is only used in messages. */
export function parseScenario(text: string, file: string): Scenario {
  const r: Reader = new Reader(file);
  let doc: unknown;
  try {
    doc = parseInputDocument(text);
  } catch (err) {
    if (!(err instanceof InputDocumentError)) throw err;
    const fix =
      err.reason === 'too-deep'
        ? 'a scenario nests a few levels: check the brackets and indentation there'
        : 'fix the YAML/JSON syntax there';
    throw new ScenarioError(`${file}: ${err.problem} (${fix})`, file, '', { cause: err });
  }
  const top = r.map(doc ?? {}, '', ['pods', 'containers', 'steps', 'images']);
  const list = (key: string): unknown[] => {
    const v = top[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v))
      r.fail(key, `expected a list, got ${describe(v)}`, `write ${key}: followed by "- ..." entries`);
    return v;
  };
  const scenario = {
    pods: list('pods').map((p, i) => r.pod(p, `pods[${i}]`)),
    containers: list('containers').map((c, i) =>
      r.container(c, `containers[${i}]`, nri.ContainerState.CONTAINER_RUNNING),
    ),
    steps: list('steps').map((s, i) => r.step(s, `steps[${i}]`)),
  };
  checkReferences(r, scenario);
  const images = top.images === undefined || top.images === null ? undefined : r.images(top.images);
  return { file, ...scenario, ...(images ? { images } : {}) };
}

/**
 * Reads a scenario file, or a built-in one by name (`demo`): a regular file of at most
 * INPUT_LIMITS.scenario bytes (64 MiB), refused before it is read otherwise.
 */
export async function loadScenario(file: string): Promise<Scenario> {
  let text: string;
  try {
    text = readInputFile(resolveScenarioPath(file), { what: 'scenario', maxBytes: INPUT_LIMITS.scenario });
  } catch (err) {
    if (!(err instanceof InputFileError)) throw err;
    const fix =
      err.reason === 'missing'
        ? `check the path, or name a built-in scenario: ${Object.keys(BUILTIN_SCENARIOS).join(', ')}`
        : err.reason === 'too-large'
          ? 'split it into smaller scenarios'
          : err.reason === 'unreadable'
            ? 'check its permissions'
            : 'give the path of a regular file';
    throw new ScenarioError(`${file}: cannot read the scenario: it ${err.problem} (${fix})`, file, '', {
      cause: err,
    });
  }
  return Promise.resolve(parseScenario(text, file));
}

/** One scenario-style resources map (snake_case keys, as in steps) read into LinuxResources; for expectation files. */
export function parseScenarioResources(v: unknown, file: string, path: string): nri.ILinuxResources {
  return new Reader(file).resources(v, path);
}

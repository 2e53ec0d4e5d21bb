// Which pods and containers an operator asked to see (--namespace, --pod, --container,
// --label). Names match as shell-style globs ("web-*", "redis-?"); a pattern without
// '*' or '?' matches exactly. Labels match exactly (key=value) on the pod's or the
// container's labels. Every given filter must match.
import type { ErrorKind } from '../errors/index.js';
import type { nri } from '../api/index.js';

export interface FilterSpec {
  namespace?: string | undefined;
  pod?: string | undefined;
  container?: string | undefined;
  /** "key=value" each; all must hold. */
  labels?: readonly string[] | undefined;
}

export class FilterError extends Error {
  override readonly name = 'FilterError';
  readonly kind: ErrorKind = 'usage';
  constructor(
    readonly flag: string,
    message: string,
  ) {
    super(message);
  }
}

type Matcher = (s: string | null | undefined) => boolean;

/** A glob over the whole string: '*' any run, '?' one character, everything else literal. */
export function globMatcher(pattern: string): Matcher {
  if (!/[*?]/.test(pattern)) return (s) => (s ?? '') === pattern;
  const source = pattern.replace(/[.+^${}()|[\]\\*?]/g, (c) => (c === '*' ? '.*' : c === '?' ? '.' : `\\${c}`));
  const re = new RegExp(`^${source}$`, 's');
  return (s) => re.test(s ?? '');
}

export function parseLabel(spec: string): [string, string] {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new FilterError('--label', `--label "${spec}" is not key=value: write it as --label app=web`);
  return [spec.slice(0, eq), spec.slice(eq + 1)];
}

const has = (labels: { [k: string]: string } | null | undefined, key: string, value: string): boolean =>
  labels != null && Object.hasOwn(labels, key) && labels[key] === value;

/**
 * The compiled filter. Cheap to call: logs runs it on the runtime's reply path, so it
 * is a few string compares and, for globs, one precompiled regular expression each.
 */
export class ObjectFilter {
  private readonly namespace?: Matcher;
  private readonly pod?: Matcher;
  private readonly container?: Matcher;
  private readonly labels: Array<[string, string]>;
  /** True when nothing is filtered. */
  readonly empty: boolean;
  /** True when a container-level criterion is set (a pod alone cannot satisfy it). */
  readonly needsContainer: boolean;
  /** The criteria in force, as a recording's header names them (docs/recording.md). */
  readonly given: { namespace?: string; pod?: string; container?: string; labels?: string[] };

  constructor(spec: FilterSpec = {}) {
    if (spec.namespace) this.namespace = globMatcher(spec.namespace);
    if (spec.pod) this.pod = globMatcher(spec.pod);
    if (spec.container) this.container = globMatcher(spec.container);
    this.labels = (spec.labels ?? []).map(parseLabel);
    this.empty = !this.namespace && !this.pod && !this.container && this.labels.length === 0;
    this.needsContainer = Boolean(this.container);
    this.given = {
      ...(spec.namespace ? { namespace: spec.namespace } : {}),
      ...(spec.pod ? { pod: spec.pod } : {}),
      ...(spec.container ? { container: spec.container } : {}),
      ...(this.labels.length > 0 ? { labels: [...spec.labels!] } : {}),
    };
  }

  /** The pod-level criteria (namespace, pod name, labels on the pod alone). */
  matchesPod(pod: nri.IPodSandbox | null | undefined): boolean {
    if (this.empty) return true;
    if (this.namespace && !this.namespace(pod?.namespace)) return false;
    if (this.pod && !this.pod(pod?.name)) return false;
    for (const [k, v] of this.labels) if (!has(pod?.labels, k, v)) return false;
    return true;
  }

  /**
   * A pod event (no container): pod criteria must hold and no container criterion may
   * be set, since a pod event has no container to satisfy it.
   */
  matchesPodEvent(pod: nri.IPodSandbox | null | undefined): boolean {
    return !this.needsContainer && this.matchesPod(pod);
  }

  /** A container event or row: labels may sit on the container or on its pod. */
  matchesContainer(pod: nri.IPodSandbox | null | undefined, ctr: nri.IContainer | null | undefined): boolean {
    if (this.empty) return true;
    if (this.namespace && !this.namespace(pod?.namespace)) return false;
    if (this.pod && !this.pod(pod?.name)) return false;
    if (this.container && !this.container(ctr?.name)) return false;
    for (const [k, v] of this.labels) if (!has(ctr?.labels, k, v) && !has(pod?.labels, k, v)) return false;
    return true;
  }

  /**
   * Filters a Synchronize snapshot: the matching containers, and the pods that either
   * match on their own (when no container criterion is set) or hold a matching container.
   */
  selectState<P extends nri.IPodSandbox, C extends nri.IContainer>(
    pods: readonly P[],
    containers: readonly C[],
  ): { pods: P[]; containers: C[] } {
    if (this.empty) return { pods: [...pods], containers: [...containers] };
    const byId = new Map<string, P>();
    for (const p of pods) byId.set(p.id ?? '', p);
    const keptCtrs = containers.filter((c) => this.matchesContainer(byId.get(c.podSandboxId ?? ''), c));
    const withCtr = new Set(keptCtrs.map((c) => c.podSandboxId ?? ''));
    const keptPods = pods.filter((p) => withCtr.has(p.id ?? '') || this.matchesPodEvent(p));
    return { pods: keptPods, containers: keptCtrs };
  }
}

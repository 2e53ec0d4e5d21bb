// Where trace's probes go. A runtime calls plugins in index order (a string sort of the
// two digits) and orders plugins that share an index unstably, so a probe must sit on an
// index no plugin uses. A probe before the first plugin, one in a free index between each
// two plugins, and one after the last see the request as each plugin left it; plugins with
// no free index between them can only be watched together and are reported as one group.
// Two probes with nothing between them (the calibration pair) time one probe hop, which
// trace subtracts from every segment.

import type { ErrorKind } from '../errors/index.js';
export interface InstalledPlugin {
  index: string;
  /** Undefined when only the index is known (--index). */
  name?: string | undefined;
  source: 'plugin-dir' | 'index-flag' | 'simulator' | 'validator' | 'runtime-metrics';
}

/** The plugins between two consecutive probes, and how trace names them. */
export interface Segment {
  /** Index of the probe before and after the segment. */
  from: string;
  to: string;
  plugins: InstalledPlugin[];
  /** "30-sleepy", "group 60-a+61-b", or "indexes 02-97" when nothing is known there. */
  label: string;
  /** True when several plugins are watched together. */
  group: boolean;
  /** True for the calibration pair: two probes on consecutive indexes. */
  calibration: boolean;
}

export interface ProbePlan {
  probes: string[];
  segments: Segment[];
  /** The segment that times one probe hop; undefined when no two free indexes are adjacent where needed. */
  calibration: Segment | undefined;
  /** What the plan could not do, or did in a way the user should know, one line each. */
  notes: string[];
}

export class PlacementError extends Error {
  override readonly name = 'PlacementError';
  readonly kind: ErrorKind = 'usage';
}

export type ProbeMode = 'around' | 'all';

const pad = (n: number): string => String(n).padStart(2, '0');

export function pluginLabel(p: InstalledPlugin): string {
  return p.name ? `${p.index}-${p.name}` : `index ${p.index}`;
}

/** Parses "30,50" (--index): two-digit indexes. */
export function parseIndexList(text: string): InstalledPlugin[] {
  const out: InstalledPlugin[] = [];
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (!/^\d\d$/.test(part))
      throw new PlacementError(`--index: "${part}" is not a two-digit plugin index; write e.g. --index 10,40`);
    out.push({ index: part, source: 'index-flag' });
  }
  if (out.length === 0) throw new PlacementError('--index names no index; write e.g. --index 10,40');
  return out;
}

/**
 * Plans the probes around the known plugins. 'around': one probe before, between and
 * after the plugins, plus the calibration pair; 'all': every free index (a discovery run:
 * each probe adds one hop to every traced event).
 */
export function planProbes(installed: readonly InstalledPlugin[], mode: ProbeMode = 'around'): ProbePlan {
  const used = new Set(installed.map((p) => Number(p.index)));
  const free = Array.from({ length: 100 }, (_, i) => i).filter((i) => !used.has(i));
  const notes: string[] = [];
  let chosen: number[];
  if (mode === 'all') {
    chosen = free;
    notes.push(
      `--probes all: ${free.length} probes, each adding about one probe hop (see the summary) to every traced event: keep the run short`,
    );
  } else {
    const distinct = [...used].sort((a, b) => a - b);
    const picks = new Set<number>();
    if (distinct.length === 0) {
      // Nothing known: watch the whole range between a probe at each end.
      for (const i of [0, 1, 98, 99]) picks.add(i);
      notes.push(
        'no installed plugin known: the probes at 01 and 98 see every external plugin as one group; give their indexes with --index, or run a short --probes all',
      );
    } else {
      const first = distinct[0];
      const before = free.filter((i) => i < first);
      if (before.length > 0) picks.add(before[before.length - 1]);
      else
        notes.push(
          `no free index before ${pad(first)}: the first plugins are timed from the request's arrival at the next probe only`,
        );
      for (let k = 0; k + 1 < distinct.length; k++) {
        const a = distinct[k];
        const b = distinct[k + 1];
        const between = free.find((i) => i > a && i < b);
        if (between !== undefined) picks.add(between);
      }
      const last = distinct[distinct.length - 1];
      const after = free.filter((i) => i > last);
      // The calibration pair: the first two free indexes after the last plugin, when they are adjacent;
      // else two adjacent free indexes before the first plugin.
      if (after.length >= 2 && after[1] === after[0] + 1) {
        picks.add(after[0]);
        picks.add(after[1]);
      } else {
        if (after.length > 0) picks.add(after[0]);
        const pair = before.findIndex((i, k) => k + 1 < before.length && before[k + 1] === i + 1);
        if (pair >= 0) {
          picks.add(before[pair]);
          picks.add(before[pair + 1]);
        }
      }
      if (after.length === 0) notes.push(`no free index after ${pad(last)}: what the last plugins change is not seen`);
    }
    chosen = [...picks].sort((a, b) => a - b);
  }
  if (chosen.length < 2)
    throw new PlacementError('fewer than two free indexes: trace needs a probe on each side of a plugin');

  const segments: Segment[] = [];
  for (let k = 0; k + 1 < chosen.length; k++) {
    const from = chosen[k];
    const to = chosen[k + 1];
    const plugins = installed
      .filter((p) => Number(p.index) > from && Number(p.index) < to)
      .sort((x, y) => (x.index < y.index ? -1 : x.index > y.index ? 1 : 0));
    const calibration = to === from + 1;
    segments.push(segmentOf(pad(from), pad(to), plugins, calibration));
  }
  const calibration = segments.find((s) => s.calibration);
  if (!calibration)
    notes.push('no two adjacent free indexes: the probe hop cannot be measured, so segment times include it');
  for (const s of segments) {
    if (s.group)
      notes.push(`${s.plugins.map(pluginLabel).join(', ')}: no free index between them, reported as one group`);
  }
  return { probes: chosen.map(pad), segments, calibration, notes };
}

export function segmentOf(from: string, to: string, plugins: InstalledPlugin[], calibration = false): Segment {
  const label =
    plugins.length === 1
      ? pluginLabel(plugins[0])
      : plugins.length > 1
        ? `group ${plugins.map(pluginLabel).join('+')}`
        : calibration
          ? `probe hop ${from}->${to}`
          : `indexes ${pad(Number(from) + 1)}-${pad(Number(to) - 1)}`;
  return { from, to, plugins, label, group: plugins.length > 1, calibration };
}

// Splits a short `nrictl sim -o json` run into phases by the times of the events it
// prints (wall clock, ms) against the moment it was spawned: what comes before the
// pre-started plugin is launched (node, the CLI, the simulator's modules, the socket),
// the plugin's start and registration, its Synchronize, the wait before the script, the
// script, and the exit.
import { spawnSync } from 'node:child_process';

type Ev = { type: string; event?: string; time: string };

function once(argv: string[]): Map<string, number> {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const end = Date.now();
  if (r.status !== 0) throw new Error(`nrictl sim exited ${r.status}: ${r.stderr}`);
  const events = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Ev);
  const at = (pred: (e: Ev) => boolean, last = false): number => {
    const found = last ? events.filter(pred).pop() : events.find(pred);
    if (!found) throw new Error('an expected event is missing from the run');
    return Date.parse(found.time) - t0;
  };
  const launched = at((e) => e.type === 'launched');
  const registered = at((e) => e.type === 'registered');
  const synchronized = at((e) => e.type === 'synchronized');
  const first = at((e) => e.type === 'invoke');
  const done = at((e) => e.type === 'state-changed', true);
  return new Map([
    ['spawn -> plugin launched (node, CLI, modules, runtime, socket directory)', launched],
    ['launched -> registered (the Go plugin starts and registers)', registered - launched],
    ['registered -> synchronized (Configure, Synchronize)', synchronized - registered],
    ['synchronized -> first event (the wait before the script)', first - synchronized],
    ['first event -> last state change (the two steps)', done - first],
    ['last state change -> exit (stop, plugin shutdown, exit)', end - t0 - done],
    ['total', end - t0],
  ]);
}

export async function startupPhases(argv: string[], runs: number): Promise<Array<[string, number]>> {
  const samples = Array.from({ length: runs }, () => once(argv));
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return [...samples[0].keys()].map((k) => [k, median(samples.map((s) => s.get(k)!))]);
}

// One readable line per simulator event for `nrictl sim` (-o table), on the one event
// renderer's clock and event column (./events.ts). The simulator's ids are printed
// whole: its interactive commands take them as they are.
import type { SimEvent } from '../runtime/index.js';
import { chalk } from '../output/index.js';
import { eventColumn, formatClock } from './events.js';
import { plural } from '../units/index.js';

const ms = (n: number): string => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;

export function formatSimEvent(e: SimEvent): string {
  const t = chalk.dim(formatClock(e.time));
  const tag = (s: string, colour: (x: string) => string = (x) => x): string => colour(s.padEnd(12));
  switch (e.type) {
    case 'listening':
      return `${t} ${tag('listening', chalk.cyan)} ${e.socketPath}${e.api === 'cri' ? ' (CRI)' : ''}`;
    case 'launched':
      return `${t} ${tag('launched', chalk.cyan)} ${e.plugin} (pid ${e.pid ?? '?'}, ${e.path})`;
    case 'registered':
      return `${t} ${tag('registered', chalk.green)} ${e.plugin} ${e.external ? 'external' : 'pre-started'}${e.nriVersion ? `, NRI ${e.nriVersion}` : ''}, events ${e.events}`;
    case 'synchronized':
      return `${t} ${tag('synchronized', chalk.green)} ${e.plugin}: ${e.pods} pods, ${e.containers} containers in ${plural(e.messages, 'message')} (${ms(e.rttMs)})`;
    case 'dropped':
      return `${t} ${tag('dropped', chalk.red)} ${e.plugin}: ${e.reason}`;
    case 'stopped':
      return `${t} ${tag('stopped', chalk.cyan)} ${e.plugin}: ${e.reason}`;
    case 'invoke':
      return `${t} ${tag('invoke')} ${eventColumn(e.event, false)} -> ${e.plugin} ${chalk.dim(ms(e.rttMs))}${e.container ? ` ${e.container}` : e.pod ? ` ${e.pod}` : ''}${e.via ? chalk.dim(` (via ${e.via})`) : ''}`;
    case 'adjusted':
      return `${t} ${tag('adjusted', chalk.yellow)} ${e.container} by ${e.plugin}: ${JSON.stringify(e.adjust)}`;
    case 'updated':
      return `${t} ${tag(e.failed ? 'update-fail' : 'updated', e.failed ? chalk.red : chalk.yellow)} ${e.container} by ${e.plugin} (${e.source}): ${JSON.stringify(e.update.linux?.resources ?? {})}`;
    case 'evicted':
      return `${t} ${tag('evict-ignored', chalk.dim)} ${e.container} by ${e.plugin} (${e.via}): ${e.reason} ${chalk.dim('(NRI runtimes drop evictions)')}`;
    case 'ignored':
      return `${t} ${tag('ignored', chalk.yellow)} ${e.container}${e.plugin ? ` by ${e.plugin}` : ''}: ${e.message}`;
    // The messages are the Go library's, which name neither the container nor the
    // event: the line adds them.
    case 'rejected':
      return `${t} ${tag('rejected', chalk.red)} ${e.container}: ${e.message}`;
    case 'conflict':
      return `${t} ${tag('conflict', chalk.red)} ${e.container}: ${e.message}`;
    case 'error':
      return `${t} ${tag('error', chalk.red)} ${e.plugin ? `${e.plugin}: ` : ''}${e.plugin && e.event && !e.message.startsWith(`${e.event}: `) ? `${e.event}: ` : ''}${e.message}`;
    case 'plugin-output':
      return `${t} ${tag(e.plugin, chalk.dim)} ${e.stream === 'stderr' ? chalk.dim(e.line) : e.line}`;
    case 'state-changed':
      return `${t} ${tag('state', chalk.blue)} ${e.event} ${e.container ?? e.pod ?? ''}${e.state ? ` -> ${e.state}` : ''}`;
  }
}

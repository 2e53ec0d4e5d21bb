// One row of `nrictl plugins`: a plugin as the runtime's metrics or the node's probes see it.
// Its own file because both the lister (plugins.ts) and the probes (plugin-probes.ts) make rows.
import type { PluginMetrics } from '../session/index.js';
import type { PeerProcess } from './socket-peers.js';

export type ListedState =
  /** Counted as active, with no fatal failure recorded. */
  | 'active'
  /** Failed fatally long enough ago (drop-window.ts); the counts cannot tell whether it reconnected since. */
  | 'failed'
  /** The runtime dropped it within the window (drop-window.ts): its count of fatal failures rose lately. */
  | 'dropped'
  /** Not from the plugin directory, failed fatally before the window and no longer connected: history, not an alarm. */
  | 'gone'
  /** In the plugin directory, and the runtime's metrics show no call to it: it is not running. */
  | 'not-running'
  /** In the plugin directory; without the runtime's metrics nothing says whether it runs. */
  | 'installed'
  /** A process the runtime started carries its name (probed, without metrics). */
  | 'running';

export interface ListedPlugin {
  /** "30-slow". */
  name: string;
  state: ListedState;
  /** Pre-started from the plugin directory, connected from outside, or the runtime's own default validator. */
  origin: 'plugin-dir' | 'external' | 'builtin';
  metrics?: PluginMetrics | undefined;
  /** Its executable in the plugin directory (probed, without metrics). */
  file?: string | undefined;
  /** The process the runtime started for it (probed, without metrics). */
  process?: PeerProcess | undefined;
  /** The process was found by its command line only (its environment unreadable): not known to be the runtime's. */
  byCommandLine?: boolean | undefined;
}

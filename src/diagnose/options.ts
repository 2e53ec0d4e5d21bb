// What `nrictl doctor` is asked to do, apart from the operation, so that each of its steps
// (ask-runtime.ts, diagnose.ts) can take it without importing the other.
import type { RuntimeKind } from '../checks/index.js';

/** Where doctor looks and whom it asks. */
export interface DiagnoseOptions {
  /** The node's root directory (default '/'): configs are looked for, and the paths they name taken, under it. */
  root?: string | undefined;
  /** Runtime config files to use instead of those found under root. */
  runtimeConfigs?: string[] | undefined;
  /** Judge by this runtime's rules instead of the config's. */
  runtime?: RuntimeKind | undefined;
  /** Ask (and check) this socket instead of the one the config names. */
  socketPath?: string | undefined;
  /** Compare with what this CRI socket lists, instead of the one the runtime's config names or a well-known one. */
  criSocket?: string | undefined;
  /** Ask an embedded simulator playing this scenario instead; the offline checks still look at the node. */
  sim?: string | undefined;
  /** The transient plugin's name and index. */
  name: string;
  index: string;
  /** Bounds the registration and each call (default: the runtime's, else the SDK's). */
  timeoutMs?: number | undefined;
  /** Also trace the plugins for a few seconds and judge their latency. */
  trace?: boolean | undefined;
}

// Plugin identity rules exactly as the Go runtime applies them (containerd/nri
// pkg/api ParsePluginName / CheckPluginIndex / CheckPluginName; the same from v0.6.1 to
// the newest release). They decide whether a runtime launches a plugin at all, so the
// simulator and the validators must agree with them byte for byte.
//
// This file imports nothing (in particular not schema.js): src/checks imports it
// directly so that offline checks load without the protobuf bindings.

export type PluginNameReason =
  'no-index-separator' | 'index-length' | 'index-not-digits' | 'empty-name' | 'invalid-character';

export class PluginNameError extends Error {
  // A leaf file imports nothing: the kind is spelled out (src/errors' ErrorKind).
  readonly kind = 'usage' as const;
  readonly code = 'PLUGIN_NAME' as const;
  constructor(
    readonly input: string,
    readonly reason: PluginNameReason,
    message: string,
  ) {
    super(message);
    this.name = 'PluginNameError';
  }
}

// Go's %q for the strings we quote; JSON escaping matches it for printable text.
const q = (s: string): string => JSON.stringify(s);

/**
 * Splits a plugin file name "NN-name" at the first '-'. The index must be exactly two
 * bytes, both ASCII digits. The name is everything after the first '-', unchecked: it
 * may be empty ("10-") or contain further dashes and any character, as in Go.
 */
export function parsePluginName(basename: string): { index: string; name: string } {
  const dash = basename.indexOf('-');
  if (dash < 0) {
    throw new PluginNameError(
      basename,
      'no-index-separator',
      `invalid plugin name ${q(basename)}, idx-pluginname expected`,
    );
  }
  const index = basename.slice(0, dash);
  checkPluginIndex(index);
  return { index, name: basename.slice(dash + 1) };
}

/** The index rule, also applied to externally registered plugins' plugin_idx. */
export function checkPluginIndex(index: string): void {
  // Go measures the length in bytes: "é" (2 bytes) fails the digit test, not the length test.
  if (Buffer.byteLength(index, 'utf8') !== 2) {
    throw new PluginNameError(index, 'index-length', `invalid plugin index ${q(index)}, must be 2 digits`);
  }
  if (!/^[0-9][0-9]$/.test(index)) {
    throw new PluginNameError(index, 'index-not-digits', `invalid plugin index ${q(index)} (not [0-9][0-9])`);
  }
}

const EXTERNAL_NAME = /^[a-zA-Z0-9_.+-]+$/;

/** Since NRI v0.12 an externally registering plugin's name must be non-empty [a-zA-Z0-9_.+-]. */
export function isValidExternalName(name: string): boolean {
  return EXTERNAL_NAME.test(name);
}

/** Like isValidExternalName, but throws with the runtime's reason. */
export function checkExternalName(name: string): void {
  if (name === '') throw new PluginNameError(name, 'empty-name', 'invalid plugin name: name is empty');
  for (const ch of name) {
    if (!EXTERNAL_NAME.test(ch)) {
      throw new PluginNameError(
        name,
        'invalid-character',
        `invalid plugin name ${q(name)}: contains invalid character ${quoteRune(ch)}`,
      );
    }
  }
}

// Go's %q of a rune: single quotes.
function quoteRune(ch: string): string {
  const inner = JSON.stringify(ch).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'");
  return `'${inner}'`;
}

// `nrictl plugin bundle`: the file written, and how a runtime is to start it.
import { DEFAULT_SOCKET_PATH } from '../api/socket-path.js';
import type { BundleResult } from '../bundle/index.js';
import type { View } from '../output/index.js';

export const bundleView: View<BundleResult> = {
  text(r) {
    const kib = (r.bytes / 1024).toFixed(0);
    const wrote = `Wrote ${r.file} (${kib} KiB, mode ${octal(r.mode)}) from ${r.entry}.`;
    const base = r.file.split('/').pop() ?? r.file;
    const next = r.plugin
      ? `Copy it into the runtime's plugin directory as ${base}, or run it as an external plugin: ${r.file} --socket ${DEFAULT_SOCKET_PATH}`
      : `A runtime starts only NN-name files: copy it into the plugin directory as e.g. 10-${base.replace(/\.[cm]?js$/, '')}, or run it as an external plugin with --socket PATH.`;
    return `${wrote}\n${next}`;
  },
  data: (r) => ({ ...r, mode: octal(r.mode), plugin: r.plugin ?? null }),
};

const octal = (mode: number): string => mode.toString(8).padStart(4, '0');

// `nrictl plugin bundle`: one executable JavaScript file holding a plugin, the SDK and
// every dependency, which a runtime starts from its plugin directory as NN-name.
//
// The output is an ES module without extension. Node runs it as one because module
// syntax detection is on by default from Node 20.19 (and 22.7); older Node reads an
// extensionless file as CommonJS and fails on the first import. ESM rather than
// CommonJS because plugins await stub.start() at top level, which CommonJS cannot hold.
// esbuild is loaded only here, so the other commands never pay for it.
import type { ErrorKind } from '../errors/index.js';
import { parsePluginName } from '../api/plugin-name.js';
import { BUNDLE_LOG_MARK, BUNDLE_MARK } from '../api/plugin-log.js';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../output/index.js';

const BUNDLE_MODE = 0o755;
/** The oldest Node that runs the bundle as it is (module syntax detection on by default). */
const BUNDLE_MIN_NODE = '20.19.0';

export class BundleError extends Error {
  constructor(
    message: string,
    readonly reason: 'no-entry' | 'build' | 'write',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BundleError';
  }

  get kind(): ErrorKind {
    return this.reason === 'no-entry' ? 'not-found' : 'failed';
  }
}

// CommonJS dependencies bundled into an ES module still call require() for Node's
// built-ins (protobufjs does); give them the real one. import.meta.url is the bundle.
const PRELUDE = [
  '#!/usr/bin/env node',
  `${BUNDLE_MARK}: the plugin, nrictl's SDK and their dependencies. Needs node >= ${BUNDLE_MIN_NODE}.`,
  // Read by `nrictl validate` to say where the plugin logs (src/plugin/log.ts).
  `${BUNDLE_LOG_MARK} (when a runtime starts it without a terminal)`,
  "import { createRequire as __nrictlCreateRequire } from 'node:module';",
  'const require = __nrictlCreateRequire(import.meta.url);',
  '',
].join('\n');

/** The entry: the one given, else src/index.ts, else package.json's main, in `cwd`. */
function findEntry(cwd: string, given?: string): string {
  if (given !== undefined) {
    const p = path.resolve(cwd, given);
    if (!existsSync(p))
      throw new BundleError(
        `${given}: no such file; give the plugin's entry (src/index.ts or the built .js)`,
        'no-entry',
      );
    return p;
  }
  const candidates = ['src/index.ts', 'src/index.js', 'index.ts', 'index.js'];
  try {
    const main = (JSON.parse(readFileSync(path.join(cwd, 'package.json'), 'utf8')) as { main?: unknown }).main;
    if (typeof main === 'string') candidates.push(main);
  } catch {
    // no package.json, or not JSON: the fixed candidates only
  }
  for (const c of candidates) if (existsSync(path.join(cwd, c))) return path.join(cwd, c);
  throw new BundleError(
    `no entry found in ${cwd} (looked for ${candidates.join(', ')}); give the entry file`,
    'no-entry',
  );
}

export interface BundleOptions {
  /** The entry as given (relative to cwd); undefined: src/index.ts, else package.json's main (findEntry). */
  entry?: string | undefined;
  /** The file to write, as given (relative to cwd). */
  out: string;
  cwd: string;
  minify?: boolean | undefined;
}

export interface BundleResult {
  /** The file written, as it was given. */
  file: string;
  bytes: number;
  /** The entry bundled, relative to cwd. */
  entry: string;
  mode: number;
  /** How a runtime starts it from its plugin directory; undefined when the file is not named NN-name. */
  plugin: { index: string; name: string } | undefined;
}

/** Finds the entry, bundles it, and writes the file (atomically, mode 0755). */
export async function bundlePlugin(opts: BundleOptions): Promise<BundleResult> {
  const entry = findEntry(opts.cwd, opts.entry);
  const bytes = await build({ entry, outFile: path.resolve(opts.cwd, opts.out), cwd: opts.cwd, minify: opts.minify });
  return {
    file: opts.out,
    bytes,
    entry: path.relative(opts.cwd, entry) || entry,
    mode: BUNDLE_MODE,
    plugin: runtimeName(path.basename(opts.out)),
  };
}

function runtimeName(basename: string): { index: string; name: string } | undefined {
  try {
    return parsePluginName(basename);
  } catch {
    return undefined;
  }
}

/** Bundles `entry` into `outFile`; resolves with the bytes written. */
async function build(opts: {
  entry: string;
  outFile: string;
  cwd: string;
  minify?: boolean | undefined;
}): Promise<number> {
  const esbuild = await import('esbuild');
  let result;
  try {
    result = await esbuild.build({
      entryPoints: [opts.entry],
      absWorkingDir: opts.cwd,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      minify: opts.minify ?? false,
      legalComments: 'eof',
      logLevel: 'silent',
      outfile: opts.outFile,
    });
  } catch (err) {
    const failure = err as {
      errors?: Array<{ text: string; location?: { file: string; line: number; column: number } | null }>;
    };
    const first = failure.errors?.[0];
    if (first === undefined) throw err;
    const at = first.location ? `${first.location.file}:${first.location.line}:${first.location.column}: ` : '';
    const more = failure.errors!.length > 1 ? ` (and ${failure.errors!.length - 1} more)` : '';
    throw new BundleError(
      `could not bundle ${path.relative(opts.cwd, opts.entry) || opts.entry}: ${at}${first.text}${more}`,
      'build',
      { cause: err },
    );
  }
  const js =
    result.outputFiles.find((f) => f.path.endsWith(path.basename(opts.outFile)) && !f.path.endsWith('.map')) ??
    result.outputFiles[0];
  // esbuild keeps an entry's own #! line; ours must be the only one, and the first.
  const body = js.text.replace(/^#![^\n]*\n/, '');
  const content = PRELUDE + body;
  try {
    await mkdir(path.dirname(opts.outFile), { recursive: true });
    await writeFileAtomic(opts.outFile, content, { mode: BUNDLE_MODE });
  } catch (err) {
    // AtomicWriteError already names the file and what was left.
    const message =
      err instanceof Error && err.message.includes(opts.outFile)
        ? err.message
        : `could not write ${opts.outFile}: ${(err as Error).message}`;
    throw new BundleError(message, 'write', { cause: err });
  }
  return Buffer.byteLength(content);
}

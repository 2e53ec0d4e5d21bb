// What a differential fixture (test/fixtures/go-reference/*.json) holds: one case run
// under the Go NRI adaptation (refrt on containerd/nri pkg/adaptation, with the NRI
// sample plugins), as refrt printed it. Go's protojson (proto field names, 64-bit
// numbers as strings) is kept verbatim; nri-json.ts reads it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type GoJson = Record<string, unknown>;

export interface FixturePlugin {
  index: string;
  name: string;
  /** The sample plugin it ran (containerd/nri plugins/<sample>). */
  sample: string;
  /** Its drop-in configuration, as written to NN-name.conf (the recorder adds a logFile). */
  config?: string;
}

export interface FixtureContainer {
  id: string;
  name: string;
  args?: string[];
  env?: string[];
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
}

/** One plugin's answer to CreateContainer, in call order. */
export interface GoCall {
  /** The runtime's name for it: NN-name. */
  plugin: string;
  /** Its adjustment (refrt -v plugin_adjustment), absent when the call failed. */
  adjust?: GoJson;
  /** The call failed: the plugin answered with an error. */
  failed?: boolean;
}

export interface GoCreate {
  container: string;
  calls: GoCall[];
  ok: boolean;
  /** The adaptation's error, as the runtime got it. */
  error?: string;
  /** The merged result (refrt create_adjustment). */
  adjust?: GoJson;
  update?: GoJson[];
  evict?: GoJson[];
  /** The container a logging plugin was handed, from its log (plugin -> container). */
  seen?: Record<string, GoJson>;
}

export interface GoFixture {
  case: string;
  about: string;
  recorded: { date: string; nri: string; refrt: string; commands: string[] };
  plugins: FixturePlugin[];
  pod: { id: string; name: string; uid: string; namespace: string; annotations: Record<string, string> };
  containers: FixtureContainer[];
  go: { creates: GoCreate[]; containers: GoJson[] };
}

export const GO_REFERENCE_FIXTURES = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'fixtures',
  'go-reference',
);

export function loadGoFixtures(): GoFixture[] {
  return readdirSync(GO_REFERENCE_FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(GO_REFERENCE_FIXTURES, f), 'utf8')) as GoFixture);
}

/** The runtime's name of a fixture plugin. */
export const pluginId = (p: FixturePlugin): string => `${p.index}-${p.name}`;

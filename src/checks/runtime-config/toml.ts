// smol-toml, loaded (its CommonJS build) on the first runtime configuration read: the
// checks layer is imported by commands that never read one (sim, for the plugin
// directory's rules), and each paid for loading the TOML parser.
import { createRequire } from 'node:module';

type SmolToml = typeof import('smol-toml');
let toml: SmolToml | undefined;

export function loadToml(): SmolToml {
  toml ??= createRequire(import.meta.url)('smol-toml') as SmolToml;
  return toml;
}

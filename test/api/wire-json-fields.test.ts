// src/api/gen/nri-json-fields.js is generated from nri.proto (scripts/gen-proto.mjs) and
// checked in: it must be what the script makes of the .proto now, or JSON would be written
// from a schema the bindings no longer have.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the field table of nri.proto', () => {
  it('is what scripts/gen-proto.mjs writes from src/api/nri.proto now', () => {
    const made = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { jsonFieldsModule } from './scripts/proto-json-fields.mjs'; process.stdout.write(jsonFieldsModule('src/api/nri.proto'));",
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(made.stderr).toBe('');
    expect(made.stdout).toContain('"Container": [[1,"id","","string"]');
    expect(made.stdout).toBe(readFileSync(join(root, 'src/api/gen/nri-json-fields.js'), 'utf8'));
  });
});

#!/usr/bin/env node
// The last step of the SDK's line of `npm run build` (scripts/build.mjs), after tsc:
// tsc's output of the commands, the not-found hook and src/cli/oclif.ts would load a
// second, unbundled oclif; package.json's oclif settings name dist/cli.cjs instead
// (scripts/bundle-cli.mjs). Its code-cache.js is dist/code-cache.cjs's source, which
// nothing else imports. dist/src keeps what plugin authors import (nrictl/plugin,
// nrictl/ttrpc) and what that imports.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
rmSync(join(dist, 'commands'), { recursive: true, force: true });
rmSync(join(dist, 'src', 'cli', 'hooks'), { recursive: true, force: true });
for (const f of ['oclif.js', 'oclif.d.ts', 'code-cache.js', 'code-cache.d.ts'])
  rmSync(join(dist, 'src', 'cli', f), { force: true });

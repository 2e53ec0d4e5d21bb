// tsc compiles only TypeScript; the protobufjs static modules under src/api/gen (NRI)
// and src/cri/gen (CRI) are JavaScript, so they are copied next to the compiled files
// that import them.
import { cpSync, existsSync } from 'node:fs';

for (const from of ['src/api/gen', 'src/cri/gen'])
  if (existsSync(from)) cpSync(from, `dist/${from}`, { recursive: true });

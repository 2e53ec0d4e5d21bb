// tsc compiles only TypeScript; the protobufjs static module under src/api/gen is
// JavaScript, so it is copied next to the compiled files that import it.
import { cpSync, existsSync } from 'node:fs';

const from = 'src/api/gen';
if (existsSync(from)) cpSync(from, 'dist/src/api/gen', { recursive: true });

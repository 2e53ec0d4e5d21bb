// The `setter` plugin of the differential checks (./setter/main.go): not an NRI sample,
// so the nri-go-reference build does not make it. It is built here, against that
// build's GOPATH and Go cache (a couple of seconds), into the reference's build folder.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GoReference } from '../reference.js';

const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'setter', 'main.go');
/** The Go the reference was built with (its build.sh picks the same). */
const GO = process.env.GO ?? '/usr/lib/go-1.23/bin/go';
const GOCODE = process.env.GOCODE ?? '/usr/share/gocode/src';

/** The setter binary, built when missing or older than its source. */
export function setterPlugin(ref: GoReference): string {
  const work = path.join(ref.dir, 'build');
  const out = path.join(work, 'diff-setter', 'setter');
  if (existsSync(out) && statSync(out).mtimeMs >= statSync(SOURCE).mtimeMs) return out;
  mkdirSync(path.dirname(out), { recursive: true });
  execFileSync(GO, ['build', '-trimpath', '-o', out, SOURCE], {
    cwd: path.dirname(SOURCE),
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 300_000,
    env: {
      ...process.env,
      GO111MODULE: 'off',
      GOPROXY: 'off',
      GOFLAGS: '',
      GOTOOLCHAIN: 'local',
      CGO_ENABLED: '0',
      GOCACHE: path.join(work, 'gocache'),
      GOPATH: [path.join(work, 'gopath'), path.join(work, 'extra'), path.dirname(GOCODE)].join(':'),
    },
  });
  return out;
}

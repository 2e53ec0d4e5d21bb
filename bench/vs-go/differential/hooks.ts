// The hook-injector reads OCI hook files from /etc/containers/oci/hooks.d (and
// /usr/share/containers/oci/hooks.d), fixed paths. The cases that use it need exactly
// the hook files kept in test/fixtures/go-reference/hooks.d installed there.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { GO_REFERENCE_FIXTURES } from '../../../test/runtime/differential/fixture.js';

export const HOOKS_DIR = '/etc/containers/oci/hooks.d';
export const FIXTURE_HOOKS = path.join(GO_REFERENCE_FIXTURES, 'hooks.d');

/** Undefined when HOOKS_DIR holds exactly the fixture's hook files; else what to do. */
export function hooksMissing(): string | undefined {
  const want = readdirSync(FIXTURE_HOOKS).sort();
  const have = existsSync(HOOKS_DIR) ? readdirSync(HOOKS_DIR).sort() : [];
  const same =
    want.length === have.length &&
    want.every(
      (f, i) =>
        f === have[i] &&
        readFileSync(path.join(FIXTURE_HOOKS, f), 'utf8') === readFileSync(path.join(HOOKS_DIR, f), 'utf8'),
    );
  return same
    ? undefined
    : `${HOOKS_DIR} must hold exactly the files of ${FIXTURE_HOOKS} (as root: mkdir -p ${HOOKS_DIR} && cp ${FIXTURE_HOOKS}/*.json ${HOOKS_DIR}/)`;
}

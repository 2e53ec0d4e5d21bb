// Where the Go NRI reference (refrt on containerd/nri's pkg/adaptation, and the NRI
// sample plugins) is: the directory named by NRI_GO_REFERENCE, as built by the
// nri-go-reference tool kept beside this repository (../shared/tools/nri-go-reference).
// Nothing of it is in the repository; the benches comparing with Go need it built.
import { existsSync } from 'node:fs';
import path from 'node:path';

export const REFERENCE_ENV = 'NRI_GO_REFERENCE';

export interface GoReference {
  dir: string;
  refrt: string;
  /** A v0.12 sample plugin by its file name in bin/, e.g. 'template'. */
  plugin(name: string): string;
  /** The 1,000-pod / 5,000-container scenario build.sh generates. */
  largeScenario: string;
}

const HOW_TO_BUILD = `The Go NRI reference is not built (or ${REFERENCE_ENV} does not point at it).
Build it with the nri-go-reference tool (../shared/tools/nri-go-reference, see its README):
  1. local bare mirrors of containerd/nri and containerd/containerd in
     MIRROR_DIR/containerd+nri/repo and MIRROR_DIR/containerd+containerd/repo
  2. as root, once per machine:   ../shared/tools/nri-go-reference/setup.sh
  3. ../shared/tools/nri-go-reference/build.sh MIRROR_DIR OUT_DIR     (about two minutes, offline)
then run with ${REFERENCE_ENV}=OUT_DIR, e.g.  ${REFERENCE_ENV}=OUT_DIR npm run bench:go`;

/** The reference, or why it cannot be used. */
export function findGoReference(env: NodeJS.ProcessEnv = process.env): GoReference | { missing: string } {
  const dir = env[REFERENCE_ENV];
  if (!dir) return { missing: `${REFERENCE_ENV} is not set` };
  const ref: GoReference = {
    dir,
    refrt: path.join(dir, 'bin', 'refrt'),
    plugin: (name) => path.join(dir, 'bin', name),
    largeScenario: path.join(dir, 'examples', 'scenario-large.json'),
  };
  for (const f of [ref.refrt, ref.plugin('template')]) if (!existsSync(f)) return { missing: `${f} does not exist` };
  return ref;
}

/** For `npm run bench:go`: the reference, or how to build it and exit 1 (no stack trace). */
export function requireGoReference(): GoReference {
  const ref = findGoReference();
  if ('missing' in ref) {
    process.stderr.write(`${ref.missing}.\n${HOW_TO_BUILD}\n`);
    process.exit(1);
  }
  return ref;
}

/** For a bench in `npm run bench`'s default set: the reference, or a one-line note and exit 0. */
export function goReferenceOrSkip(bench: string): GoReference {
  const ref = findGoReference();
  if ('missing' in ref) {
    console.log(`${bench}: skipped, no Go NRI reference (${ref.missing}; \`npm run bench:go\` says how to build it)`);
    process.exit(0);
  }
  return ref;
}

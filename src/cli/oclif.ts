// The oclif that bin/run.js starts. scripts/bundle-cli.mjs bundles it with the commands,
// so that they and it share one copy of @oclif/core. Our help class rides along
// (package.json oclif.helpClass names it here), loaded with it.
export { execute } from '@oclif/core/execute';
// oclif's run without execute's ending (its handler prints and calls process.exit): for a
// process that runs commands and goes on, such as the tests' worker (test/support/cli-in-process.ts).
export { run } from '@oclif/core/run';
export { NrictlHelp } from './help.js';

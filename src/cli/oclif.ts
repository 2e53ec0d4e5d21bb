// The oclif that bin/run.js starts. scripts/bundle-cli.mjs bundles it with the commands,
// so that they and it share one copy of @oclif/core. Our help class rides along
// (package.json oclif.helpClass names it here), loaded with it.
export { execute } from '@oclif/core/execute';
export { NrictlHelp } from './help.js';

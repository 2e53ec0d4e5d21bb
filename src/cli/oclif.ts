// The oclif that bin/run.js starts. scripts/bundle-cli.mjs bundles it with the commands,
// so that they and it share one copy of @oclif/core.
export { execute } from '@oclif/core/execute';

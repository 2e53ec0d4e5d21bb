// Commands that are oclif's own, served as ours only so that the build bundles them with
// our oclif (commands/help.ts): the man pages and the README's tour document nrictl's
// commands, not these, as before when they came from an oclif plugin.
export const OCLIF_OWN_COMMANDS = new Set(['help']);

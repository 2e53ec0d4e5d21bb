// Start-up work of oclif that --version and every help page paid for nothing, changed in
// the bundled copy only (scripts/bundle-cli.mjs), each change computing what oclif's own
// code computes for the inputs it gets here:
// - the first String#localeCompare builds ICU's collator (63M instructions, 13% of a
//   whole `node -e 0`) to sort each plugin's commands;
// - minimatch compiles package.json's plugin names against every dependency (25M);
// - help compiles every text it shows as an ejs template, also those without a tag (11M
//   for `validate --help`);
// - every command (it imports @oclif/core's index) loads and initialises semver, some 40
//   regular expressions and a range parser, to compare the Node version with
//   package.json's `engines.node` (~1.5 ms);
// - tinyglobby, lilconfig, minimatch and cli-spinners are loaded and initialised at
//   start-up though used only without a manifest, for an rc file, for a glob plugin
//   name or for a spinner: they load on first use instead (23M together).
// Each `find` must appear exactly once, so an oclif upgrade that moves one fails the
// build instead of silently dropping the change. test/scripts/oclif-patches.test.ts
// holds the replacements to what they replace.

/**
 * oclif sorts each plugin's commands with a.id.localeCompare(b.id). Ids of lowercase
 * letters, digits, '-' and ':' sort under ICU's root collation as they do by code unit
 * once ':' is put between '-' and '0' (ICU: '-' < ':' < digits < letters); other ids
 * still go to localeCompare. (Locales with their own contractions, such as Danish "aa",
 * would order such ids differently; command ids are not words.)
 */
export function compareCommandIds(a, b) {
  const plain = /^[a-z0-9:-]*$/;
  if (!plain.test(a) || !plain.test(b)) return a.localeCompare(b);
  const x = a.replaceAll(':', '.');
  const y = b.replaceAll(':', '.');
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Whether a package.json plugin pattern has a glob character (npm package names have none). */
export const GLOB_CHARACTER = /[*?[\]{}()!+\\]/;

/**
 * semver.satisfies(version, range) for what oclif's engine check gets here: a Node version
 * X.Y.Z (process.versions.node) and a range `>=X.Y.Z` (package.json's engines.node).
 * Anything else, a pre-release version or another kind of range, goes to semver, which
 * `loadSemver` requires then.
 */
export function nodeSatisfies(version, range, loadSemver) {
  const want = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(String(range).trim());
  const have = /^(\d+)\.(\d+)\.(\d+)$/.exec(String(version));
  if (!want || !have) return loadSemver().satisfies(version, range);
  for (let i = 1; i <= 3; i++) {
    if (Number(have[i]) !== Number(want[i])) return Number(have[i]) > Number(want[i]);
  }
  return true;
}

/** A module object that requires the module on first property access. */
export function lazyModule(load) {
  let loaded;
  const get = () => (loaded ??= load());
  return new Proxy({}, { get: (_, key) => get()[key], has: (_, key) => key in get() });
}

const LAZY = `\nfunction __nrictlLazy(load) { return (${lazyModule.toString()})(load); }\n`;
const lazy = (file, statement) => ({
  file,
  find: statement,
  replace: statement.replace(/= (.*);$/, '= __nrictlLazy(() => $1);'),
  append: LAZY,
});

export const OCLIF_PATCHES = [
  {
    file: 'node_modules/@oclif/core/lib/config/plugin.js',
    find: '.sort((a, b) => a.id.localeCompare(b.id));',
    replace: '.sort((a, b) => __nrictlCompareIds(a.id, b.id));',
    append: `\nconst __nrictlCompareIds = ${compareCommandIds.toString()};\n`,
  },
  {
    file: 'node_modules/@oclif/core/lib/config/plugin-loader.js',
    // A pattern without a glob character matches only the name it spells.
    find: '(0, minimatch_1.minimatch)(p, w)',
    replace: `(${GLOB_CHARACTER}.test(w) ? (0, minimatch_1.minimatch)(p, w) : p === w)`,
  },
  {
    file: 'node_modules/@oclif/core/lib/help/util.js',
    // Help renders every summary, description, flag and example through ejs, which
    // compiles each into a function; every ejs tag holds a '%', so text without one
    // renders as itself.
    find: 'return ejs_1.default.render(t, context);',
    replace: "return typeof t === 'string' && !t.includes('%') ? t : ejs_1.default.render(t, context);",
  },
  {
    file: 'node_modules/@oclif/core/lib/index.js',
    find: "const semver = require('semver');",
    replace: "const semver = { satisfies: (v, r) => __nrictlNodeSatisfies(v, r, () => require('semver')) };",
    // A function declaration: the check runs while index.js loads, before a const
    // appended after it would be initialised.
    append: `\n${nodeSatisfies.toString().replace('function nodeSatisfies(', 'function __nrictlNodeSatisfies(')}\n`,
  },
  lazy('node_modules/@oclif/core/lib/config/plugin.js', 'const tinyglobby_1 = require("tinyglobby");'),
  lazy('node_modules/@oclif/core/lib/config/plugin-loader.js', 'const minimatch_1 = require("minimatch");'),
  lazy('node_modules/@oclif/core/lib/util/read-pjson.js', 'const lilconfig_1 = require("lilconfig");'),
  lazy(
    'node_modules/@oclif/core/lib/ux/action/spinner.js',
    'const cli_spinners_1 = __importDefault(require("cli-spinners"));',
  ),
];

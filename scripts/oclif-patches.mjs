// Two calls in oclif's plugin loading cost more start-up than any of its files: the first
// String#localeCompare builds ICU's collator (~13% of a whole `node -e 0`, counted in
// instructions), and minimatch compiles each of package.json's plugin names against
// each dependency (~5%). scripts/bundle-cli.mjs replaces both, in the bundled copy
// only, by what they compute for the inputs oclif gives them here; anything else still
// takes oclif's own way. Each `find` must appear exactly once, so an oclif upgrade that
// moves it fails the build instead of silently dropping the change.
// test/scripts/oclif-patches.test.ts holds the two replacements to what they replace.

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
];

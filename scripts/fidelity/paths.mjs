// Results kept in the repository carry no path of the machine they were measured on: the
// kit's output directory, the checkout, the temporary and home directories become names
// ($NRI_REAL_OUT, <repo>, <tmp>, ~), and any other absolute path outside the system's
// own directories becomes <path>. Socket paths under the kit keep their shape
// ($NRI_REAL_OUT/crio/run/crio.sock), which is what a reader of the kit's README knows.

// Directories that are the same on every machine: a path under them says something.
const SYSTEM = /^\/(?:etc|dev|proc|sys|usr|bin|sbin|lib|lib64|opt|var\/run\/nri|run\/nri)\//;

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A function that strips machine paths from a string. `roots` maps a directory to the name
 * it becomes; longer directories are replaced first, so a checkout under the home
 * directory becomes <repo>, not ~/....
 */
export function pathStripper(roots) {
  const known = Object.entries(roots)
    .filter(([dir]) => dir && dir !== '/')
    .map(([dir, name]) => [dir.replace(/\/+$/, ''), name])
    .sort((a, b) => b[0].length - a[0].length);
  return (text) => {
    let out = text;
    // A directory is replaced only whole: $NRI_REAL_OUT, not the start of $NRI_REAL_OUT-2.
    for (const [dir, name] of known) out = out.replace(new RegExp(`${escape(dir)}(?![\\w.-])`, 'g'), () => name);
    // Whatever absolute path is left: a path begins after a space, quote, bracket, "=" or ":" or at the start.
    return out.replace(/(^|[\s"'(=:[])(\/[^\s"'),\]]+)/g, (whole, before, path) =>
      SYSTEM.test(path) || !/^\/[^/]+\/./.test(path) ? whole : `${before}<path>`,
    );
  };
}

/** Every string in a JSON value, stripped; the shape is kept. */
export function stripPaths(value, strip) {
  if (typeof value === 'string') return strip(value);
  if (Array.isArray(value)) return value.map((v) => stripPaths(v, strip));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stripPaths(v, strip)]));
  return value;
}

#!/usr/bin/env node
// Keeps package.json's "man" field equal to the pages in man/, so that
// `npm install -g` installs every page (npm installs only what "man" lists: a
// "directories.man" entry is ignored when installing from a tarball, checked with npm 11).
//
//   node scripts/man-field.mjs            rewrite the "man" field if it differs
//   node scripts/man-field.mjs --check    exit 1 if it differs
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';

const check = process.argv.includes('--check');
const pkgText = readFileSync('package.json', 'utf8');
const pkg = JSON.parse(pkgText);
const bin = Object.keys(pkg.bin ?? {})[0] ?? pkg.name;
// The overview page first, then one per command in name order.
const pages = readdirSync('man')
  .filter((f) => /\.[1-9]$/.test(f))
  .sort((a, b) => (a === `${bin}.1` ? -1 : b === `${bin}.1` ? 1 : a < b ? -1 : a > b ? 1 : 0))
  .map((f) => `./man/${f}`);
const same = JSON.stringify(pkg.man ?? []) === JSON.stringify(pages);
if (same) process.exit(0);
if (check) {
  process.stderr.write(
    `package.json "man" does not list the pages in man/; run \`node scripts/man-field.mjs\`:\n  has    ${JSON.stringify(pkg.man ?? [])}\n  wants  ${JSON.stringify(pages)}\n`,
  );
  process.exit(1);
}
// Re-read right before writing: other edits to package.json must survive.
const fresh = JSON.parse(readFileSync('package.json', 'utf8'));
const out = {};
for (const [k, v] of Object.entries(fresh)) {
  if (k === 'man') continue;
  out[k] = v;
  if (k === 'files') out.man = pages;
}
if (!('man' in out)) out.man = pages;
writeFileSync('package.json', `${JSON.stringify(out, null, 2)}\n`);
process.stderr.write(`package.json "man": ${pages.length} pages\n`);

// The calls of oclif's start-up that scripts/bundle-cli.mjs replaces in the
// bundled copy (see scripts/oclif-patches.mjs) must compute what oclif's own calls do.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import * as patches from '../../scripts/oclif-patches.mjs';

const { compareCommandIds, GLOB_CHARACTER, OCLIF_PATCHES, lazyModule, nodeSatisfies } = patches as {
  compareCommandIds: (a: string, b: string) => number;
  nodeSatisfies: (version: string, range: string, loadSemver: () => Semver) => boolean;
  GLOB_CHARACTER: RegExp;
  OCLIF_PATCHES: Array<{ file: string; find: string; replace: string }>;
  lazyModule: <T extends object>(load: () => T) => T;
};

// oclif's own minimatch and semver, the ones the patches stand in for.
const oclifRequire = createRequire(createRequire(import.meta.url).resolve('@oclif/core'));
const { minimatch } = oclifRequire('minimatch') as { minimatch: (name: string, pattern: string) => boolean };
interface Semver {
  satisfies(version: string, range: string): boolean;
}
const semver = oclifRequire('semver') as Semver;

// What command ids are made of (ids of our commands and of oclif's plugins), plus the
// characters where code-unit order and ICU's disagree (':' against digits).
const idChar = fc.constantFrom(...'abcdehlmopsuz019:-');
const id = fc.string({ unit: idChar, maxLength: 8 });

describe('the command order (localeCompare in oclif)', () => {
  it('orders ids of letters, digits, - and : as localeCompare does', () => {
    fc.assert(
      fc.property(id, id, (a, b) => Math.sign(compareCommandIds(a, b)) === Math.sign(a.localeCompare(b))),
      { numRuns: 5000 },
    );
  });

  it('sorts the real command ids as oclif did', () => {
    const manifests = [
      'oclif.manifest.json',
      'node_modules/@oclif/plugin-help/oclif.manifest.json',
      'node_modules/@oclif/plugin-autocomplete/oclif.manifest.json',
    ];
    for (const m of manifests) {
      const ids = Object.keys((JSON.parse(readFileSync(m, 'utf8')) as { commands: Record<string, unknown> }).commands);
      expect([...ids].sort(compareCommandIds), m).toEqual([...ids].sort((a, b) => a.localeCompare(b)));
    }
  });

  it('leaves other ids to localeCompare', () => {
    expect(Math.sign(compareCommandIds('Zeta', 'alpha'))).toBe(Math.sign('Zeta'.localeCompare('alpha')));
    expect(Math.sign(compareCommandIds('a_b', 'a-b'))).toBe(Math.sign('a_b'.localeCompare('a-b')));
  });
});

describe('the plugin match (minimatch in oclif)', () => {
  const npmName = fc
    .tuple(
      fc.option(fc.stringMatching(/^[a-z0-9][a-z0-9._~-]{0,6}$/), { nil: undefined }),
      fc.stringMatching(/^[a-z0-9][a-z0-9._~-]{0,8}$/),
    )
    .map(([scope, name]) => (scope === undefined ? name : `@${scope}/${name}`));

  it('a pattern without a glob character matches exactly the name it spells, as minimatch does', () => {
    fc.assert(
      fc.property(npmName, npmName, (dep, pattern) => {
        expect(GLOB_CHARACTER.test(pattern)).toBe(false);
        expect(dep === pattern).toBe(minimatch(dep, pattern));
        expect(minimatch(pattern, pattern)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('a pattern with one still goes to minimatch', () => {
    for (const p of ['@oclif/plugin-*', 'plugin-?', '@oclif/{a,b}', '!x']) expect(GLOB_CHARACTER.test(p), p).toBe(true);
  });
});

describe('help texts through ejs', () => {
  const ejs = oclifRequire('ejs') as { render(t: string, data: object): string };
  const context = { config: { bin: 'nrictl' }, command: { id: 'validate' } };

  it('a text without % renders as itself, as the patch returns it', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ab <>-_=#\n\t"\'\\`$'), maxLength: 40 }), (t) => {
        expect(ejs.render(t, context)).toBe(t);
      }),
      { numRuns: 3000 },
    );
  });

  it('a text with a tag still goes to ejs', () => {
    expect(ejs.render('<%= config.bin %> <%= command.id %>', context)).toBe('nrictl validate');
  });
});

describe("the engine check (semver in oclif's index)", () => {
  const part = fc.integer({ min: 0, max: 30 });
  const triple = fc.tuple(part, part, part).map((p) => p.join('.'));

  it('compares X.Y.Z with >=X.Y.Z as semver.satisfies does, without loading semver', () => {
    const noSemver = (): Semver => {
      throw new Error('semver loaded');
    };
    fc.assert(
      fc.property(triple, triple, fc.constantFrom('>=', '>= '), (version, floor, op) => {
        expect(nodeSatisfies(version, op + floor, noSemver)).toBe(semver.satisfies(version, op + floor));
      }),
      { numRuns: 5000 },
    );
    expect(nodeSatisfies(process.versions.node, '>=20.12.0', noSemver)).toBe(true);
  });

  it('leaves other versions and ranges to semver', () => {
    for (const [version, range] of [
      ['20.12.0-pre', '>=20.12.0'],
      ['20.20.2', '^20.12.0'],
      ['18.19.0', '>=18 <19'],
      ['22.1.0', '>=20.12.0 || >=22'],
    ]) {
      let loaded = 0;
      const load = () => (loaded++, semver);
      expect(nodeSatisfies(version, range, load), `${version} ${range}`).toBe(semver.satisfies(version, range));
      expect(loaded).toBe(1);
    }
  });
});

describe('modules required on first use (lazyModule)', () => {
  it('requires nothing until a property is read, then once, and gives what the module has', () => {
    let loads = 0;
    const real = { glob: () => 'globbed', __esModule: true, default: { dots2: { frames: ['a'] } } };
    const mod = lazyModule(() => (loads++, real));
    expect(loads).toBe(0);
    expect(mod.glob()).toBe('globbed');
    expect('default' in mod).toBe(true);
    expect(mod.default.dots2.frames).toEqual(['a']);
    expect(mod.__esModule).toBe(true);
    expect(loads).toBe(1);
  });

  it('wraps a whole require statement, so the names oclif reads through stay the same', () => {
    const lazy = OCLIF_PATCHES.filter((p) => p.replace.includes('__nrictlLazy'));
    expect(lazy.length).toBeGreaterThan(0);
    for (const p of lazy) {
      const [, name, expr] = /^const (\w+) = (.*);$/.exec(p.find)!;
      expect(p.replace).toBe(`const ${name} = __nrictlLazy(() => ${expr});`);
    }
  });
});

it('each replaced text is still in the installed oclif, once (the build fails otherwise)', () => {
  for (const p of OCLIF_PATCHES) {
    const text = readFileSync(p.file, 'utf8');
    expect(text.split(p.find).length - 1, p.file).toBe(1);
  }
});

// Lint: typescript-eslint's type-checked recommendations on everything TypeScript, the
// plain recommendations on the build scripts; formatting is prettier's (npm run format).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'src/api/gen/', 'src/cri/gen/', 'examples/**/build/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts', 'examples/plugins-ts/*/*.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    rules: {
      // A decoder compares the numbers it reads off the wire with the protocol's numeric enums.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      // `async` without `await` is how an override or a handler says it returns a promise.
      '@typescript-eslint/require-await': 'off',
      // Deadlines and relays pass on whatever reason they were given (AbortSignal reasons are unknown).
      // String(x) on an unknown value is a deliberate conversion; objects typed as such are still checked.
      '@typescript-eslint/no-base-to-string': ['error', { checkUnknown: false }],
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  {
    // The entry point is CommonJS (bin/package.json): it starts without Node's ES module loader.
    files: ['bin/run.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests read the commands' JSON output and poke at private shapes: any is their daily bread,
    // and matching escape sequences in captured terminal output is what they are for.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      'no-control-regex': 'off',
    },
  },
  prettier,
);

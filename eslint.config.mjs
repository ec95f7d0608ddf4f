// Lint enforces the layering of DESIGN.md: src/core is pure (no vscode, no platform/features),
// src/platform may not reach into services or features, src/services not into features, and floating promises are errors everywhere.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'test-results/', '.vscode-test/', '.stratus-demo/', '**/*.js', '.dependency-cruiser.cjs', 'src/core/search/text/wasm/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The plain-JavaScript harness, scripts and benchmarks: type-aware too, through the configs
    // that type-check them (tsconfig.mjs.json, tsconfig.bench.json). `no-undef` is off because tsc
    // already reports an unknown name there, and knows Node's globals.
    files: ['**/*.mjs'],
    languageOptions: {
      sourceType: 'module',
      parserOptions: { project: ['./tsconfig.mjs.json', './tsconfig.bench.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      'no-undef': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { group: ['vscode'], message: 'src/core is pure: no vscode, not even types (DESIGN.md).' },
          { group: ['**/platform', '**/platform/**', '**/services', '**/services/**', '**/features', '**/features/**', '**/extension'], message: 'src/core may not import src/platform, src/services, src/features or the composition root.' },
        ],
      }],
    },
  },
  {
    files: ['src/mcp/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { group: ['vscode'], message: 'src/mcp runs in plain Node (dist/mcp.js): no vscode.' },
          { group: ['**/platform', '**/platform/**', '**/services', '**/services/**', '**/features', '**/features/**', '**/extension'], message: 'src/mcp may import only src/core.' },
        ],
      }],
    },
  },
  {
    files: ['src/platform/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['**/services', '**/services/**', '**/features', '**/features/**', '**/extension'], message: 'src/platform is a thin adapter layer: no services, no features.' }],
      }],
    },
  },
  {
    files: ['src/services/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['**/features', '**/features/**', '**/extension'], message: 'src/services are shared by features: they may not import one.' }],
      }],
    },
  },
);

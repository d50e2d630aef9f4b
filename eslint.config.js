import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dev-dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Layer boundaries (STYLE.md 1): the app never imports the server; workers stay free of React and features.
  {
    files: ['src/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/sync-server/**'], message: 'The app never imports server code.' }] }] },
  },
  {
    files: ['workers/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ['react', 'react-dom'], patterns: [{ group: ['**/src/features/**', '**/sync-server/**'], message: 'Workers use src/domain only.' }] },
      ],
    },
  },
  {
    files: ['src/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ['react', 'react-dom', 'rxdb'], patterns: [{ group: ['**/features/**', '**/db/**', '**/lib/**', '**/sync-server/**'], message: 'src/domain is pure: no UI, no I/O.' }] },
      ],
    },
  },
);

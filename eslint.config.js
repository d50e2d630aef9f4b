import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

/**
 * The layers of docs/architecture.md, enforced. Each zone says: files under `target` may not import
 * files under `from`. Read top to bottom: app → features → shared (components → db → lib → domain).
 */
const SHARED_MESSAGE =
  'Shared code (src/components, src/db, src/lib, src/domain) never imports a feature or the app: move what both need into shared code.';
const layerZones = [
  // The app and the server never meet; the browser code never imports Node code.
  { target: './src', from: './sync-server', message: 'The app never imports server code.' },
  {
    target: './sync-server',
    from: ['./src/app', './src/features', './src/components', './src/db', './src/lib', './workers'],
    message: 'The server shares only src/domain with the app.',
  },
  {
    target: './workers',
    from: ['./src/app', './src/features', './src/components', './src/db', './src/lib', './sync-server'],
    message: 'Workers use src/domain only.',
  },
  // Features sit under the app; shared code under the features.
  {
    target: './src/features',
    from: './src/app',
    message: 'A feature never imports the app (routes, providers, layout): the app imports features.',
  },
  {
    target: ['./src/components', './src/db', './src/lib', './src/domain'],
    from: ['./src/app', './src/features'],
    message: SHARED_MESSAGE,
  },
  // Within the shared code: components (UI) → db (local data) → lib (session, utilities) → domain (pure rules).
  {
    target: ['./src/db', './src/lib', './src/domain'],
    from: './src/components',
    message: 'src/db, src/lib and src/domain never import UI components.',
  },
  {
    target: ['./src/lib', './src/domain'],
    from: './src/db',
    message: 'src/lib and src/domain never import the local database (src/db).',
  },
  {
    target: './src/domain',
    from: ['./src/lib', './src/styles', './workers'],
    message: 'src/domain is pure: no UI, no I/O.',
  },
  // Only the recommendations client talks to the worker.
  {
    target: ['./src/app', './src/features', './src/components', './src/db'],
    from: './workers',
    message: 'Only src/lib/recommendations-client.ts talks to the worker.',
  },
];

/**
 * Features never import each other's internals: another feature is reached only through its public
 * `index.ts`. Built from the folders present, so a new feature is covered the moment it exists.
 */
const featuresDir = path.join(root, 'src/features');
const features = fs
  .readdirSync(featuresDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const featureZones = features.map((name) => ({
  target: `./src/features/${name}`,
  from: './src/features',
  except: [`./${name}`, ...features.filter((other) => other !== name).map((other) => `./${other}/index.ts`)],
  message: 'A feature imports another feature only through its index.ts (its public surface).',
}));

// graphql and z-schema are held at majors that run on the Node that launches npm (package.json
// overrides, docs/decisions/008): only these two RxDB plugins load them, and they need RxDB's own versions.
const pluginsOnHeldVersions = ['rxdb/plugins/replication-graphql', 'rxdb/plugins/validate-z-schema'].map((name) => ({
  name,
  message: 'Needs graphql 17 / z-schema 12; drop the overrides in package.json first (docs/decisions/008).',
}));

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dev-dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      '.data/**',
      '.tsbuild/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      // Imports name their files with extensions (.ts, .tsx); the rules follow them into TypeScript files.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...layerZones, ...featureZones] }],
      // Type-only imports are erased, so they cannot form a runtime cycle; dynamic import() cycles count.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'no-restricted-imports': ['error', { paths: pluginsOnHeldVersions }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      'react-hooks/rules-of-hooks': 'error',
      // The one live-query hook takes a deps list like useEffect's: check it the same way.
      'react-hooks/exhaustive-deps': ['error', { additionalHooks: '(useLiveQuery)' }],
    },
  },
  // Packages a layer must not use (the file zones above cover the project's own folders).
  {
    files: ['workers/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...['react', 'react-dom'].map((name) => ({ name, message: 'Workers hold no React.' })),
            ...pluginsOnHeldVersions,
          ],
        },
      ],
    },
  },
  {
    files: ['src/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...['react', 'react-dom', 'rxdb', 'rxjs'].map((name) => ({
              name,
              message: 'src/domain is pure: no UI, no I/O.',
            })),
            ...pluginsOnHeldVersions,
          ],
        },
      ],
    },
  },
  {
    files: ['src/db/**', 'src/lib/**', 'src/domain/**'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'JSXElement', message: 'src/db, src/lib and src/domain hold no UI (JSX).' },
      ],
    },
  },
  // The local database and its sync stay readable in parts: no function of src/db over 80 lines of code.
  {
    files: ['src/db/**'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  // Layout is Prettier's (`npm run format`, checked by `npm test`): no lint rule argues with it.
  prettier,
  // What Prettier leaves long (strings, SQL, comments, URLs) is folded by hand past this width.
  {
    files: ['src/**', 'sync-server/**', 'workers/**'],
    rules: { 'max-len': ['error', { code: 160, ignoreUrls: true }] },
  },
);

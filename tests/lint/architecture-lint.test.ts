import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, test } from 'vitest';

/**
 * The project's own lint configuration, run on files that break the layers of docs/architecture.md
 * (and on files that keep them, so a rule that flags everything fails too). The files are linted as
 * text under a real path, so the rules resolve imports against the real tree.
 */
const root = path.resolve(import.meta.dirname, '../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function ruleIdsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('layer zones', { timeout: 60_000 }, () => {
  test('src/db importing a UI component fails', async () => {
    const ids = await ruleIdsFor(
      'src/db/lint-probe.ts',
      "import { PageHeader } from '../components/page-header.tsx';\nexport const probe = PageHeader;\n",
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  test('shared code importing a feature or the app fails', async () => {
    expect(
      await ruleIdsFor(
        'src/lib/lint-probe.ts',
        "import { useDeal } from '../features/deals/data/use-deal-data.ts';\nexport const probe = useDeal;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await ruleIdsFor(
        'src/components/lint-probe.ts',
        "import { routes } from '../app/routes.tsx';\nexport const probe = routes;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
  });

  test('a feature importing the app fails', async () => {
    const ids = await ruleIdsFor(
      'src/features/deals/lint-probe.ts',
      "import { RequireAuth } from '../../app/auth/guards.tsx';\nexport const probe = RequireAuth;\n",
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  test("a feature importing another feature's internals fails; its index.ts is allowed", async () => {
    const internal = await ruleIdsFor(
      'src/features/deals/lint-probe.ts',
      "import { updateProfile } from '../profiles/data/update-profile.ts';\nexport const probe = updateProfile;\n",
    );
    expect(internal).toContain('import-x/no-restricted-paths');
    const publicSurface = await ruleIdsFor(
      'src/features/deals/lint-probe.ts',
      "import { updateProfile } from '../profiles/index.ts';\nexport const probe = updateProfile;\n",
    );
    expect(publicSurface).toEqual([]);
  });

  test('a feature importing shared code passes', async () => {
    const code = [
      "import { useLiveQuery } from '../../db/hooks/use-live-query.ts';",
      "import { useAuth } from '../../lib/session/auth-context.ts';",
      "import { PageHeader } from '../../components/page-header.tsx';",
      "import { NICHES } from '../../domain/niches.ts';",
      'export const probe = [useLiveQuery, useAuth, PageHeader, NICHES];',
      '',
    ].join('\n');
    expect(await ruleIdsFor('src/features/deals/lint-probe.ts', code)).toEqual([]);
  });

  test('the server importing app code fails; src/domain is shared with it', async () => {
    expect(
      await ruleIdsFor(
        'sync-server/lint-probe.ts',
        "import { syncServerUrl } from '../src/lib/config.ts';\nexport const probe = syncServerUrl;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await ruleIdsFor(
        'sync-server/lint-probe.ts',
        "import { NICHES } from '../src/domain/niches.ts';\nexport const probe = NICHES;\n",
      ),
    ).toEqual([]);
  });

  test('src/domain importing rxdb or the local database fails', async () => {
    expect(
      await ruleIdsFor(
        'src/domain/lint-probe.ts',
        "import { createRxDatabase } from 'rxdb';\nexport const probe = createRxDatabase;\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor(
        'src/domain/lint-probe.ts',
        "import { prepareDocument } from '../db/prepare-document.ts';\nexport const probe = prepareDocument;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
  });

  test('a worker importing React fails', async () => {
    expect(
      await ruleIdsFor('workers/lint-probe.ts', "import { useState } from 'react';\nexport const probe = useState;\n"),
    ).toContain('no-restricted-imports');
  });
});

describe('cycles, hooks and accessibility', { timeout: 60_000 }, () => {
  test('an import cycle fails, a dynamic import() too (the old session-events loading the session module that imports it)', async () => {
    const code = [
      "import type { SessionManager } from './session-manager.ts';",
      'export function announceSessionManager(_manager: SessionManager): void {}',
      'export function loadSessionManager(): Promise<SessionManager> {',
      "  return import('./session.ts').then((m) => m.getSessionManager());",
      '}',
      '',
    ].join('\n');
    expect(await ruleIdsFor('src/lib/session/session-events.ts', code)).toContain('import-x/no-cycle');
  });

  test('a live query missing a dependency fails', async () => {
    const code = [
      "import { useLiveQuery } from '../../db/hooks/use-live-query.ts';",
      'export function useDealProbe(id: string) {',
      '  return useLiveQuery((db) => db.deals.findOne(id).$, []);',
      '}',
      '',
    ].join('\n');
    expect(await ruleIdsFor('src/features/deals/lint-probe.ts', code)).toContain('react-hooks/exhaustive-deps');
  });

  test('an image without alternative text fails', async () => {
    const ids = await ruleIdsFor(
      'src/components/lint-probe.tsx',
      'export function Probe() {\n  return <img src="/logo.png" />;\n}\n',
    );
    expect(ids).toContain('jsx-a11y/alt-text');
  });
});

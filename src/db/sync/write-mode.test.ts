import { expect, test } from 'vitest';
import { COLLECTION_NAMES, collectionSpecs } from '../../domain/collections/index.ts';
import { dependsOnRole, replicationIdentifier, replicationIdentifiers, waitsForRole, writeMode } from './write-mode.ts';

test('a creator replicates the deals pull-only; a brand and an admin push them', () => {
  expect(writeMode(collectionSpecs.deals, 'creator')).toBe('pull-only');
  expect(writeMode(collectionSpecs.deals, 'brand')).toBe('full');
  expect(writeMode(collectionSpecs.deals, 'admin')).toBe('full');
});

test('an unknown role keeps full replication: nothing the user may write is held back', () => {
  expect(writeMode(collectionSpecs.deals, undefined)).toBe('full');
  expect(dependsOnRole(collectionSpecs.deals)).toBe(true);
});

test('what every role writes stays full; what only the server writes is pull-only for everyone', () => {
  for (const role of ['creator', 'brand', 'admin'] as const) {
    expect(writeMode(collectionSpecs.applications, role)).toBe('full');
    expect(writeMode(collectionSpecs.profiles, role)).toBe('full');
    expect(writeMode(collectionSpecs.growth, role)).toBe('pull-only');
  }
  expect(dependsOnRole(collectionSpecs.growth)).toBe(false);
});

test('a pull-only-by-role replication has a name of its own; read-only and full ones keep theirs', () => {
  const url = 'https://sync.example';
  expect(replicationIdentifier('deals', url, 'full', collectionSpecs.deals)).toBe(`pacta-sync-v1-deals-${url}`);
  expect(replicationIdentifier('deals', url, 'pull-only', collectionSpecs.deals)).toBe(
    `pacta-sync-v1-deals-pull-only-${url}`,
  );
  expect(replicationIdentifier('growth', url, 'pull-only', collectionSpecs.growth)).toBe(`pacta-sync-v1-growth-${url}`);
  expect(replicationIdentifiers('deals', url, collectionSpecs.deals)).toHaveLength(2);
  expect(replicationIdentifiers('growth', url, collectionSpecs.growth)).toHaveLength(1);
});

test('a collection whose mode depends on the role waits for the server’s role, unless the claimed role writes it', () => {
  expect(waitsForRole(collectionSpecs.deals, true, undefined)).toBe(true);
  // A claimed creator is never a reason for pull-only: the deals still wait for the server's role.
  expect(waitsForRole(collectionSpecs.deals, true, 'creator')).toBe(true);
  expect(waitsForRole(collectionSpecs.deals, true, 'brand')).toBe(false);
  expect(waitsForRole(collectionSpecs.deals, false, undefined)).toBe(false);
  expect(waitsForRole(collectionSpecs.applications, true, undefined)).toBe(false);
  expect(waitsForRole(collectionSpecs.growth, true, undefined)).toBe(false);
});

test('what each role replicates pull-only: a creator the deals and growth, a brand and an admin growth only', () => {
  const pullOnly = (role: 'creator' | 'brand' | 'admin') =>
    COLLECTION_NAMES.filter((name) => writeMode(collectionSpecs[name], role) === 'pull-only');
  expect(pullOnly('creator')).toEqual(['deals', 'growth']);
  expect(pullOnly('brand')).toEqual(['growth']);
  expect(pullOnly('admin')).toEqual(['growth']);
});

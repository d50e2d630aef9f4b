import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createPactaDatabase, prepareDocument, type PactaDatabase } from '../../../db/index.ts';
import { savedListId } from '../../../domain/saved-lists.ts';
import { addToSavedList, removeFromSavedList } from './saved-list.ts';
import { ProfileEditError, updateProfile } from './update-profile.ts';

const userId = '0190f3a2-1111-7aaa-8bbb-123456789abc';
let db: PactaDatabase;

beforeEach(async () => {
  db = await createPactaDatabase({
    userId,
    storage: getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }),
    collections: ['profiles', 'saved_lists'],
    multiInstance: false,
  });
  await db.profiles.insert(prepareDocument('profiles', { id: userId, role: 'creator', full_name: 'Cora', version: 1 }));
});

afterEach(async () => {
  await db.remove();
});

test('a profile edit is written locally with only the edited fields changed', async () => {
  await updateProfile(db, userId, {
    full_name: '  Cora Creator ',
    bio: 'I film hikes.',
    niches: ['Travel', 'Outdoors'],
  });
  const doc = (await db.profiles.findOne(userId).exec())!.toJSON();
  expect(doc).toMatchObject({
    full_name: 'Cora Creator',
    bio: 'I film hikes.',
    niches: ['Travel', 'Outdoors'],
    role: 'creator',
    version: 1,
  });
});

test('invalid edits write nothing and say which field is wrong', async () => {
  const attempt = updateProfile(db, userId, { full_name: ' ', niches: [] });
  await expect(attempt).rejects.toBeInstanceOf(ProfileEditError);
  await expect(attempt).rejects.toMatchObject({ issues: [{ field: 'full_name' }, { field: 'niches' }] });
  await expect(updateProfile(db, userId, { niches: ['Knitting' as 'Art'] })).rejects.toBeInstanceOf(ProfileEditError);
  expect((await db.profiles.findOne(userId).exec())!.full_name).toBe('Cora');
});

test('a saved list is created under its derived id; empty and duplicate entries are not added', async () => {
  expect(await addToSavedList(db, userId, 'saved_campaigns', ' Summer launch ')).toBe(true);
  expect(await addToSavedList(db, userId, 'saved_campaigns', 'Summer launch')).toBe(false);
  expect(await addToSavedList(db, userId, 'saved_campaigns', '   ')).toBe(false);
  expect(await addToSavedList(db, userId, 'saved_campaigns', 'Winter')).toBe(true);
  const list = await db.saved_lists.findOne(savedListId(userId, 'saved_campaigns')).exec();
  expect(list?.items).toEqual(['Summer launch', 'Winter']);
  await removeFromSavedList(db, userId, 'saved_campaigns', 'Summer launch');
  expect((await db.saved_lists.findOne(savedListId(userId, 'saved_campaigns')).exec())?.items).toEqual(['Winter']);
});

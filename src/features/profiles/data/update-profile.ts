import { z } from 'zod';
import type { PactaDatabase } from '../../../db/index.ts';
import { prepareDocument } from '../../../db/index.ts';
import { NICHES } from '../../../domain/niches.ts';

/** What a user may edit on their own profile, with the database's limits. */
export const profileEdit = z
  .object({
    full_name: z
      .string()
      .trim()
      .min(1, 'Please enter your full name')
      .max(120, 'Full name must be at most 120 characters'),
    bio: z.string().max(2000, 'Bio must be at most 2000 characters'),
    niches: z
      .array(z.enum(NICHES))
      .min(1, 'Choose at least one niche')
      .max(NICHES.length)
      .refine((list) => new Set(list).size === list.length, 'Each niche can be chosen once'),
    social_links: z.record(z.string(), z.string()),
  })
  .partial();
export type ProfileEdit = z.infer<typeof profileEdit>;

export class ProfileEditError extends Error {
  constructor(readonly issues: { field: string; message: string }[]) {
    super(issues[0]?.message ?? 'Invalid profile');
    this.name = 'ProfileEditError';
  }
}

/**
 * Saves edits to the signed-in user's profile in the local database. It works offline: the change
 * waits in the sync queue and reaches the server later. Throws ProfileEditError for invalid input
 * (nothing written) and a plain Error when the profile is not on this device yet.
 */
export async function updateProfile(db: PactaDatabase, userId: string, edit: ProfileEdit): Promise<void> {
  const parsed = profileEdit.safeParse(edit);
  if (!parsed.success) {
    throw new ProfileEditError(
      parsed.error.issues.map((i) => ({ field: String(i.path[0] ?? ''), message: i.message })),
    );
  }
  const doc = await db.profiles.findOne(userId).exec();
  if (!doc) throw new Error('Profile not found');
  // The whole document must still match the shared schema after the edit.
  prepareDocument('profiles', { ...doc.toMutableJSON(), ...parsed.data });
  // A new edit clears a previous refusal, so the row is pushed again.
  await doc.incrementalPatch({ ...parsed.data, sync_rejection: null });
}

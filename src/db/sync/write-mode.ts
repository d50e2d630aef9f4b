import type { CollectionName, CollectionSpec, ProfileRole } from '../../domain/collections/index.ts';

/**
 * How a collection replicates on this device. `full`: pull and push; RxDB keeps the server's state of
 * every document beside it (its "assumed master", the base of a push). `pull-only`: nothing on this
 * device is ever sent, so RxDB stores no second copy of a pulled document (its `skipStoringPullMeta`).
 */
export type WriteMode = 'full' | 'pull-only';

/**
 * A collection is pull-only when nobody may push it (`readOnly`), or when the signed-in user's role is
 * not among the roles that may write it (`writableBy`). An unknown role is never taken as a reason:
 * a change the user could make must not be kept back from the server.
 */
export function writeMode(spec: CollectionSpec, role: ProfileRole | undefined): WriteMode {
  if (spec.readOnly) return 'pull-only';
  if (!spec.writableBy || role === undefined) return 'full';
  return spec.writableBy.includes(role) ? 'full' : 'pull-only';
}

/** The collection's mode depends on the user's role, so its replication waits until the role is known. */
export function dependsOnRole(spec: CollectionSpec): boolean {
  return !spec.readOnly && spec.writableBy !== undefined;
}

/**
 * Whether the collection's replication waits for the server's role before it starts: its mode depends
 * on the role, pull-only by role is asked for, and the role the user claims (`roleHint`, the sign-up
 * metadata) does not already let it start in full (full is never wrong, only slower; a claimed role is
 * never a reason for pull-only).
 */
export function waitsForRole(
  spec: CollectionSpec,
  pullOnlyByRole: boolean | undefined,
  roleHint: ProfileRole | undefined,
): boolean {
  return Boolean(pullOnlyByRole) && dependsOnRole(spec) && !(roleHint && writeMode(spec, roleHint) === 'full');
}

/**
 * The name RxDB keeps the collection's checkpoints and server states under. A collection that is
 * pull-only because of the role has a name of its own: its checkpoints were written without server
 * states, so a device whose mode changes (a creator made admin) starts that mode's feed afresh rather
 * than pushing documents it has no base for. Read-only collections keep the name they always had.
 */
export function replicationIdentifier(name: CollectionName, serverUrl: string, mode: WriteMode, spec: CollectionSpec) {
  const pullOnlyByRole = mode === 'pull-only' && !spec.readOnly;
  return `pacta-sync-v1-${name}${pullOnlyByRole ? '-pull-only' : ''}-${serverUrl}`;
}

/** Every name the collection's replication may have had on this device (either mode). */
export function replicationIdentifiers(name: CollectionName, serverUrl: string, spec: CollectionSpec): string[] {
  const names = [replicationIdentifier(name, serverUrl, 'full', spec)];
  if (dependsOnRole(spec)) names.push(replicationIdentifier(name, serverUrl, 'pull-only', spec));
  return names;
}

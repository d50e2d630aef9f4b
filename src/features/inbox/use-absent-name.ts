import { useSyncStatus } from '../../db/hooks/use-sync-status.ts';
import { absentPersonName } from './inbox-format.ts';

/** The name for a conversation's other person whose profile is not on the device (see absentPersonName). */
export function useAbsentName(): string {
  return absentPersonName(useSyncStatus().status?.initialSync.complete ?? false);
}

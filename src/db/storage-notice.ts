/**
 * RxDB's free Dexie storage prints a notice advertising its paid storages on the first write of every
 * page load. It is meant for the developer, says nothing a Pacta user can act on, and would be the
 * first thing anyone opening the console sees, so production builds leave exactly that one message
 * out. Every other warning still goes through; development builds keep the notice.
 */
const STORAGE_NOTICE = '-------------- RxDB Open Core RxStorage';

export function withoutStorageNotice(warn: (...args: unknown[]) => void): (...args: unknown[]) => void {
  return (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith(STORAGE_NOTICE)) return;
    warn(...args);
  };
}

import type { DealDocument } from '../../../domain/collections/index.ts';

/** How a deal's status reads on badges. */
export const DEAL_STATUS_TEXT: Record<DealDocument['status'], string> = {
  open: 'Open',
  in_progress: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

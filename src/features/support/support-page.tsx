import './support.css';
import { useAuth } from '../../lib/session/auth-context.ts';
import { useLocalData } from '../../db/hooks/use-database.ts';
import { PageLoading } from '../../components/page-loading.tsx';
import { MyTickets } from './my-tickets.tsx';
import { StaffQueue } from './staff-queue.tsx';
import { LocalDataError } from './support-error-panel.tsx';

/** /support: the signed-in user's tickets, or for staff (admins) the queue of the whole desk. */
export function SupportPage() {
  const auth = useAuth();
  const local = useLocalData();
  if (local.status === 'error') return <LocalDataError message={local.error} onRetry={local.retry} />;
  if (!local.db || !auth.user) return <PageLoading label="Loading support..." />;
  return auth.isAdmin ? <StaffQueue /> : <MyTickets userId={auth.user.id} isPro={auth.user.isPro} />;
}

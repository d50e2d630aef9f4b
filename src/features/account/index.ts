/**
 * The account tools: report a person or a deal, block a person, and Settings → Privacy's export,
 * blocked people and account deletion. Other features import from here only.
 */

export { PersonActions } from './person-actions.tsx';
export { ReportButton } from './report-button.tsx';
export { useBlockedPeople } from './data/use-blocked-people.ts';
export { DataExportCard } from './data-export-card.tsx';
export { BlockedPeopleCard } from './blocked-people-card.tsx';
export { DeleteAccountCard } from './delete-account-card.tsx';

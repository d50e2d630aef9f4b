import './account.css';
import { useState } from 'react';
import { ReportDialog, type ReportTarget } from './report-dialog.tsx';

/** A Report button that opens the report form for a person or a deal. */
export function ReportButton({
  about,
  className = 'button button-ghost',
}: {
  about: ReportTarget;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        Report{about.target === 'deal' ? ' deal' : ''}
      </button>
      {open ? <ReportDialog about={about} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

import type { ReactNode } from 'react';

/** One column of a ledger table: its header, and its cell for a row (a class or test id on the cell). */
export type LedgerColumn<Row> = { header: string; cell(row: Row): ReactNode; className?: string; testId?: string };

/**
 * The ledger page's tables (balances per deal, movements). On a phone each row stacks into a small
 * card of label–value lines (the header text as each cell's label) instead of scrolling sideways.
 */
export function LedgerTable<Row>({
  columns,
  rows,
  rowKey,
}: {
  columns: LedgerColumn<Row>[];
  rows: Row[];
  rowKey(row: Row): string | number;
}) {
  return (
    <div className="table-scroll">
      <table className="ledger-table ledger-table-stacks">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.className}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.header} className={c.className} data-label={c.header} data-testid={c.testId}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

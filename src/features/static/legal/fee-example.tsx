import { SERVICE_FEE_BP, dealPaymentSummary, formatRate, formatUsd } from '../../../domain/fees.ts';

/** A worked example of the fee schedule, computed by the fee module (never typed in by hand). */
export function FeeExample({ amountCents }: { amountCents: number }) {
  const free = dealPaymentSummary(amountCents, { creatorIsPro: false });
  const pro = dealPaymentSummary(amountCents, { creatorIsPro: true });
  return (
    <table className="table" data-testid="fee-example">
      <caption className="visually-hidden">Fees on a {formatUsd(amountCents, { compact: true })} deal</caption>
      <thead>
        <tr>
          <th scope="col">On a {formatUsd(amountCents, { compact: true })} deal</th>
          <th scope="col" className="num">
            Free creator
          </th>
          <th scope="col" className="num">
            Pro creator
          </th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">Brand's service fee ({formatRate(SERVICE_FEE_BP)})</th>
          <td className="num">{formatUsd(free.serviceFeeCents)}</td>
          <td className="num">{formatUsd(pro.serviceFeeCents)}</td>
        </tr>
        <tr>
          <th scope="row">Brand pays in total</th>
          <td className="num">{formatUsd(free.brandTotalCents)}</td>
          <td className="num">{formatUsd(pro.brandTotalCents)}</td>
        </tr>
        <tr>
          <th scope="row">Platform commission</th>
          <td className="num">
            {formatUsd(free.commissionCents)} ({formatRate(free.commissionBp)})
          </td>
          <td className="num">
            {formatUsd(pro.commissionCents)} ({formatRate(pro.commissionBp)})
          </td>
        </tr>
        <tr>
          <th scope="row">Creator receives</th>
          <td className="num">{formatUsd(free.creatorPayoutCents)}</td>
          <td className="num">{formatUsd(pro.creatorPayoutCents)}</td>
        </tr>
      </tbody>
    </table>
  );
}

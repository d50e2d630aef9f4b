/**
 * The billing feature's public surface: Pro checkout, Manage subscription, creator payouts and a
 * deal's payment panel (shown by the Pro pages, Settings and the deal pages), and its own pages.
 */
import './billing.css';

export { AdminLedgerPage } from './admin-ledger-page.tsx';
export { DealPaymentPanel } from './deal-payment-panel.tsx';
export { EarningsPage } from './earnings-page.tsx';
export { ManageSubscription } from './manage-subscription.tsx';
export { PayoutSetup } from './payout-setup.tsx';
export { ProSuccessPage } from './pro-success-page.tsx';
export { UpgradeButton } from './upgrade-button.tsx';

import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { FormField } from '../../components/form-field.tsx';
import { storeDeviceDeals, storedDeviceDeals } from '../../db/device-deals.ts';
import { DEFAULT_DEVICE_DEALS } from '../../domain/collections/index.ts';
import { usePendingChanges } from '../../db/hooks/use-sync-status.ts';
import { ThemePicker } from '../../components/theme-picker.tsx';
import { ManageSubscription, PayoutSetup } from '../billing/index.ts';
import { BlockedPeopleCard, DataExportCard, DeleteAccountCard } from '../account/index.ts';

export function PersonalisationSection() {
  return (
    <section className="card" aria-labelledby="theme-title">
      <h2 id="theme-title">Theme</h2>
      <p className="muted">Your choice is stored on this device.</p>
      <ThemePicker />
    </section>
  );
}

export function ProSection({ isPro, isCreator }: { isPro: boolean; isCreator: boolean }) {
  return (
    <div className="settings-pro-stack">
      <section className="card" aria-labelledby="pro-title">
        <h2 id="pro-title">Pro membership</h2>
        <p>{isPro ? 'You are a Pro member.' : 'You are on the free plan.'}</p>
        <ManageSubscription />
        <p className="settings-links">
          <Link className="button button-primary" to="/pro">
            {isPro ? 'Your Pro benefits' : 'Upgrade to Pro'}
          </Link>
          <Link className="button button-secondary" to="/pricing">
            See pricing
          </Link>
        </p>
      </section>
      {isCreator ? (
        <section className="card" aria-labelledby="payouts-title">
          <h2 id="payouts-title">Payouts</h2>
          <PayoutSetup returnTo="/settings?section=pro" />
          <p className="settings-links">
            <Link to="/earnings">See your earnings</Link>
          </p>
        </section>
      ) : null}
    </div>
  );
}

export function PrivacySection() {
  const pending = usePendingChanges();
  return (
    <div className="settings-stack">
      <section className="card" aria-labelledby="privacy-title">
        <h2 id="privacy-title">Privacy and data on this device</h2>
        <p>
          Pacta keeps a copy of your deals, messages and profile on this device so it works offline. Signing out deletes
          that copy; changes that have not synced yet are never deleted without asking you first.
        </p>
        <p>
          {pending > 0
            ? `${pending} ${pending === 1 ? 'change is' : 'changes are'} waiting to sync.`
            : 'Everything on this device is synced.'}
        </p>
        <DealsOnDevice />
        <p className="settings-links">
          <Link to="/privacy">Privacy Policy</Link>
          <Link to="/cookies">Cookie Policy</Link>
        </p>
      </section>
      <DataExportCard />
      <BlockedPeopleCard />
      <DeleteAccountCard />
    </div>
  );
}

/** The choices of "Deals kept on this device" (about 0.5 KB a deal). */
const DEVICE_DEALS_CHOICES = [5_000, DEFAULT_DEVICE_DEALS, 50_000];

/** How many deals this device keeps for offline use (a setting of the device); applies from the next sync. */
function DealsOnDevice() {
  const id = useId();
  const [deals, setDeals] = useState(() => storedDeviceDeals() ?? DEFAULT_DEVICE_DEALS);
  const choices = DEVICE_DEALS_CHOICES.includes(deals) ? DEVICE_DEALS_CHOICES : [deals, ...DEVICE_DEALS_CHOICES];
  return (
    <FormField
      id={`${id}-deals`}
      label="Deals kept on this device"
      hint="Deals you are part of always stay. The others are the open deals that matter most to you; search finds the rest online."
    >
      {(c) => (
        <select
          {...c}
          value={deals}
          onChange={(e) => {
            const next = Number(e.target.value);
            storeDeviceDeals(next);
            setDeals(next);
          }}
        >
          {choices.map((n) => (
            <option key={n} value={n}>
              {`${n.toLocaleString('en')} deals (about ${(n / 2_000).toLocaleString('en', { maximumFractionDigits: 1 })} MB)`}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

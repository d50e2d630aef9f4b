/** Benefit lists of the two Pro pages ("Pro pages"). */
export const CREATOR_PRO_BENEFITS = [
  'Priority deal listings',
  'Pro badge on your profile',
  'Advanced analytics',
  'Early access to new features',
];

export const BRAND_PRO_BENEFITS = [
  'Priority creator matching',
  'Pro badge on your profile',
  'Unlimited shortlists',
  'Advanced campaign analytics',
  'Early access to new features',
];

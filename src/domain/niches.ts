/** The 26 niches a creator or a deal can have (spec 001 §3), in the order the pickers show them. */
export const NICHES = [
  'Technology',
  'Fitness',
  'Fashion',
  'Food',
  'Travel',
  'Gaming',
  'Finance',
  'Music',
  'Beauty',
  'Health',
  'Education',
  'Parenting',
  'Pets',
  'Automotive',
  'Outdoors',
  'Art',
  'Photography',
  'Business',
  'Sports',
  'Home',
  'DIY',
  'Books',
  'Movies',
  'Science',
  'Spirituality',
  'Other',
] as const;

export type Niche = (typeof NICHES)[number];

/** "A deal lists 1 to 5 niches; a campaign brief 1 to 3." */
export const MAX_DEAL_NICHES = 5;
/** @public The campaign-briefs feature's limit, defined here beside the deal's so the two stay one rule. */
export const MAX_BRIEF_NICHES = 3;

/** The blog's posts (static content shipped with the app, so the blog also reads offline). */
export type BlogPost = {
  id: string;
  title: string;
  category: BlogCategory;
  date: string;
  readMinutes: number;
  excerpt: string;
  body: string[];
};

export const BLOG_CATEGORIES = ['Creators', 'Brands', 'Payments', 'Product'] as const;
export type BlogCategory = (typeof BLOG_CATEGORIES)[number];

export const BLOG_POSTS: BlogPost[] = [
  {
    id: 'pricing-your-first-sponsorship',
    title: 'How to price your first sponsorship',
    category: 'Creators',
    date: '2026-10-28',
    readMinutes: 6,
    excerpt:
      'Followers are only part of the story. Here is how to set a rate that reflects your engagement and the work involved.',
    body: [
      'Your first sponsorship rate sets an anchor for every deal after it, so it is worth an hour of thought. ' +
        'Start from the work: how long does the deliverable take to script, shoot and edit?',
      'Then look at engagement rather than raw followers. A smaller audience that comments and clicks is worth more to a brand than a large, quiet one.',
      'Finally, remember the fees: on Pacta the commission is taken from the deal amount, so a $1,000 deal ' +
        'pays out the amount minus the published commission. Price with that in mind.',
    ],
  },
  {
    id: 'writing-briefs-creators-love',
    title: 'Writing campaign briefs creators love',
    category: 'Brands',
    date: '2026-10-14',
    readMinutes: 5,
    excerpt: 'A clear brief gets better applications. Goals, deliverables and guardrails — in that order.',
    body: [
      'The best briefs start with the goal of the campaign, not the product description. ' +
        'Creators who understand what success looks like will propose ideas you had not thought of.',
      'List deliverables precisely: an Instagram Story and a TikTok Video are different jobs with different costs.',
      'Keep brand guidelines short. A page of rules reads like distrust; three clear guardrails read like a partnership.',
    ],
  },
  {
    id: 'how-escrow-protects-both-sides',
    title: 'How escrow protects both sides of a deal',
    category: 'Payments',
    date: '2026-09-30',
    readMinutes: 4,
    excerpt:
      'The brand funds the deal up front, the creator delivers, and the payout is released. Here is what happens at each step.',
    body: [
      'When a brand funds a deal, the money is held in escrow: it has left the brand but has not reached the creator yet.',
      'Once the work is delivered and the deal is completed, the brand releases the payout to the creator. ' +
        'If something goes wrong, either side can open a dispute within 30 days.',
      'Deals made outside Pacta are not protected: there is no escrow and no dispute resolution. Keep your deals on the platform.',
    ],
  },
  {
    id: 'working-offline-with-pacta',
    title: 'Pacta now works offline',
    category: 'Product',
    date: '2026-09-12',
    readMinutes: 3,
    excerpt: 'Install Pacta and keep browsing deals, drafting briefs and writing messages without a connection.',
    body: [
      'Pacta is now an installable app. Once installed, it opens instantly and keeps your deals, drafts and messages on your device.',
      'Anything you change offline is kept safely and synced as soon as you are back online — you will see what is waiting in the sync status.',
    ],
  },
  {
    id: 'building-a-media-kit',
    title: 'Building a media kit that closes deals',
    category: 'Creators',
    date: '2026-08-26',
    readMinutes: 7,
    excerpt: 'What brands look for in a creator profile, and how to present your niches, audience and past work.',
    body: [
      'Your Pacta profile is your media kit. Lead with your niches and a bio of at least a few sentences that says who your audience is.',
      'Past deals and reviews do the rest: brands trust what other brands have said about working with you.',
    ],
  },
  {
    id: 'measuring-sponsorship-roi',
    title: 'Measuring the return on a sponsorship',
    category: 'Brands',
    date: '2026-08-05',
    readMinutes: 6,
    excerpt: 'Reach is not revenue. A simple framework for judging whether a creator partnership paid off.',
    body: [
      'Decide before the campaign what you will measure: sign-ups, sales with a discount code, or brand search volume.',
      'Compare cost per result across creators, and keep working with the ones whose audiences convert — long-term partnerships beat one-off posts.',
    ],
  },
];

export function findBlogPost(id: string | undefined): BlogPost | undefined {
  return BLOG_POSTS.find((post) => post.id === id);
}

export function formatPostDate(iso: string): string {
  return new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

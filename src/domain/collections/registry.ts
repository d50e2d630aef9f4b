import type { z } from 'zod';
import { CLIENT_ONLY_FIELDS, SYNC_COLUMN_NAMES } from './fields.ts';
import { dealEventDocument } from './deal-work.ts';
import { growthDocument } from './growth.ts';
import { conversationDocument, messageDocument, notificationDocument } from './inbox.ts';
import { applicationDocument, dealDocument, reviewDocument } from './marketplace.ts';
import { draftDocument, profileDocument, savedListDocument, type PROFILE_ROLES } from './people.ts';
import { supportMessageDocument, supportTicketDocument } from './support.ts';

export type CollectionSpec = {
  /** Postgres relation the collection replicates (a table, or the `growth` view). */
  table: string;
  schema: z.ZodObject;
  /**
   * The version of the collection's local (RxDB) schema. Add 1 whenever `schema` or `indexes` change:
   * a device that stored the collection under the same version with another shape cannot open its
   * database at all (RxDB error DB6). Its stored documents are then migrated, kept with new fields
   * filled from the zod defaults (`src/db/schema-migration.ts`); `src/db/schema-versions.test.ts`
   * fails while a changed schema keeps its old version.
   */
  schemaVersion: number;
  /**
   * Business fields only the server may set (besides the sync columns). A push that changes one
   * relative to its assumed master is refused; on insert they take the database defaults.
   */
  serverOwned: readonly string[];
  /** No pushes at all: the rows are written by server functions and triggers only. */
  readOnly: boolean;
  /**
   * The only roles RLS lets write any row of the collection (absent: every role). A device signed in
   * with another role replicates it pull-only, so RxDB keeps no second copy of every document.
   * Keep it in step with the table's insert and update policies.
   */
  writableBy?: readonly ProfileRole[];
  /**
   * `catalog`: rows can leave a user's scope without changing owner (a deal turned Pro-only, a deal
   * closed to non-participants), so pulls also send removals for rows the user no longer sees.
   * `participant`: the user is a party of each row; RLS alone decides the scope.
   */
  scope: 'catalog' | 'participant';
  /**
   * RxDB indexes (fields must be required in the schema). `newest_first` is the client-only sort key
   * derived from `created_at` (see NEWEST_FIRST in fields.ts); a collection indexing it also
   * requires `created_at` on the device. `open_until` (deals) is derived from `deadline` (OPEN_UNTIL).
   */
  indexes: readonly (string | readonly string[])[];
  /**
   * Rows that need another collection's row to exist on the server first (a message needs its
   * conversation): the client pushes the parent before the child, since each collection replicates
   * on its own and a child arriving first is refused.
   */
  parents?: readonly { field: string; collection: string }[];
  /**
   * Counters that only grow (a member's read position): a conflict keeps the larger of the two
   * values instead of the device's or the server's.
   */
  maxMerged?: readonly string[];
  /**
   * The change stream carries the collection's changed rows themselves, not only a notice, and a
   * device applies them without a pull. Only for a catalog collection whose read policy shows each
   * row to every signed-in reader (see `sync-server/sync/streamed-catalog-rows.ts`, pinned by
   * `tests/sync/streamed-rows.pg.test.ts`).
   */
  rowsInStream?: true;
};

/**
 * The client's collections (RxDB's open-source build allows 13 per realm: this is all of them).
 * Documents use the table's column names; billing fields live in `billing_accounts` and never
 * replicate.
 */
export const collectionSpecs = {
  deals: {
    table: 'deals',
    // 1: escrow_status may be 'disputed'. 2: created_at required, indexed newest first (newest_first).
    // 3: open_until (the last day the deal is offered, derived from deadline), indexed for the counts.
    schemaVersion: 3,
    schema: dealDocument,
    serverOwned: ['escrow_status', 'applications_count', 'completed_at'],
    readOnly: false,
    // deals_insert: a brand or an admin; deals_update: the deal's brand or an admin.
    writableBy: ['brand', 'admin'],
    scope: 'catalog',
    rowsInStream: true,
    // What the screens read, each a range of one index in the order shown (never a whole collection):
    // a brand's deals (dashboard, My Deals) and by status (its counts, My Deals' filter); the open
    // deals (Deals, swipe) and the ones a non-Pro creator may see; everything, for admins. The open
    // deals not past their last day are counted on (status[, pro_only], open_until) and listed
    // through the newest-first index of the same fields.
    indexes: [
      ['brand_id', 'newest_first'],
      ['brand_id', 'status', 'newest_first'],
      ['status', 'newest_first'],
      ['status', 'pro_only', 'newest_first'],
      ['status', 'open_until'],
      ['status', 'pro_only', 'open_until'],
      'newest_first',
    ],
  },
  applications: {
    table: 'applications',
    // 1: created_at required, indexed newest first (newest_first). 2: deal_status (the deal's status,
    // server-kept), indexed with the creator; deal_id indexed with the creator. 3: proposed price and
    // the state derived from the deal's work log (offer, agreed price, terms, work, payout clock).
    // 4: price_funded_at (the creator's price is funded: the first funding or a top-up).
    schemaVersion: 4,
    schema: applicationDocument,
    serverOwned: [
      'deal_status',
      'offer_price_cents',
      'offer_due_date',
      'offer_by',
      'offer_id',
      'agreed_price_cents',
      'agreed_due_date',
      'terms_version',
      'terms_accepted_by',
      'terms_agreed_version',
      'work',
      'delivered_at',
      'payout_due_at',
      'price_funded_at',
    ],
    readOnly: false,
    scope: 'participant',
    // A deal's applicants, and a creator's applications to the deals a screen shows (deal_id $in);
    // a creator's applications newest first, by their deal's status (My Deals' pages and chips) and
    // their counts by status; the counts by status a brand (applications received) or an admin sees;
    // everything, for admins.
    indexes: [
      ['deal_id', 'creator_id'],
      ['creator_id', 'newest_first'],
      ['creator_id', 'deal_status', 'newest_first'],
      ['creator_id', 'status'],
      'status',
      'newest_first',
    ],
  },
  profiles: {
    table: 'profiles',
    // 2: portfolio_media (images and short videos on Pacta's storage).
    schemaVersion: 2,
    schema: profileDocument,
    serverOwned: [
      'role',
      'verified',
      'email_verified',
      'rating',
      'total_deals',
      'completed_deals',
      'pro_tier',
      'pro_since',
      'pro_until',
      'granted_pro_features',
      'referral_code',
      'xp',
      'level',
      'referrals_count',
    ],
    readOnly: false,
    scope: 'participant',
    indexes: [],
  },
  saved_lists: {
    table: 'saved_lists',
    // 1: the kind campaign_invites (invitations to a campaign). 2: the kind blocked_users.
    schemaVersion: 2,
    schema: savedListDocument,
    serverOwned: [],
    readOnly: false,
    scope: 'participant',
    indexes: [],
  },
  drafts: {
    table: 'drafts',
    schemaVersion: 0,
    schema: draftDocument,
    serverOwned: [],
    readOnly: false,
    scope: 'participant',
    indexes: [],
  },
  conversations: {
    table: 'conversations',
    // 1: last_seq and the members' read positions (user1_read_seq, user2_read_seq).
    schemaVersion: 1,
    schema: conversationDocument,
    serverOwned: ['last_message', 'last_message_at', 'last_seq'],
    readOnly: false,
    scope: 'participant',
    indexes: [],
    maxMerged: ['user1_read_seq', 'user2_read_seq'],
  },
  messages: {
    table: 'messages',
    // 1: seq, the server's order. 2: attachments.
    schemaVersion: 2,
    schema: messageDocument,
    serverOwned: ['seq'],
    readOnly: false,
    scope: 'participant',
    indexes: ['conversation_id'],
    parents: [{ field: 'conversation_id', collection: 'conversations' }],
  },
  notifications: {
    table: 'notifications',
    schemaVersion: 0,
    schema: notificationDocument,
    serverOwned: ['user_id', 'type', 'title', 'message', 'data'],
    readOnly: false,
    scope: 'participant',
    indexes: [],
  },
  support_tickets: {
    table: 'support_tickets',
    // 2: the kind report (a report of a person or a deal, written by the server).
    schemaVersion: 2,
    schema: supportTicketDocument,
    serverOwned: ['is_pro', 'first_response_at', 'last_activity_at', 'closed_at', 'contact_name', 'contact_email'],
    readOnly: false,
    scope: 'participant',
    indexes: [],
  },
  support_messages: {
    table: 'support_messages',
    schemaVersion: 1,
    schema: supportMessageDocument,
    serverOwned: ['is_staff'],
    readOnly: false,
    scope: 'participant',
    indexes: ['ticket_id'],
    parents: [{ field: 'ticket_id', collection: 'support_tickets' }],
  },
  reviews: {
    table: 'reviews',
    // 1: published_at (blind reviews).
    schemaVersion: 1,
    schema: reviewDocument,
    serverOwned: ['published_at'],
    readOnly: false,
    scope: 'participant',
    indexes: [],
  },
  deal_events: {
    table: 'deal_events',
    // 1: kind may be 'terms_declined'.
    schemaVersion: 1,
    schema: dealEventDocument,
    // Appended, never edited: the server refuses any change to a stored event.
    serverOwned: [],
    readOnly: false,
    scope: 'participant',
    // An application's log (the deal page's timeline and the derived state's sources), a deal's logs.
    indexes: ['application_id', 'deal_id'],
    parents: [{ field: 'application_id', collection: 'applications' }],
  },
  growth: {
    table: 'growth',
    schemaVersion: 0,
    schema: growthDocument,
    serverOwned: [],
    readOnly: true,
    scope: 'participant',
    indexes: ['kind'],
  },
} as const satisfies Record<string, CollectionSpec>;

export type CollectionName = keyof typeof collectionSpecs;
export type ProfileRole = (typeof PROFILE_ROLES)[number];
export const COLLECTION_NAMES = Object.keys(collectionSpecs) as CollectionName[];

export type CollectionDocument<N extends CollectionName> = z.infer<(typeof collectionSpecs)[N]['schema']>;

/** Every field of the collection's documents except the client-only ones. */
export function documentFields(name: CollectionName): string[] {
  const clientOnly: readonly string[] = CLIENT_ONLY_FIELDS;
  return Object.keys(collectionSpecs[name].schema.shape).filter((f) => !clientOnly.includes(f));
}

/** Fields a client may write: everything but `id`, the sync columns and the server-owned fields. */
export function clientWritableFields(name: CollectionName): string[] {
  const spec: CollectionSpec = collectionSpecs[name];
  const excluded = new Set<string>(['id', ...SYNC_COLUMN_NAMES, ...spec.serverOwned]);
  return documentFields(name).filter((f) => !excluded.has(f));
}

/** Fields a client must never change: the sync columns plus the collection's server-owned fields. */
export function serverOwnedFields(name: CollectionName): string[] {
  const spec: CollectionSpec = collectionSpecs[name];
  return [...SYNC_COLUMN_NAMES, ...spec.serverOwned];
}

/**
 * The escrow's states and what each allows, as one table: the server's guards refuse by it and the
 * payment panel's `can*` flags are derived from it, so the two can never disagree. Identity checks
 * (is this the deal's brand, the creator it pays) and the money itself stay with the server.
 */
import type { DEAL_STATUSES, ESCROW_STATUSES } from './collections/marketplace.ts';

type DealStatus = (typeof DEAL_STATUSES)[number];
type EscrowStatus = (typeof ESCROW_STATUSES)[number];

export type EscrowAction = 'fund' | 'release' | 'dispute' | 'resolve' | 'requestCancel' | 'consentCancel';
export type EscrowParty = 'brand' | 'creator' | 'admin';

/** A refusal as the server answers it: HTTP status, machine code, the sentence the user reads. */
export type EscrowRefusal = { status: number; code: string; message: string };

type ActionRule = {
  who: readonly EscrowParty[];
  /** The escrow states that allow it; any other state answers with its refusal (or `otherwise`). */
  escrow: readonly EscrowStatus[];
  refusals: Partial<Record<EscrowStatus, EscrowRefusal>>;
  otherwise: EscrowRefusal;
  /** The deal states that allow it, checked before the escrow's state when `dealFirst`. */
  deal: readonly DealStatus[];
  dealRefusal: EscrowRefusal;
  dealFirst?: boolean;
};

const notFunded: EscrowRefusal = {
  status: 409,
  code: 'not_funded',
  message: 'The brand has not funded this deal yet.',
};
const disputed: EscrowRefusal = {
  status: 409,
  code: 'deal_disputed',
  message: 'This deal is disputed: Pacta staff will resolve it.',
};

export const ESCROW_RULES: Record<EscrowAction, ActionRule> = {
  // "The brand funds the deal when a creator is accepted", once.
  fund: {
    who: ['brand'],
    escrow: ['none'],
    refusals: {},
    otherwise: { status: 409, code: 'already_funded', message: 'This deal is already funded.' },
    deal: ['open', 'in_progress', 'completed'],
    dealRefusal: { status: 409, code: 'deal_closed', message: 'This deal is cancelled.' },
    dealFirst: true,
  },
  // The brand (or staff) releases a completed deal's payout; the server's jobs do after the hold.
  release: {
    who: ['brand', 'admin'],
    escrow: ['pending'],
    refusals: {
      disputed,
      refunded: { status: 409, code: 'already_refunded', message: 'This deal was refunded to the brand.' },
      released: { status: 409, code: 'already_released', message: 'The payout was already released.' },
    },
    otherwise: notFunded,
    deal: ['completed'],
    dealRefusal: { status: 409, code: 'deal_not_completed', message: 'The deal is not completed yet.' },
    dealFirst: true,
  },
  // Either side of a funded deal, while the money is held: it stops every clock.
  dispute: {
    who: ['brand', 'creator'],
    escrow: ['pending'],
    refusals: {
      disputed: { status: 409, code: 'already_disputed', message: 'This deal is already disputed.' },
      released: { status: 409, code: 'already_released', message: 'The payout was already released.' },
    },
    otherwise: { status: 409, code: 'not_funded', message: 'Only a funded deal can be disputed.' },
    deal: ['open', 'in_progress', 'completed', 'cancelled'],
    dealRefusal: notFunded,
  },
  resolve: {
    who: ['admin'],
    escrow: ['disputed'],
    refusals: {},
    otherwise: { status: 409, code: 'not_disputed', message: 'This deal has no open dispute.' },
    deal: ['open', 'in_progress', 'completed', 'cancelled'],
    dealRefusal: { status: 409, code: 'not_disputed', message: 'This deal has no open dispute.' },
  },
  // "A funded deal in progress is refunded only with the creator's consent or a dispute decided by staff."
  requestCancel: {
    who: ['brand'],
    escrow: ['pending'],
    refusals: { disputed: { ...disputed, message: 'This deal is disputed: Pacta staff will decide it.' } },
    otherwise: {
      status: 409,
      code: 'consent_not_needed',
      message: 'Only a funded deal in progress needs the creator to agree: cancel this deal from its page.',
    },
    deal: ['in_progress'],
    dealRefusal: {
      status: 409,
      code: 'consent_not_needed',
      message: 'Only a funded deal in progress needs the creator to agree: cancel this deal from its page.',
    },
  },
  consentCancel: {
    who: ['creator'],
    escrow: ['pending'],
    refusals: {},
    otherwise: { status: 409, code: 'no_cancel_request', message: 'The brand has not asked to cancel this deal.' },
    deal: ['in_progress'],
    dealRefusal: { status: 409, code: 'no_cancel_request', message: 'The brand has not asked to cancel this deal.' },
  },
};

/** Why the deal's states refuse `action`, or undefined when they allow it. */
export function escrowRefusal(
  action: EscrowAction,
  state: { escrowStatus: EscrowStatus; dealStatus: DealStatus },
): EscrowRefusal | undefined {
  const rule = ESCROW_RULES[action];
  const dealWrong = !rule.deal.includes(state.dealStatus);
  if (rule.dealFirst && dealWrong) return rule.dealRefusal;
  if (!rule.escrow.includes(state.escrowStatus)) return rule.refusals[state.escrowStatus] ?? rule.otherwise;
  return dealWrong ? rule.dealRefusal : undefined;
}

/** Whether `party` may take `action` in these states: the payment panel's `can*` flags. */
export function escrowAllows(
  action: EscrowAction,
  party: EscrowParty | undefined,
  state: { escrowStatus: EscrowStatus; dealStatus: DealStatus },
): boolean {
  return party !== undefined && ESCROW_RULES[action].who.includes(party) && !escrowRefusal(action, state);
}

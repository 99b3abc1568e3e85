import { asSentence } from './sentence';

/**
 * The database's refusals as sentences for a person, with what to do (issue 25). Most RAISE messages in
 * supabase/schemas already say what to do ("open a shift on this register first", "enter a quantity above zero"),
 * and asSentence only gives them a capital and a full stop. The kinds below do not: "no such sale" or "permission
 * denied for this business" tell a cashier nothing to do. tests/lint/database-messages.test.ts reads every RAISE
 * message of the schema and fails when one is neither written as an instruction nor matched here nor listed as
 * one the screens never let through.
 */
interface Rule { match: RegExp; say: (m: RegExpMatchArray) => string }

export const MESSAGE_RULES: Rule[] = [
  { match: /^no such (.+?)( in this business)?$/i,
    say: (m) => `This ${m[1]} was not found in this business: it may have been deleted, or you followed an old link. Reload the page and try again.` },
  { match: /^permission denied( for this .+)?$/i,
    say: () => 'Your role in this business does not allow this. Ask the owner or a manager to do it, or to change your role.' },
  { match: /^not a member of this business$/i,
    say: () => 'You are not a member of this business (any more). Choose another business, or ask its owner to invite you.' },
  { match: /^admins only$/i, say: () => 'Only Storewise administrators can do this.' },
  { match: /^sign in( first| to .+)$/i, say: () => 'Your session has ended. Sign in again, then try once more.' },
  { match: /^only (a|an|the) (.+)$/i, say: (m) => `This can be done only for ${m[1]} ${m[2]}. Reload the page to see its current state.` },
  { match: /^(.+) (is|are) append-only$/i, say: (m) => `${capital(m[1] ?? '')} cannot be changed or deleted: it is a permanent record.` },
  { match: /^(.+) cannot (move|change|go back) (.+)$/i,
    say: (m) => `${capital(`${m[1]} cannot ${m[2]} ${m[3]}`)}. Create a new one instead.` },
  { match: /^(.+) (must be|is) (one of )?([a-z_]+(, [a-z_]+)* or [a-z_]+)$/i,
    say: (m) => `${capital(m[1] ?? '')} must be ${m[4]}: choose one of these and try again.` },
  // States a person meets at the counter or in the back office, each with what to do.
  { match: /^this shift is (already )?closed$/i, say: () => 'This shift is already closed. Open a new shift to keep selling.' },
  { match: /^this register is archived$/i, say: () => 'This register was archived. Choose another register, or ask a manager to restore it.' },
  { match: /^this invitation was withdrawn$/i, say: () => 'This invitation was withdrawn. Ask the business\'s owner for a new one.' },
  { match: /^this invitation was already (used|accepted or revoked)$/i,
    say: () => 'This invitation was already used or withdrawn. Sign in if it was yours, or ask the owner for a new one.' },
  { match: /^this invitation link is not valid$/i,
    say: () => 'This invitation link is not valid. Check that the whole link was copied, or ask the owner for a new invitation.' },
  { match: /^this invitation was sent to another email address$/i,
    say: () => 'This invitation was sent to another email address. Sign in with that address, or ask for an invitation to yours.' },
  { match: /^you are already a member of this business$/i, say: () => 'You are already a member of this business. Choose it in the Workspace list.' },
  { match: /^this person is already a member of the business$/i,
    say: () => 'This person is already a member of the business. Change their role on the Team page instead.' },
  { match: /^this business is suspended$/i, say: () => 'This business is suspended. Its owner can contact Storewise support to restore it.' },
  { match: /^this receipt was already emailed (\d+) times$/i,
    say: (m) => `This receipt was already emailed ${m[1]} times. Print it instead, or ask the customer to check their spam folder.` },
  { match: /^the tenders pay (.+) but the sale totals (.+)$/i,
    say: (m) => `The payments (${m[1]}) do not add up to the sale's total (${m[2]}). Change the amounts and try again.` },
  { match: /^the amount tendered is less than the amount paid$/i,
    say: () => 'The amount tendered is less than the amount to pay. Enter at least the amount due.' },
  { match: /^only cash gives change$/i, say: () => 'Only cash gives change. Enter the exact amount for a card or other payment.' },
  { match: /^you may approve discounts up to (.+) percent$/i,
    say: (m) => `You may approve discounts up to ${m[1]} percent. Ask the owner to approve a larger one.` },
  { match: /^this manager may approve discounts up to (.+) percent$/i,
    say: (m) => `This manager may approve discounts up to ${m[1]} percent. Ask the owner to approve a larger one.` },
  { match: /^receipt not found$/i,
    say: () => 'This receipt was not found, or it is of a store you do not have access to. Check the receipt number, or ask a manager of that store.' },
  { match: /^the purchase order is not one of this store with this item$/i,
    say: () => 'This purchase order is not one of this store with this item. Choose the order these units arrived on, or receive them without one.' },
  { match: /^picture not found$/i, say: () => 'This picture was not found: it may have been removed. Reload the page to see the product\'s pictures.' },
  { match: /^this (sale|shift|refund) (was already reviewed|is not flagged for review)$/i,
    say: (m) => `This ${m[1]} ${m[2] === 'was already reviewed' ? 'was already reviewed' : 'is no longer flagged for review'}. Reload the list to see the others.` },
  { match: /^this transfer was already received$/i, say: () => 'This transfer was already received. Reload the page to see what arrived.' },
  { match: /^this purchase order is closed$/i, say: () => 'This purchase order is closed. Create a new one to order more.' },
  { match: /^received and damaged together cannot exceed what was sent \((.+)\)$/i,
    say: (m) => `Received and damaged together cannot be more than was sent (${m[1]}). Correct the quantities and try again.` },
  { match: /^the sample products are already in your catalog$/i,
    say: () => 'The sample products are already in your catalog. Edit or archive them on the Catalog page.' },
  { match: /^this business is already being deleted$/i,
    say: () => 'This business is already being deleted. You can cancel the deletion in the Business settings.' },
  { match: /^there is no pending deletion to cancel$/i, say: () => 'There is no deletion to cancel. Reload the page to see the business\'s state.' },
  { match: /^the owner's role changes only by transferring ownership$/i,
    say: () => 'The owner\'s role changes only by transferring ownership. Use "Transfer ownership" on the Team page.' },
  { match: /^ownership goes to another member of this business$/i,
    say: () => 'Ownership can only go to another member of this business. Invite the person first.' },
  { match: /^ticket not found$/i, say: () => 'This support request was not found. Reload the page to see your requests.' },
  { match: /^the entry's author is not a member of this business$/i,
    say: () => 'The person who made this entry is no longer a member of this business. A manager can review it among the refused entries.' },
  { match: /^this (lot belongs to another item|product is not tracked by lot|item is not tracked by lot)$/i,
    say: (m) => `This ${m[1]}. Check the item and the lot you chose, and try again.` },
  { match: /^this product needs an expiry date for every lot$/i, say: () => 'This product needs an expiry date for every lot. Enter the lot\'s expiry date.' },
  // ADR 0350: a manager's PIN at the till while the business requires two-factor of managers and they have none.
  { match: /^permission denied: this business requires two-factor sign-in for managers and this manager has not set it up/i,
    say: () => 'This business requires managers to use two-factor sign-in, and this manager has not set it up. They set it up in their profile first; until then the owner or another manager approves.' },
  { match: /^receipt not found \((.+)\)$/i, say: (m) => `This receipt was not found: ${m[1]}.` },
  { match: /^the (.+) is not a date and time$/i, say: (m) => `The ${m[1]} is not a date and time: enter one such as 2026-12-01 09:30.` },
  { match: /^(.+) is not a date and time$/i, say: (m) => `${capital(m[1] ?? '')} is not a date and time: enter one such as 2026-12-01 09:30.` },
];

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A refusal's message as a sentence for a person: a rule's rewording, else the message with a capital and a stop. */
export function personMessage(message: string): string {
  const text = message.trim().replace(/^error:\s*/i, '');
  for (const rule of MESSAGE_RULES) {
    const m = rule.match.exec(text);
    if (m) return rule.say(m);
  }
  return asSentence(text);
}

/** True when a rule rewords this message. */
export function hasRule(message: string): boolean {
  return MESSAGE_RULES.some((rule) => rule.match.test(message.trim()));
}

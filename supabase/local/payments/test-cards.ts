/**
 * Stripe's documented test card numbers, the only cards the local provider accepts. Anything else is refused
 * as Stripe's test mode refuses real card numbers, so no real card number is ever typed into this stand-in.
 */
export interface TestCard {
  brand: 'visa' | 'mastercard' | 'amex';
  /** Declined when attached (checkout, portal). */
  attachDecline?: { code: 'card_declined'; decline_code: 'generic_decline' | 'insufficient_funds'; message: string };
  /** Attaches, but every later charge fails (Stripe's 4000 0000 0000 0341). */
  chargesFail?: boolean;
}

export const testCards: Record<string, TestCard> = {
  '4242424242424242': { brand: 'visa' },
  '4000056655665556': { brand: 'visa' },
  '5555555555554444': { brand: 'mastercard' },
  '378282246310005': { brand: 'amex' },
  '4000000000000002': {
    brand: 'visa',
    attachDecline: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  },
  '4000000000009995': {
    brand: 'visa',
    attachDecline: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  },
  '4000000000000341': { brand: 'visa', chargesFail: true },
};

export function testCard(number: string): TestCard | undefined {
  return testCards[number.replace(/[\s-]/g, '')];
}

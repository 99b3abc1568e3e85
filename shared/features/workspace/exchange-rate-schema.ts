import { z } from 'zod';
import { parseRate } from '../../lib/exchange-rate';

const currencies: readonly string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : [];

/**
 * A new exchange rate as the manager types it (ADR 0395): the foreign currency, the store currency it converts to,
 * the rate (store-currency units for one foreign unit, at most 10 decimals, kept as typed: never a float) and when it
 * takes effect (empty: now). set_exchange_rate checks all of it again.
 */
export const exchangeRateSchema = z.object({
  currency: z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/, 'Use a 3-letter ISO 4217 code such as EUR')
    .refine((v) => currencies.length === 0 || currencies.includes(v), 'Not an ISO 4217 currency'),
  base_currency: z.string().regex(/^[A-Z]{3}$/, 'Choose the store currency'),
  rate: z.string().trim().refine((v) => parseRate(v) !== null, 'Enter a rate above 0 such as 1.0825 (at most 10 decimals)'),
  effective_from: z.string().refine((v) => v === '' || !Number.isNaN(Date.parse(v)), 'Enter a date and time, or leave it empty for now'),
}).refine((v) => v.currency !== v.base_currency, { path: ['currency'], message: 'Choose a currency other than the store currency' });
export type ExchangeRateValues = z.infer<typeof exchangeRateSchema>;

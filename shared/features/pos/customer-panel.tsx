import { useEffect, useState } from 'react';
import { Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import type { StorewiseClient } from '../../lib/supabase-client';
import { formatMinor } from './cart';
import { findCustomersOffline, rememberCustomer } from './customers-cache';
import type { PosDatabase } from './outbox';
import { customerHistory, findCustomers, sendSale, type Customer, type SaleSummary } from './pos-api';

type Enqueue = (kind: 'customer', payload: Record<string, unknown> & { id: string }) => Promise<void>;

/**
 * Find a customer by name, phone or email, or create one at the counter, and attach them to the sale. The new
 * customer's id is made here (ADR 0155): online it is saved at once; offline (or when the save must be retried) it
 * is queued in the outbox ahead of the sale that names it and attached to the sale straight away. Finding works
 * offline from the device's copy of the customers (customers-cache.ts, ADR 0165), which also holds those added here.
 */
export function CustomerPanel({ supabase, db, businessId, currency, current, online, enqueue, onAttach, onClose }: {
  supabase: StorewiseClient;
  /** The register's database: its copy of the customers answers when the server cannot. */
  db?: PosDatabase;
  businessId: string;
  currency: string;
  current: Customer | null | undefined;
  online: boolean;
  enqueue: Enqueue;
  onAttach: (customer: Customer | null) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Customer[]>([]);
  const [creating, setCreating] = useState(false);
  const [draft, setDraft] = useState({ name: '', phone: '', email: '' });
  const [error, setError] = useState<string | null>(null);
  const [history, setHistory] = useState<SaleSummary[] | null>(null);

  useEffect(() => {
    let stale = false;
    const timer = setTimeout(() => {
      // The device's copy answers at once (and alone offline); online, the server's answer replaces it.
      const local = db ? findCustomersOffline(db, businessId, query) : Promise.resolve([]);
      void local.then((rows) => { if (!stale && (!online || rows.length > 0)) setFound(rows); });
      if (!online) return;
      findCustomers(supabase, businessId, query).then((rows) => { if (!stale) setFound(rows); },
        async (e: unknown) => {
          if (stale) return;
          if (db) setFound(await local);
          else setError(e instanceof Error ? e.message : String(e));
        });
    }, 150);
    return () => { stale = true; clearTimeout(timer); };
  }, [supabase, db, businessId, query, online]);

  useEffect(() => {
    if (!current || !online) return;
    let stale = false;
    customerHistory(supabase, current.id).then((rows) => { if (!stale) setHistory(rows); }, () => { if (!stale) setHistory([]); });
    return () => { stale = true; };
  }, [supabase, current, online]);

  const create = async () => {
    setError(null);
    const made: Customer = { id: crypto.randomUUID(), name: draft.name.trim(), phone: draft.phone.trim() || null, email: draft.email.trim() || null };
    const payload = { ...made, business_id: businessId };
    // The database's rules (entity_name, phone_number, email_address), checked here too: a customer queued
    // offline must not be refused when it syncs.
    const problem = made.name.length < 2 || made.name.length > 100 ? 'A name has 2 to 100 characters'
      : made.phone && (made.phone.length < 10 || made.phone.length > 20) ? 'A phone number has 10 to 20 characters'
        : made.email && (made.email.length > 255 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(made.email)) ? 'Enter a valid email'
          : null;
    if (problem) {
      setError(problem);
      return;
    }
    try {
      if (online) {
        const sent = await sendSale(supabase, { id: made.id, seq: 0, kind: 'customer', payload, createdAt: new Date().toISOString(), attempts: 0 });
        if (sent.status === 'rejected') throw new Error(sent.error);
        if (sent.status === 'done') {
          if (db) await rememberCustomer(db, businessId, made);
          onAttach(made);
          setCreating(false);
          return;
        }
      }
      // Offline, or the save must be retried: the same id goes through the outbox (a retry writes it once).
      await enqueue('customer', payload);
      if (db) await rememberCustomer(db, businessId, made);
      onAttach(made);
      setCreating(false);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Stack gap="2" borderWidth="1px" rounded="md" p="3" role="group" aria-label="Customer">
      {current && (
        <Stack gap="1">
          <HStack justify="space-between" wrap="wrap">
            <Text fontWeight="semibold" data-testid="pos-customer">{current.name}</Text>
            <Button size="sm" variant="outline" onClick={() => onAttach(null)}>Detach</Button>
          </HStack>
          <Text color="fg.muted" fontSize="sm">{[current.phone, current.email].filter(Boolean).join(' · ')}</Text>
          <Text fontSize="sm" fontWeight="semibold">Purchase history</Text>
          {history === null ? <Text fontSize="sm">{online ? 'Loading…' : 'Purchase history needs a connection.'}</Text> : history.length === 0 ? <Text fontSize="sm">No purchases yet.</Text> : (
            <Stack gap="0" as="ul" listStyleType="none" aria-label="Purchase history">
              {history.map((s) => (
                <HStack as="li" key={s.id} justify="space-between" fontSize="sm">
                  <Text>{s.receipt_number} · {new Date(s.occurred_at).toLocaleDateString()}</Text>
                  <Text>{formatMinor(Number(s.total), currency)}</Text>
                </HStack>
              ))}
            </Stack>
          )}
        </Stack>
      )}
      {!creating ? (
        <>
          <Input aria-label="Find a customer" placeholder="Name, phone or email" value={query} autoFocus
            onChange={(e) => setQuery(e.target.value)} />
          {!online && (
            <Text fontSize="sm" color="fg.muted" data-testid="customers-offline">
              Offline: searching the customers saved on this register. A new customer is saved here and synced later.
            </Text>
          )}
          <Stack gap="1" role="listbox" aria-label="Customers found">
            {found.map((c) => (
              <Button key={c.id} variant="ghost" justifyContent="space-between" role="option" aria-selected={current?.id === c.id}
                onClick={() => onAttach(c)}>
                <Text truncate>{c.name}</Text><Text color="fg.muted" truncate>{c.phone ?? c.email ?? ''}</Text>
              </Button>
            ))}
          </Stack>
          <HStack>
            <Button variant="outline" onClick={() => { setCreating(true); setDraft({ name: query, phone: '', email: '' }); }}>New customer</Button>
            <Button variant="ghost" onClick={onClose}>Close</Button>
          </HStack>
        </>
      ) : (
        <Stack as="form" gap="2" onSubmit={(e) => { e.preventDefault(); void create(); }}>
          <Input aria-label="Customer name" placeholder="Name" value={draft.name} autoFocus
            onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
          <Input aria-label="Customer phone" placeholder="Phone" type="tel" value={draft.phone}
            onChange={(e) => setDraft({ ...draft, phone: e.target.value })} />
          <Input aria-label="Customer email" placeholder="Email" type="email" value={draft.email}
            onChange={(e) => setDraft({ ...draft, email: e.target.value })} />
          <HStack>
            <Button type="submit" disabled={!draft.name.trim() || (!draft.phone.trim() && !draft.email.trim())}>Add and attach</Button>
            <Button variant="ghost" onClick={() => setCreating(false)}>Back</Button>
          </HStack>
        </Stack>
      )}
      {error && <Text color="fg.error" role="alert">{error}</Text>}
    </Stack>
  );
}

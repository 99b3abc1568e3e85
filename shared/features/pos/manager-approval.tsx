import { useState } from 'react';
import { createClient } from '@supabase/supabase-js';
import { Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import type { Database } from '../../lib/database.types';
import { usePlatform } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import { requestApproval } from './pos-api';

/**
 * A manager approves on the spot (ADR 0131): they type their own email and password at the register; a second
 * supabase-js client that keeps its session in memory only (never the cashier's storage, never persisted) signs
 * them in, calls approve_discount, which checks in the database that they are an owner or manager of this store
 * and that the percent is within their own limit, then signs that session out (this device only). The cashier's
 * session is untouched; the register passes only the approval id with the sale or refund.
 */
export function ManagerApproval({ storeId, purpose, maxPercent, onApproved, onCancel }: {
  storeId: string;
  purpose: 'discount' | 'refund';
  maxPercent: number;
  onApproved: (approvalId: string, percent: number) => void;
  onCancel: () => void;
}) {
  const platform = usePlatform();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const approve = async () => {
    setBusy(true);
    setError(null);
    const memory = new Map<string, string>();
    const manager = createClient<Database>(platform.supabase.url, platform.supabase.anonKey, {
      auth: {
        persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, storageKey: 'storewise-pos-approver',
        storage: { getItem: (k) => memory.get(k) ?? null, setItem: (k, v) => void memory.set(k, v), removeItem: (k) => void memory.delete(k) },
      },
    }) as StorewiseClient;
    try {
      const signedIn = await manager.auth.signInWithPassword({ email: email.trim(), password });
      if (signedIn.error) throw new Error('That email and password did not sign in a manager');
      const percent = Math.min(100, Math.ceil(maxPercent * 1000) / 1000);
      const id = await requestApproval(manager, storeId, purpose, percent);
      onApproved(id, percent);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      await manager.auth.signOut({ scope: 'local' }).catch(() => undefined);
      setPassword('');
      setBusy(false);
    }
  };

  return (
    <Stack as="form" gap="2" borderWidth="1px" rounded="md" p="3" aria-label="Manager approval"
      onSubmit={(e) => { e.preventDefault(); void approve(); }}>
      <Text fontWeight="semibold">
        {purpose === 'discount' ? `A manager approves this discount (${maxPercent.toFixed(1)} %)` : 'A manager approves this refund'}
      </Text>
      <Input aria-label="Manager email" type="email" autoComplete="off" placeholder="Manager email" value={email}
        onChange={(e) => setEmail(e.target.value)} autoFocus />
      <Input aria-label="Manager password" type="password" autoComplete="off" placeholder="Password" value={password}
        onChange={(e) => setPassword(e.target.value)} />
      {error && <Text color="fg.error" role="alert">{error}</Text>}
      <HStack>
        <Button type="submit" loading={busy} disabled={!email || !password}>Approve</Button>
        <Button variant="outline" onClick={onCancel}>Cancel</Button>
      </HStack>
    </Stack>
  );
}

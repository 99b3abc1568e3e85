import 'fake-indexeddb/auto';
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { StorewiseClient } from '../../lib/supabase-client';
import { PosImagesProvider } from './pos-images';

describe('the register\'s picture provider', () => {
  it('opens the device\'s image store once, whatever the connection does, and asks the server each time it is online', async () => {
    const open = vi.spyOn(indexedDB, 'open');
    const range = vi.fn(async () => ({ data: [], error: null }));
    const supabase = { rpc: () => ({ range }) } as unknown as StorewiseClient;
    const shown = (online: boolean) => <PosImagesProvider supabase={supabase} businessId="b1" online={online}>till</PosImagesProvider>;
    const { rerender } = render(shown(false));
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    rerender(shown(true));
    await waitFor(() => expect(range).toHaveBeenCalledTimes(1));
    rerender(shown(false));
    rerender(shown(true));
    await waitFor(() => expect(range).toHaveBeenCalledTimes(2));
    expect(open).toHaveBeenCalledTimes(1);
    open.mockRestore();
  });
});

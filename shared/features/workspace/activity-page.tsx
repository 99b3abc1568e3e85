import { useState } from 'react';
import { Button, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import { notify } from '../../components/toaster';
import { actorName } from '../../lib/actor-name';
import { downloadText } from '../../lib/download-file';
import { useSupabase } from '../../lib/platform-context';
import { activityCsv } from './activity-csv';
import { useAsync } from './use-async';
import { WorkspaceCard } from './workspace-card';
import { ACTIVITY_PAGE_SIZE, fetchActivity, fetchStores, fetchTeam, type ActivityFilters, type Workspace } from './workspace-api';

// Entity prefixes of the trail's kinds, with the words the filter shows; prices, costs and reorder points are there
// since issue 22 (docs/adr/0175), the register's own (sales, refunds, cash, shifts, approvals) since issue 25.
const KINDS: [string, string][] = [
  ['sale', 'Sales'], ['refund', 'Refunds'], ['cash', 'Cash in and out'], ['shift', 'Shifts'], ['approval', 'Manager approvals'],
  ['pos', 'Refused register entries'], ['receipt', 'Emailed receipts'], ['stock', 'Stock movements'], ['lot', 'Lots'],
  ['transfer', 'Transfers'], ['purchase_order', 'Purchase orders'], ['supplier', 'Suppliers'], ['product', 'Products'],
  ['variant', 'Variants'], ['store_price', 'Store prices'], ['variant_cost', 'Cost prices'], ['reorder_point', 'Reorder points'],
  ['barcode', 'Barcodes'], ['category', 'Categories'], ['customer', 'Customers'], ['business', 'Business'], ['store', 'Stores'],
  ['register', 'Registers'], ['member', 'Team'], ['invitation', 'Invitations'], ['billing', 'Billing'],
];
/** The export walks the filtered trail in pages of this size, up to EXPORT_MAX rows. */
const EXPORT_PAGE = 1000;
const EXPORT_MAX = 50_000;

function FilterSelect({ label, value, onChange, options }: {
  label: string; value: string; onChange: (v: string) => void; options: { value: string; label: string }[];
}) {
  return (
    <NativeSelect.Root size="sm" maxW="52">
      <NativeSelect.Field aria-label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">{`Any ${label.toLowerCase()}`}</option>
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

export function ActivityPage({ workspace }: { workspace: Workspace }) {
  const supabase = useSupabase();
  const [filters, setFilters] = useState<ActivityFilters>({});
  const [page, setPage] = useState(0);
  const [exporting, setExporting] = useState(false);
  const [lookups] = useAsync(workspace.id, async () => ({
    team: await fetchTeam(supabase, workspace.id), stores: await fetchStores(supabase, workspace.id),
  }));
  const [activity, reload] = useAsync(`${workspace.id}|${JSON.stringify(filters)}|${page}`,
    () => fetchActivity(supabase, workspace.id, filters, page));
  const setFilter = (change: ActivityFilters) => {
    setFilters((f) => ({ ...f, ...change }));
    setPage(0);
  };
  const stores = lookups.status === 'ready' ? lookups.data.stores : [];
  const storeName = (id: string | null) => (id ? stores.find((s) => s.id === id)?.name ?? 'Other store' : '');
  // Entries written before the trail stored the actor's email (docs/adr/0175) take it from the team list.
  const emailOf = (userId: string | null) =>
    (userId && lookups.status === 'ready' ? lookups.data.team.find((m) => m.user_id === userId)?.email ?? null : null);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const rows = [];
      for (let p = 0; p * EXPORT_PAGE < EXPORT_MAX; p += 1) {
        const { rows: batch } = await fetchActivity(supabase, workspace.id, filters, p, EXPORT_PAGE);
        rows.push(...batch);
        if (batch.length < EXPORT_PAGE) break;
      }
      downloadText(`activity-${new Date().toISOString().slice(0, 10)}.csv`, activityCsv(rows, storeName, emailOf));
    } catch (error) {
      notify.error('Export failed', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setExporting(false);
    }
  };

  const hasMore = activity.status === 'ready' && activity.data.hasMore;
  return (
    <WorkspaceCard title="Activity" description="Every change in the business, written by the database: who, what, when."
      actions={<Button size="sm" variant="outline" loading={exporting} onClick={() => void exportCsv()}>Export CSV</Button>}>
      <Stack gap="4">
        <HStack gap="2" wrap="wrap" role="group" aria-label="Filters">
          <FilterSelect label="Person" value={filters.actorId ?? ''} onChange={(v) => setFilter({ actorId: v || undefined })}
            options={lookups.status === 'ready' ? lookups.data.team.map((m) => ({ value: m.user_id, label: actorName({ email: m.email, name: m.full_name }) })) : []} />
          <FilterSelect label="Store" value={filters.storeId ?? ''} onChange={(v) => setFilter({ storeId: v || undefined })}
            options={stores.map((s) => ({ value: s.id, label: s.name }))} />
          <FilterSelect label="Kind" value={filters.kind ?? ''} onChange={(v) => setFilter({ kind: v || undefined })}
            options={KINDS.map(([value, label]) => ({ value, label }))} />
          <Input size="sm" maxW="40" type="date" aria-label="From" value={filters.from ?? ''}
            onChange={(e) => setFilter({ from: e.currentTarget.value || undefined })} />
          <Input size="sm" maxW="40" type="date" aria-label="To" value={filters.to ?? ''}
            onChange={(e) => setFilter({ to: e.currentTarget.value || undefined })} />
        </HStack>
        {activity.status === 'loading' && <LoadingText />}
        {activity.status === 'error' && <LoadError message="Activity could not be loaded." error={activity.error} onRetry={reload} />}
        {activity.status === 'ready' && (activity.data.rows.length === 0 ? <Text color="fg.muted">Nothing matches.</Text> : (
          // At 390 px the table scrolls inside its card (focusable, so by keyboard too), never the whole page.
          <Table.ScrollArea tabIndex={0} aria-label="Activity, scrollable">
          <Table.Root size="sm" aria-label="Activity">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>When</Table.ColumnHeader><Table.ColumnHeader>Who</Table.ColumnHeader>
                <Table.ColumnHeader>What</Table.ColumnHeader><Table.ColumnHeader>Store</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {activity.data.rows.map((r) => (
                <Table.Row key={r.id}>
                  <Table.Cell>{new Date(r.at).toLocaleString()}</Table.Cell>
                  <Table.Cell>{actorName({ email: r.actor_email ?? emailOf(r.actor_id), name: r.actor_label })}</Table.Cell>
                  <Table.Cell>{r.kind}</Table.Cell>
                  <Table.Cell>{storeName(r.store_id)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
          </Table.ScrollArea>
        ))}
        <HStack justify="space-between">
          <Text fontSize="sm" color="fg.muted">Page {page + 1} · {ACTIVITY_PAGE_SIZE} entries a page</Text>
          <HStack>
            <Button size="sm" variant="outline" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>Previous</Button>
            <Button size="sm" variant="outline" disabled={!hasMore} onClick={() => setPage((p) => p + 1)}>Next</Button>
          </HStack>
        </HStack>
      </Stack>
    </WorkspaceCard>
  );
}

import { useEffect, useState } from 'react';
import { Box, Button, Heading, HStack, Link, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, NavLink, Route, Routes } from 'react-router-dom';
import { LoadingText } from '../../components/loading-text';
import { useSupabase } from '../../lib/platform-context';
import { useBusinessPacks } from '../../lib/use-business-packs';
import { ControlledRegisterPage } from './controlled/controlled-register-page';
import { CountsPage } from './counts-page';
import { ExpiringPage } from './expiring-page';
import { fetchStockStores, type StockStore } from './inventory-api';
import type { StoreContext } from './store-context';
import { LotsPage } from './lots-page';
import { PurchaseOrderPage } from './purchase-order-page';
import { PurchaseOrdersPage } from './purchase-orders-page';
import { RecallReportPage } from './recall-report-page';
import { ReorderPage } from './reorder-page';
import { SaleReceiptPage } from './sale-receipt-page';
import { SerialLookupPage } from './serial-lookup-page';
import { StockPage } from './stock-page';
import { SuppliersPage } from './suppliers-page';
import { TransfersPage } from './transfers-page';

const STORE_KEY = 'storewise.inventory.store';

/**
 * Tabs by role: cashiers see stock, expiring lots and the serial lookup only (no costs, no orders); the database
 * enforces it too. A tab with a pack shows when the business has that pack on (docs/adr/0250).
 */
const TABS: { label: string; to: string; end: boolean; manage: boolean; pack?: string }[] = [
  { label: 'Stock', to: '/dashboard/inventory', end: true, manage: false },
  { label: 'Purchase orders', to: '/dashboard/inventory/purchase-orders', end: false, manage: true },
  { label: 'Suppliers', to: '/dashboard/inventory/suppliers', end: false, manage: true },
  { label: 'Transfers', to: '/dashboard/inventory/transfers', end: false, manage: true },
  { label: 'Counts', to: '/dashboard/inventory/counts', end: false, manage: true },
  { label: 'Reorder', to: '/dashboard/inventory/reorder', end: false, manage: true },
  { label: 'Expiring', to: '/dashboard/inventory/expiring', end: false, manage: false },
  { label: 'Lots and recalls', to: '/dashboard/inventory/lots', end: false, manage: true },
  { label: 'Serial lookup', to: '/dashboard/inventory/serials', end: false, manage: false, pack: 'serials' },
  { label: 'Controlled register', to: '/dashboard/inventory/controlled', end: false, manage: true, pack: 'prescriptions' },
];

/** The Inventory area (/dashboard/inventory/*): one store chosen at the top applies to every tab. */
export function InventoryApp() {
  const supabase = useSupabase();
  const [stores, setStores] = useState<{ stores: StockStore[]; roles: Record<string, string> } | null>(null);
  const [failed, setFailed] = useState(false);
  const [storeId, setStoreId] = useState(() => {
    try {
      return window.localStorage.getItem(STORE_KEY) ?? '';
    } catch {
      return '';
    }
  });

  useEffect(() => {
    fetchStockStores(supabase).then((s) => {
      setStores(s);
      setStoreId((current) => (s.stores.some((x) => x.id === current) ? current : s.stores[0]?.id ?? ''));
    }, (error: unknown) => {
      console.error('Stores load failed:', error);
      setFailed(true);
    });
  }, [supabase]);

  const store = stores?.stores.find((s) => s.id === storeId);
  const packs = useBusinessPacks(store?.business_id);
  const role = store ? stores?.roles[store.business_id] ?? 'cashier' : 'cashier';
  const ctx: StoreContext | null = store && stores ? {
    store, role, canManage: role === 'owner' || role === 'manager', businessId: store.business_id,
    stores: stores.stores.filter((s) => s.business_id === store.business_id),
  } : null;

  return (
    <Stack gap="5">
      <Box>
        <Heading as="h1" size="xl">Inventory</Heading>
        <Text color="fg.muted">Stock on hand per store; every change is a ledger entry with who, when and why.</Text>
      </Box>
      {failed ? <Text color="fg.error">Your stores could not be loaded. Reload the page to try again.</Text>
        : !stores ? <LoadingText /> : !ctx ? (
          <Stack gap="2" borderWidth="1px" rounded="md" p="3" role="note" aria-label="No store yet" data-testid="inventory-no-store">
            <Text fontWeight="semibold">No store to show yet</Text>
            <Text>Stock is kept per store. Add your first store, then receive or count what is on its shelves.</Text>
            <div><Button asChild size="sm"><RouterLink to="/dashboard/business/stores">Add a store</RouterLink></Button></div>
          </Stack>
        ) : (
        <Stack gap="4">
          <NativeSelect.Root maxW="xs">
            <NativeSelect.Field aria-label="Store" value={storeId} onChange={(e) => {
              setStoreId(e.target.value);
              try {
                window.localStorage.setItem(STORE_KEY, e.target.value);
              } catch {
                // Private mode: the choice lasts for this page only.
              }
            }}>
              {stores.stores.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <HStack as="nav" aria-label="Inventory" gap="1" wrap="wrap" borderBottomWidth="1px" className="no-print">
            {TABS.filter((tab) => (ctx.canManage || !tab.manage) && (!tab.pack || packs?.includes(tab.pack))).map((tab) => (
              <Link key={tab.to} asChild px="3" py="2" fontWeight="medium" color="fg.muted" textDecoration="none"
                _currentPage={{ color: 'blue.fg', borderBottomWidth: '2px', borderColor: 'blue.solid' }}>
                <NavLink to={tab.to} end={tab.end}>{tab.label}</NavLink>
              </Link>
            ))}
          </HStack>
          <Routes>
            <Route index element={<StockPage key={ctx.store.id} ctx={ctx} />} />
            <Route path="expiring" element={<ExpiringPage key={ctx.store.id} ctx={ctx} />} />
            {/* Reachable whatever the packs: a serial sold before the pack was switched off can still be found. */}
            <Route path="serials" element={<SerialLookupPage key={ctx.businessId} ctx={ctx} />} />
            <Route path="receipts/:saleId" element={<SaleReceiptPage />} />
            {ctx.canManage && (
              <>
                <Route path="purchase-orders" element={<PurchaseOrdersPage key={ctx.store.id} ctx={ctx} />} />
                <Route path="purchase-orders/:orderId" element={<PurchaseOrderPage ctx={ctx} />} />
                <Route path="suppliers" element={<SuppliersPage ctx={ctx} />} />
                <Route path="transfers" element={<TransfersPage key={ctx.store.id} ctx={ctx} />} />
                <Route path="counts" element={<CountsPage key={ctx.store.id} ctx={ctx} />} />
                <Route path="reorder" element={<ReorderPage key={ctx.store.id} ctx={ctx} />} />
                <Route path="lots" element={<LotsPage ctx={ctx} />} />
                <Route path="recalls/:recallId" element={<RecallReportPage />} />
                {/* The database keeps the register for owners and managers whatever the packs (ADR 0390). */}
                <Route path="controlled" element={<ControlledRegisterPage key={ctx.store.id} ctx={ctx} />} />
              </>
            )}
            <Route path="*" element={<Text>This inventory page does not exist, or your role does not include it.</Text>} />
          </Routes>
        </Stack>
      )}
    </Stack>
  );
}

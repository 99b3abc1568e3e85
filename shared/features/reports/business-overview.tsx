import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Alert, Badge, Box, Heading, HStack, List, NativeSelect, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { LoadingText } from '../../components/loading-text';
import { formatDateTime } from '../../lib/format';
import { formatMinor } from '../../lib/money';
import { useSupabase } from '../../lib/platform-context';
import {
  changeAgainst, fetchOverview, fetchOverviewBusinesses, type CashierOverview, type DayFigures, type ManagerOverview,
  type Overview, type OverviewBusiness,
} from './overview-api';
import { countWaitingSales } from './waiting-sales';
import { useLiveChanges } from '../../lib/use-live-changes';
import { RegistersWaiting } from './registers-waiting';

/**
 * The overview reads 30 days of figures (business_overview): in a busy store it refreshes at most this often. A
 * trailing throttle (useLiveChanges: the first change schedules the reload, the rest of the burst rides on it):
 * every sale at every register touches sales and stock rows, so at 400 ms each open Overview re-ran the 30-day read
 * up to 2.5 times a second, load that grows with registers times open screens. A person glancing at the tiles does
 * not tell 2.5 s from at once; the figures are never more than that behind the last sale.
 */
const LIVE_SETTLE_MS = 2_500;

// recharts is loaded only when the chart is drawn (ADR 0144).
const SalesChart = lazy(() => import('./sales-chart'));

// In the currency's own digits (JPY has none, KWD three): shared/lib/money.ts.
const moneyIn = (currency: string) => (minor: number) => formatMinor(minor, currency, 'en-US');

function Card({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack as="section" aria-label={label} gap="1" borderWidth="1px" rounded="lg" bg="bg" p="4" minW="0" data-testid={testId}>
      <Text fontSize="sm" color="fg.muted" fontWeight="medium">{label}</Text>
      {children}
    </Stack>
  );
}

function Compare({ now, before, text }: { now: number; before: number; text: string }) {
  const change = changeAgainst(now, before);
  return (
    <Text fontSize="sm" color="fg.muted">
      {text}{' '}
      {change !== null && <Badge colorPalette={change >= 0 ? 'green' : 'red'}>{change >= 0 ? '+' : ''}{change} %</Badge>}
    </Text>
  );
}

function WaitingSales() {
  const [count, setCount] = useState<number | null | undefined>(undefined);
  useEffect(() => {
    let cancelled = false;
    countWaitingSales().then((n) => !cancelled && setCount(n), () => !cancelled && setCount(null));
    return () => {
      cancelled = true;
    };
  }, []);
  return (
    <Card label="Waiting to sync" testId="overview-waiting">
      <Text fontSize="2xl" fontWeight="bold" data-testid="overview-waiting-count">{count === undefined ? '…' : count ?? 'Unknown'}</Text>
      <Text fontSize="sm" color="fg.muted">
        {count ? 'Sales made offline on this device, sent when the register is back online.' : 'Sales from this device\'s register not yet sent.'}
      </Text>
    </Card>
  );
}

const weekday = (iso: string) => new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });

export function ManagerOverviewView({ overview: o, currency }: { overview: ManagerOverview; currency: string }) {
  const money = moneyIn(currency);
  const last = `vs ${weekday(o.today_date)} last week:`;
  const stat = (label: string, key: keyof DayFigures, show: (v: number) => string, testId: string) => (
    <Card label={label} testId={testId}>
      <Text fontSize="2xl" fontWeight="bold" data-testid={`${testId}-value`}>{show(o.today[key])}</Text>
      <Compare now={o.today[key]} before={o.last_week[key]} text={`${last} ${show(o.last_week[key])}`} />
    </Card>
  );
  const total30 = o.daily.reduce((a, d) => a + d.sales, 0);
  return (
    <Stack gap="4">
      <SimpleGrid columns={{ base: 1, sm: 2, xl: 5 }} gap="4">
        {stat("Today's sales", 'sales', money, 'overview-sales')}
        {stat('Transactions', 'transactions', (v) => String(v), 'overview-transactions')}
        {stat('Average basket', 'average_basket', money, 'overview-basket')}
        {stat('Gross profit', 'gross_profit', money, 'overview-profit')}
        <WaitingSales />
      </SimpleGrid>
      <Card label="Sales, last 30 days" testId="overview-chart">
        <Text fontSize="sm" color="fg.muted" data-testid="overview-30-total">Total {money(total30)}, net of refunds</Text>
        <Suspense fallback={<LoadingText label="Loading chart..." />}>
          <SalesChart data={o.daily.map((d) => ({ label: d.day, value: d.sales }))} name="Sales" testId="overview-sales-chart" currency={currency} />
        </Suspense>
      </Card>
      <SimpleGrid columns={{ base: 1, lg: 3 }} gap="4">
        <Card label="Top products, 30 days (as rung up)" testId="overview-top">
          {o.top_products.length === 0 ? <Text color="fg.muted">No sales yet.</Text> : (
            <List.Root as="ol" gap="1" ps="5">
              {o.top_products.map((t) => (
                <List.Item key={t.variant_id}>
                  <HStack justify="space-between" gap="2"><Text truncate>{t.description}</Text><Text>{money(t.revenue)}</Text></HStack>
                </List.Item>
              ))}
            </List.Root>
          )}
        </Card>
        <Card label={`Low stock (${o.low_stock_count})`} testId="overview-low-stock">
          {o.low_stock.length === 0 ? <Text color="fg.muted">Nothing at or under its reorder point.</Text> : (
            <List.Root gap="1" variant="plain">
              {o.low_stock.map((l) => (
                <List.Item key={`${l.store_id}|${l.variant_id}`}>
                  <HStack justify="space-between" gap="2" w="full"><Text truncate>{l.product_name}</Text><Text>{l.on_hand} / {l.reorder_point}</Text></HStack>
                </List.Item>
              ))}
            </List.Root>
          )}
        </Card>
        <Card label={`Lots expiring within 14 days (${o.expiring_count})`} testId="overview-expiring">
          {o.expiring.length === 0 ? <Text color="fg.muted">No lot expires soon.</Text> : (
            <List.Root gap="1" variant="plain">
              {o.expiring.map((l) => (
                <List.Item key={`${l.store_id}|${l.lot_id}`}>
                  <HStack justify="space-between" gap="2" w="full"><Text truncate>{l.product_name} ({l.lot_number})</Text><Text>{l.expires_on}</Text></HStack>
                </List.Item>
              ))}
            </List.Root>
          )}
        </Card>
      </SimpleGrid>
      <Text fontSize="sm"><RouterLink to="/dashboard/reports">Open the reports</RouterLink></Text>
    </Stack>
  );
}

export function CashierOverviewView({ overview: o, currency }: { overview: CashierOverview; currency: string }) {
  const money = moneyIn(currency);
  const s = o.shift;
  return (
    <SimpleGrid columns={{ base: 1, sm: 2, xl: 4 }} gap="4">
      <Card label={s && !s.closed_at ? 'Your open shift' : 'Your last shift'} testId="overview-shift">
        {s ? (
          <>
            <Text fontSize="xl" fontWeight="bold">{s.register_name}</Text>
            <Text fontSize="sm" color="fg.muted">Opened {formatDateTime(s.opened_at)}{s.closed_at ? `, closed ${formatDateTime(s.closed_at)}` : ''}</Text>
          </>
        ) : <Text color="fg.muted">You have not opened a shift yet.</Text>}
      </Card>
      {s && (
        <>
          <Card label="Your sales" testId="overview-shift-sales">
            <Text fontSize="2xl" fontWeight="bold">{money(s.sales_total - s.refunds_total)}</Text>
            <Text fontSize="sm" color="fg.muted">{s.sales_count} {s.sales_count === 1 ? 'sale' : 'sales'}, {money(s.refunds_total)} refunded</Text>
          </Card>
          <Card label="Cash taken">
            <Text fontSize="2xl" fontWeight="bold">{money(s.cash_sales)}</Text>
            <Text fontSize="sm" color="fg.muted">Opening float {money(s.opening_float)}</Text>
          </Card>
        </>
      )}
      <WaitingSales />
    </SimpleGrid>
  );
}

/**
 * The Overview's business section (issue 14), mounted by the dashboard through a slot. Owners and managers see
 * today against the same weekday last week, 30 days of sales, top products, low stock, expiring lots and the
 * sales waiting on this device; cashiers their own shift only (the database answers them nothing else).
 */
export function BusinessOverview() {
  const supabase = useSupabase();
  const [businesses, setBusinesses] = useState<OverviewBusiness[] | null>(null);
  const [businessId, setBusinessId] = useState('');
  const [state, setState] = useState<{ key: string; overview: Overview | null; error: string | null } | null>(null);

  useEffect(() => {
    let cancelled = false;
    fetchOverviewBusinesses(supabase).then(
      (list) => {
        if (cancelled) return;
        setBusinesses(list);
        setBusinessId((current) => current || list[0]?.id || '');
      },
      () => !cancelled && setBusinesses([]),
    );
    return () => {
      cancelled = true;
    };
  }, [supabase]);

  // Live for everyone on the page (issue 28): a sale anywhere in the business (RLS sends a cashier only their
  // own), a stock change (the low-stock tile) or a register's outbox report refreshes the figures in place.
  const [version, setVersion] = useState(0);
  const role = businesses?.find((b) => b.id === businessId)?.role;
  const manages = role === 'owner' || role === 'manager';
  useLiveChanges(supabase, [
    { table: 'sales', filter: `business_id=eq.${businessId}` },
    { table: 'refunds', filter: `business_id=eq.${businessId}` },
    ...(manages ? [{ table: 'stock_balances', filter: `business_id=eq.${businessId}` }] : []),
  ], () => setVersion((v) => v + 1), Boolean(businessId), LIVE_SETTLE_MS);

  useEffect(() => {
    if (!businessId) return;
    let cancelled = false;
    fetchOverview(supabase, businessId).then(
      (overview) => !cancelled && setState({ key: businessId, overview, error: null }),
      (error: unknown) => !cancelled && setState({ key: businessId, overview: null, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      cancelled = true;
    };
  }, [supabase, businessId, version]);

  if (!businesses || businesses.length === 0) return null;
  const business = businesses.find((b) => b.id === businessId) ?? businesses[0]!;
  const current = state?.key === businessId ? state : null;
  return (
    <Box as="section" aria-labelledby="business-overview-title" data-testid="business-overview">
      <HStack justify="space-between" mb="3" wrap="wrap" gap="2">
        <Heading as="h2" size="lg" id="business-overview-title">{business.role === 'cashier' ? 'Your shift' : 'Your business today'}</Heading>
        {businesses.length > 1 && (
          <NativeSelect.Root size="sm" w="auto">
            <NativeSelect.Field aria-label="Business" value={businessId} onChange={(e) => setBusinessId(e.target.value)}>
              {businesses.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        )}
      </HStack>
      {!current && <LoadingText label="Loading your business..." />}
      {current?.error && <Alert.Root status="error"><Alert.Title>We couldn't load your business figures.</Alert.Title></Alert.Root>}
      {current?.overview?.role === 'cashier' && <CashierOverviewView overview={current.overview} currency={business.currency} />}
      {current?.overview && current.overview.role !== 'cashier' && <ManagerOverviewView overview={current.overview} currency={business.currency} />}
      {current?.overview && current.overview.role !== 'cashier' && <RegistersWaiting businessId={business.id} />}
    </Box>
  );
}

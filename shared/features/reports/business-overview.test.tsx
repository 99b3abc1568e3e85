import 'fake-indexeddb/auto';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, within } from '@testing-library/react';
import { openDB } from 'idb';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CashierOverviewView, ManagerOverviewView } from './business-overview';
import { managerOverviewSchema, type CashierOverview } from './overview-api';
import { POS_DB_NAME } from './waiting-sales';

// The chart itself is recharts drawing SVG at a measured size (nothing to measure in jsdom): record what it gets.
const charted = vi.hoisted(() => ({ points: [] as { label: string; value: number }[] }));
vi.mock('./sales-chart', () => ({
  default: ({ data }: { data: { label: string; value: number }[] }) => {
    charted.points = data;
    return <div data-testid="chart-stub">{data.length} bars</div>;
  },
}));

const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}`;
const overview = managerOverviewSchema.parse({
  role: 'owner',
  today_date: day(23),
  today: { sales: 125_000, refunds: 1_000, transactions: 50, average_basket: 2_520, gross_profit: 40_000 },
  last_week: { sales: 100_000, refunds: 0, transactions: 40, average_basket: 2_500, gross_profit: 50_000 },
  daily: Array.from({ length: 30 }, (_, i) => ({ day: i < 7 ? `2026-10-${25 + i}` : day(i - 6), sales: i === 29 ? 125_000 : 1_000 })),
  top_products: [{ variant_id: 'v1', description: 'Whole milk 1 L', units: '30', revenue: '9000' }],
  low_stock: [{ store_id: 's1', variant_id: 'v2', sku: 'PAN-1', product_name: 'Rice 1 kg', on_hand: 3, reorder_point: 20 }],
  low_stock_count: 4,
  expiring: [],
  expiring_count: 0,
});

function wrap(children: React.ReactNode) {
  return render(<ChakraProvider value={defaultSystem}><MemoryRouter>{children}</MemoryRouter></ChakraProvider>);
}

beforeAll(async () => {
  // The register's outbox on this device: two sales and a refund waiting.
  const db = await openDB(POS_DB_NAME, 2, {
    upgrade(d) {
      d.createObjectStore('outbox', { keyPath: 'id' }).createIndex('bySeq', 'seq', { unique: true });
      d.createObjectStore('meta', { keyPath: 'key' });
    },
  });
  await db.put('outbox', { id: 'a', seq: 1, kind: 'sale', payload: {}, createdAt: '', attempts: 0 });
  await db.put('outbox', { id: 'b', seq: 2, payload: {}, createdAt: '', attempts: 0 });
  await db.put('outbox', { id: 'c', seq: 3, kind: 'refund', payload: {}, createdAt: '', attempts: 0 });
  db.close();
});

describe('ManagerOverviewView', { timeout: 30_000 }, () => {
  it('shows today against the same weekday last week with the change', () => {
    wrap(<ManagerOverviewView overview={overview} currency="USD" />);
    const sales = screen.getByRole('region', { name: "Today's sales" });
    expect(sales).toHaveTextContent('$1,250.00');
    expect(sales).toHaveTextContent('vs Monday last week: $1,000.00');
    expect(sales).toHaveTextContent('+25 %');
    expect(screen.getByRole('region', { name: 'Transactions' })).toHaveTextContent('50');
    expect(screen.getByRole('region', { name: 'Average basket' })).toHaveTextContent('$25.20');
    const profit = screen.getByRole('region', { name: 'Gross profit' });
    expect(profit).toHaveTextContent('$400.00');
    expect(profit).toHaveTextContent('-20 %');
  });

  it('shows amounts in the currency\'s own digits (yen have none, dinars three)', () => {
    const { unmount } = wrap(<ManagerOverviewView overview={overview} currency="JPY" />);
    expect(screen.getByRole('region', { name: "Today's sales" })).toHaveTextContent('¥125,000');
    unmount();
    wrap(<ManagerOverviewView overview={overview} currency="KWD" />);
    expect(screen.getByRole('region', { name: "Today's sales" })).toHaveTextContent(/KWD\s125\.000/);
  });

  it('charts 30 days and totals them; lists top products, low stock and no expiring lot', async () => {
    wrap(<ManagerOverviewView overview={overview} currency="USD" />);
    expect(await screen.findByTestId('chart-stub')).toHaveTextContent('30 bars');
    expect(charted.points.at(-1)).toEqual({ label: day(23), value: 125_000 });
    expect(screen.getByTestId('overview-30-total')).toHaveTextContent('Total $1,540.00');
    expect(within(screen.getByRole('region', { name: 'Top products, 30 days (as rung up)' })).getByText('Whole milk 1 L')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Low stock (4)' })).toHaveTextContent('Rice 1 kg3 / 20');
    expect(screen.getByRole('region', { name: 'Lots expiring within 14 days (0)' })).toHaveTextContent('No lot expires soon.');
  });

  it('counts the sales waiting in this device\'s register outbox (not the refunds)', async () => {
    wrap(<ManagerOverviewView overview={overview} currency="USD" />);
    const waiting = screen.getByRole('region', { name: 'Waiting to sync' });
    expect(await within(waiting).findByText('2')).toBeInTheDocument();
  });
});

describe('CashierOverviewView', { timeout: 30_000 }, () => {
  const cashier: CashierOverview = {
    role: 'cashier',
    shift: { shift_id: 's', store_id: 'st', register_name: 'Till 2', opened_at: '2026-11-23T08:00:00Z', closed_at: null,
      opening_float: 20_000, sales_count: 12, sales_total: 48_000, refunds_total: 2_000, cash_sales: 15_000 },
  };

  it('shows the cashier\'s own shift and no business figures, cost or profit', () => {
    wrap(<CashierOverviewView overview={cashier} currency="USD" />);
    expect(screen.getByRole('region', { name: 'Your open shift' })).toHaveTextContent('Till 2');
    expect(screen.getByRole('region', { name: 'Your sales' })).toHaveTextContent('$460.0012 sales, $20.00 refunded');
    expect(screen.queryByText(/profit/i)).toBeNull();
    expect(screen.queryByRole('region', { name: "Today's sales" })).toBeNull();
  });

  it('says so when the cashier has no shift yet', () => {
    wrap(<CashierOverviewView overview={{ role: 'cashier', shift: null }} currency="USD" />);
    expect(screen.getByRole('region', { name: 'Your last shift' })).toHaveTextContent('You have not opened a shift yet.');
  });
});

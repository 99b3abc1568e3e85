import { Chart, useChart } from '@chakra-ui/charts';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { currencyDigits, minorToMajor, minorToPlain, type Currency } from '../../lib/money';

export interface ChartPoint {
  label: string;
  /** Minor units. */
  value: number;
}

/**
 * A bar chart of an amount per period (Chakra's charts on recharts, ADR 0144). This module is the only one that
 * imports them and is loaded with React.lazy where a chart is shown, so recharts (about 100 KB gzip) never
 * reaches the landing page or screens without a chart. The figures are also in a table or list next to it: the
 * chart is a picture (aria-hidden), not the only place a number is.
 */
export default function SalesChart({ data, name, testId, currency = null }: { data: ChartPoint[]; name: string; testId?: string; currency?: Currency }) {
  const chart = useChart({
    data: data.map((d) => ({ label: d.label, [name]: minorToMajor(d.value, currency) })),
    series: [{ name, color: 'teal.solid' }],
  });
  return (
    <Chart.Root maxH="14rem" chart={chart} data-testid={testId} aria-hidden>
      {/* No keyboard layer: the chart is a picture (aria-hidden), and a focusable svg inside it breaks aria-hidden-focus. */}
      <BarChart responsive accessibilityLayer={false} data={chart.data}>
        <CartesianGrid stroke={chart.color('border')} vertical={false} />
        <XAxis axisLine={false} tickLine={false} dataKey={chart.key('label')} tickFormatter={(v: string) => v.slice(5)} />
        <YAxis axisLine={false} tickLine={false} width={56} tickFormatter={(v: number) => minorToPlain(v * 10 ** currencyDigits(currency), currency).replace(/\.0+$/, '')} />
        <Tooltip cursor={{ fill: chart.color('bg.muted') }} animationDuration={0} content={<Chart.Tooltip />} />
        {chart.series.map((s) => (
          <Bar key={s.name} isAnimationActive={false} dataKey={chart.key(s.name)} fill={chart.color(s.color)} radius={2} />
        ))}
      </BarChart>
    </Chart.Root>
  );
}

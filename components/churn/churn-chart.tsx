'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { EVENT_KINDS, type HourBucket } from '@/lib/console/churn/summary';
import { CHURN_COLORS, type ChartedKind } from './churn-colors';

/** Events per hour, stacked by kind. */
export function ChurnChart({ perHour }: { perHour: HourBucket[] }) {
  const data = perHour.map((b) => ({ hour: b.hour.slice(5, 13).replace('T', ' ') + 'h', ...b.counts }));
  return (
    <div
      className="h-72 w-full"
      data-testid="churn-chart"
      role="img"
      aria-label="Audit events per hour, stacked by kind"
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 800, height: 288 }}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
          <XAxis dataKey="hour" fontSize={11} minTickGap={24} />
          <YAxis allowDecimals={false} fontSize={11} />
          {/* Colours from the page's own palette, so the hour label is readable in dark mode too */}
          <Tooltip
            contentStyle={{ background: 'var(--background)', color: 'var(--foreground)', borderColor: '#a1a1aa' }}
            labelStyle={{ color: 'var(--foreground)', fontWeight: 600 }}
            cursor={{ fill: 'rgba(161,161,170,0.15)' }}
          />
          <Legend formatter={(value: string) => <span className="text-zinc-800 dark:text-zinc-200">{value}</span>} />
          {/* a force-release's recorded attempt is not churn: its outcome (released or refused) is */}
          {EVENT_KINDS.filter((kind): kind is ChartedKind => kind !== 'force-release-requested').map((kind) => (
            <Bar key={kind} dataKey={kind} stackId="events" fill={CHURN_COLORS[kind]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatUsd } from '../../../domain/fees.ts';

/**
 * The growth tools' charts (recharts). Only the tool screens import this module, so the charting
 * library is its own chunk, fetched on those routes and never by the dashboard or the deals list.
 */
type Point = { label: string; value: number | null };

const axisStyle = { fill: 'var(--muted)', fontSize: 12 };

export function MoneyBarChart({ data, label }: { data: readonly Point[]; label: string }) {
  return (
    <figure className="growth-chart" aria-label={label}>
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={[...data]} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
          <XAxis dataKey="label" tick={axisStyle} />
          <YAxis tick={axisStyle} tickFormatter={(v: number) => formatUsd(v, { compact: true })} width={72} />
          <Tooltip
            formatter={(v) => formatUsd(Number(v))}
            contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }}
          />
          <Bar dataKey="value" name={label} fill="var(--primary)" radius={[4, 4, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="visually-hidden">
        {data.map((p) => `${p.label}: ${formatUsd(p.value ?? 0)}`).join(', ')}
      </figcaption>
    </figure>
  );
}

/** Counts per named item, as horizontal bars so long names (deal titles) stay readable. */
export function CountBarChart({ data, label }: { data: readonly Point[]; label: string }) {
  return (
    <figure className="growth-chart" aria-label={label}>
      <ResponsiveContainer width="100%" height={Math.max(160, data.length * 34 + 40)}>
        <BarChart data={[...data]} layout="vertical" margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" horizontal={false} />
          <XAxis type="number" tick={axisStyle} allowDecimals={false} />
          <YAxis
            type="category"
            dataKey="label"
            tick={axisStyle}
            width={150}
            tickFormatter={(v: string) => (v.length > 24 ? `${v.slice(0, 23)}…` : v)}
          />
          <Tooltip contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }} />
          <Bar dataKey="value" name={label} fill="var(--primary)" radius={[0, 4, 4, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="visually-hidden">{data.map((p) => `${p.label}: ${p.value ?? 0}`).join(', ')}</figcaption>
    </figure>
  );
}

export function RatingLineChart({ data, label }: { data: readonly Point[]; label: string }) {
  return (
    <figure className="growth-chart" aria-label={label}>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={[...data]} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
          <XAxis dataKey="label" tick={axisStyle} />
          <YAxis domain={[0, 5]} ticks={[1, 2, 3, 4, 5]} tick={axisStyle} width={32} />
          <Tooltip contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }} />
          <Line
            type="monotone"
            dataKey="value"
            name={label}
            stroke="var(--primary)"
            strokeWidth={2}
            connectNulls
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
      <figcaption className="visually-hidden">
        {data.map((p) => `${p.label}: ${p.value ?? 'no reviews'}`).join(', ')}
      </figcaption>
    </figure>
  );
}

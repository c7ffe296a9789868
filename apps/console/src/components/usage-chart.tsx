import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** A bar chart of server-aggregated rows; colors from the Mantine theme, so it follows dark mode. */
export function UsageChart({
  rows,
  x,
  bars,
  label,
  height = 260,
}: {
  rows: Record<string, string | number>[];
  x: string;
  bars: { key: string; name: string; color: string }[];
  label: string;
  height?: number;
}) {
  return (
    <figure role="img" aria-label={label} style={{ margin: 0, width: '100%', height }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-default-border)" />
          <XAxis dataKey={x} tick={{ fill: 'var(--mantine-color-text)', fontSize: 12 }} />
          <YAxis tick={{ fill: 'var(--mantine-color-text)', fontSize: 12 }} allowDecimals={false} />
          <Tooltip contentStyle={{ background: 'var(--mantine-color-body)', color: 'var(--mantine-color-text)' }} />
          <Legend />
          {bars.map((bar) => (
            <Bar key={bar.key} dataKey={bar.key} name={bar.name} fill={bar.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

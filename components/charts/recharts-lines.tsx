"use client";
// Line charts over recharts (loaded on demand through ./line-chart): one line per series, each with its own points (series need not share timestamps), a
// dot on every point so sparse series stay readable, and a legend that wraps on narrow screens.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export const SERIES_COLORS = ["#4f8cff", "#2fbf71", "#f5a524", "#ef4f5a", "#b072ff", "#22c3d6", "#e86fb8", "#9aa4b8"];

export interface ChartSeries {
  id: string;
  name: string;
  points: { x: number; y: number }[];
}

const timeLabel = (spanS: number) => (t: number) => {
  const d = new Date(t * 1000);
  if (spanS <= 2 * 86_400) return d.toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" });
  return d.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
};

export function TimeLineChart({
  series,
  height = 280,
  yFormat,
  yDomain,
  label,
  showLegend = true,
  xIsTime = true,
  xFormat,
}: {
  series: ChartSeries[];
  height?: number;
  yFormat: (v: number) => string;
  yDomain?: [number | "auto" | "dataMin" | "dataMax", number | "auto" | "dataMin" | "dataMax"];
  label: string;
  showLegend?: boolean;
  xIsTime?: boolean;
  xFormat?: (v: number) => string;
}) {
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const span = xs.length ? Math.max(...xs) - Math.min(...xs) : 0;
  const formatX = xFormat ?? (xIsTime ? timeLabel(span) : (v: number) => String(v));
  return (
    <figure className="chart" aria-label={label} data-testid="chart">
      <ResponsiveContainer width="100%" height={height}>
        <LineChart margin={{ top: 8, right: 12, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="#232a3a" strokeDasharray="3 3" />
          <XAxis
            dataKey="x"
            type="number"
            domain={["dataMin", "dataMax"]}
            tickFormatter={formatX}
            stroke="#8a93a6"
            fontSize={12}
            allowDuplicatedCategory={false}
            allowDecimals={xIsTime}
            minTickGap={24}
          />
          <YAxis tickFormatter={yFormat} stroke="#8a93a6" fontSize={12} width={52} domain={yDomain ?? ["auto", "auto"]} />
          <Tooltip
            contentStyle={{ background: "#131823", border: "1px solid #2a3245", borderRadius: 6, fontSize: 13 }}
            labelFormatter={(v) => (xIsTime ? new Date(Number(v) * 1000).toUTCString().replace(" GMT", " UTC") : formatX(Number(v)))}
            formatter={(v) => yFormat(Number(v))}
          />
          {showLegend && series.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
          {series.map((s, i) => (
            <Line
              key={s.id}
              data={s.points}
              dataKey="y"
              name={s.name.length > 48 ? `${s.name.slice(0, 46)}…` : s.name}
              stroke={SERIES_COLORS[i % SERIES_COLORS.length]}
              strokeWidth={2}
              dot={{ r: 2, strokeWidth: 0, fill: SERIES_COLORS[i % SERIES_COLORS.length] }}
              activeDot={{ r: 4 }}
              isAnimationActive={false}
              connectNulls
              // Straight segments between rounds (categorical steps); smooth curves only through time series.
              type={xIsTime ? "monotone" : "linear"}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** A tiny chart without axes, for the embeddable widget. */
export function Sparkline({
  points,
  height = 48,
  color = SERIES_COLORS[0],
  label,
}: {
  points: { x: number; y: number }[];
  height?: number;
  color?: string;
  label: string;
}) {
  return (
    <figure className="sparkline" aria-label={label} data-testid="sparkline">
      <ResponsiveContainer width="100%" height={height}>
        <LineChart data={points} margin={{ top: 4, right: 4, bottom: 4, left: 4 }}>
          <XAxis dataKey="x" type="number" domain={["dataMin", "dataMax"]} hide />
          <YAxis domain={["dataMin", "dataMax"]} hide />
          <Line
            dataKey="y"
            stroke={color}
            strokeWidth={2}
            dot={{ r: 1.5, strokeWidth: 0, fill: color }}
            isAnimationActive={false}
            type="monotone"
          />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

"use client";
// recharts is the largest library on the dashboard (~105 KB gzip): it is loaded after the page, not as part of its
// first-load JavaScript. Charts only draw in the browser anyway (they measure their container), so nothing is lost
// server-side; a placeholder of the same height keeps the layout still while the chunk arrives.
import dynamic from "next/dynamic";
import type { ComponentProps } from "react";
import type * as Impl from "./recharts-lines";

export type { ChartSeries } from "./recharts-lines";

function Placeholder({ height }: { height: number }) {
  return <div className="chart-placeholder" style={{ height }} role="status" aria-label="Loading chart" />;
}

const LazyTimeLineChart = dynamic(() => import("./recharts-lines").then((m) => m.TimeLineChart), {
  ssr: false,
  loading: () => <Placeholder height={280} />,
});
const LazySparkline = dynamic(() => import("./recharts-lines").then((m) => m.Sparkline), {
  ssr: false,
  loading: () => <Placeholder height={48} />,
});

export function TimeLineChart(props: ComponentProps<typeof Impl.TimeLineChart>) {
  return <LazyTimeLineChart {...props} />;
}

export function Sparkline(props: ComponentProps<typeof Impl.Sparkline>) {
  return <LazySparkline {...props} />;
}

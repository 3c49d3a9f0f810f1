// The daily counts of a finder's analytics as a line chart (uPlot: a few tens of KB, canvas
// drawn, fast with 90 days of several series). The canvas is an image to assistive technology,
// named by a summary; the same numbers are in the table beside it (analytics-panel.tsx).
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { t } from '../i18n/i18n.ts';

export interface DailySeries {
  dates: string[];
  series: { label: string; values: number[]; color: string }[];
}

const HEIGHT = 260;

export function DailyChart({ data, summary }: { data: DailySeries; summary: string }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const seconds = data.dates.map((date) => Date.parse(`${date}T00:00:00Z`) / 1000);
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        series: [
          { label: t('analytics.day') },
          ...data.series.map((series) => ({ label: series.label, stroke: series.color, width: 2 })),
        ],
        axes: [{}, { size: 56 }],
        scales: { y: { range: (_chart, _min, max) => [0, Math.max(4, max)] } },
      },
      [seconds, ...data.series.map((series) => series.values)],
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [data]);
  return <div ref={container} className="daily-chart" role="img" aria-label={summary} />;
}

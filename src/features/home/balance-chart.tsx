/**
 * The balance over time (balanceHistory): one line chart per currency, drawn as an inline SVG
 * (no chart library). The balance stays as it is between days with movement, so the line steps.
 * For screen readers the picture is an image whose label sums it up (first and last balance,
 * lowest and highest), and every point is in a table under "Show the data points". The line's
 * drawing animation is off for those who ask for reduced motion (home.css).
 */
import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { formatDate, formatMoney } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { DEFAULT_CHART_DAYS, balanceHistoryQuery } from './queries.ts';

export const CHART_PERIODS = [30, DEFAULT_CHART_DAYS, 365] as const;
export type ChartPeriod = (typeof CHART_PERIODS)[number];

type Point = { date: string; balance: string };

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { top: 16, right: 16, bottom: 28, left: 16 };

/** The points placed in the chart's box; a step line from each point to the next. */
export function chartGeometry(points: readonly Point[]) {
  const sorted = [...points].sort((a, b) => a.date.localeCompare(b.date));
  const times = sorted.map((p) => Date.parse(p.date));
  // Drawing only: positions may be floats; every number shown is formatted from the strings.
  const values = sorted.map((p) => Number(p.balance));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (low === high) {
    low -= 1;
    high += 1;
  }
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (t: number) => PAD.left + (t1 === t0 ? innerW / 2 : ((t - t0) / (t1 - t0)) * innerW);
  const y = (value: number) => PAD.top + (1 - (value - low) / (high - low)) * innerH;
  const xy = sorted.map((_, i) => ({ x: x(times[i]!), y: y(values[i]!) }));
  const path = xy.map((p, i) => (i === 0 ? `M${p.x.toFixed(1)} ${p.y.toFixed(1)}` : `H${p.x.toFixed(1)} V${p.y.toFixed(1)}`)).join(' ');
  const minIndex = values.indexOf(Math.min(...values));
  const maxIndex = values.indexOf(Math.max(...values));
  return { sorted, xy, path, lowest: sorted[minIndex]!, highest: sorted[maxIndex]! };
}

export function BalanceChartSection({ actingCustomerId }: { actingCustomerId: number | null }) {
  const { t } = useLingui();
  const id = useId();
  const [days, setDays] = useState<ChartPeriod>(DEFAULT_CHART_DAYS);
  const [currency, setCurrency] = useState<string | null>(null);
  const query = useQuery(balanceHistoryQuery(actingCustomerId, days));
  const periodNames: Record<ChartPeriod, string> = { 30: t`Last 30 days`, 90: t`Last 90 days`, 365: t`Last 12 months` };
  const series = (query.data ?? []).filter((s) => s.points.length > 0);
  const shown = series.find((s) => s.currency === currency) ?? series[0];

  return (
    <section className="home-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Balance over time`}</h2>
      <div className="chart-controls">
        <div className="field">
          <label htmlFor={`${id}-period`}>{t`Period`}</label>
          <select id={`${id}-period`} value={days} onChange={(e) => setDays(Number(e.currentTarget.value) as ChartPeriod)}>
            {CHART_PERIODS.map((d) => (
              <option key={d} value={d}>
                {periodNames[d]}
              </option>
            ))}
          </select>
        </div>
        {series.length > 1 && shown ? (
          <div className="field">
            <label htmlFor={`${id}-currency`}>{t`Currency`}</label>
            <select id={`${id}-currency`} value={shown.currency} onChange={(e) => setCurrency(e.currentTarget.value)}>
              {series.map((s) => (
                <option key={s.currency} value={s.currency}>
                  {s.currency}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>
      {query.isPending ? (
        <Spinner label={t`Loading the balance history`} />
      ) : query.isError ? (
        <Alert tone="warning" title={t`The balance history could not be loaded`}>
          <p>{query.error instanceof MethodCallError ? describeFailure(query.error.failure) : t`Unknown error`}</p>
        </Alert>
      ) : !shown ? (
        <p>{t`There is no balance history for this period yet.`}</p>
      ) : (
        <BalanceChart currency={shown.currency} points={shown.points} periodName={periodNames[days]} />
      )}
    </section>
  );
}

export function BalanceChart({ currency, points, periodName }: { currency: string; points: readonly Point[]; periodName: string }) {
  const { t } = useLingui();
  const lang = getUiLanguage();
  const { sorted, xy, path, lowest, highest } = chartGeometry(points);
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  const money = (p: Point) => formatMoney(p.balance, currency, lang);
  const day = (p: Point) => formatDate(`${p.date.slice(0, 10)}T12:00:00Z`, lang);
  const lowestText = money(lowest);
  const highestText = money(highest);
  const firstText = `${money(first)} (${day(first)})`;
  const lastText = `${money(last)} (${day(last)})`;
  const summary = t`${currency} balance, ${periodName}: from ${firstText} to ${lastText}; lowest ${lowestText}, highest ${highestText}.`;

  return (
    <figure className="balance-chart">
      <svg role="img" aria-label={summary} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} focusable="false">
        <line className="chart-axis" x1={PAD.left} x2={WIDTH - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} />
        <path className="chart-line" d={path} pathLength={1} />
        {xy.map((p, i) => (
          <circle key={sorted[i]!.date} className="chart-point" cx={p.x} cy={p.y} r={3} />
        ))}
      </svg>
      <figcaption className="chart-legend" aria-hidden="true">
        <span>{day(first)}</span>
        <span>{t`Lowest ${lowestText} · highest ${highestText}`}</span>
        <span>{day(last)}</span>
      </figcaption>
      <details>
        <summary>{t`Show the data points`}</summary>
        <table className="table">
          <caption>{t`${currency} balance by day, ${periodName}`}</caption>
          <thead>
            <tr>
              <th scope="col">{t`Date`}</th>
              <th scope="col" className="num">{t`Balance`}</th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((p) => (
              <tr key={p.date}>
                <th scope="row">
                  <time dateTime={p.date}>{day(p)}</time>
                </th>
                <td className="num">{money(p)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

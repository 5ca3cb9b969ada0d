/**
 * The balance over time (balanceHistory): one line chart per currency, drawn as an inline SVG
 * (no chart library). The balance stays as it is between days with movement, so the line steps.
 *
 * The chart fills its box (issue 13): the SVG is drawn at the width the box has (a ResizeObserver;
 * 640 where there is none, as in tests), with a value axis (lowest, middle, highest) and dates
 * under the line. Pointing at the chart or moving along it with the arrow keys (it takes the
 * focus) shows the day's balance beside a marker; the keyboard's choice is also announced.
 * For screen readers the picture is an image whose label sums it up (first and last balance,
 * lowest and highest), and every point is in a table under "Show the data points". The line's
 * drawing animation is off for those who ask for reduced motion (home.css).
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { formatDate, formatMoney } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Deferred } from '../../ui/deferred.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { DEFAULT_CHART_DAYS, balanceHistoryQuery } from './queries.ts';

export const CHART_PERIODS = [30, DEFAULT_CHART_DAYS, 365] as const;
export type ChartPeriod = (typeof CHART_PERIODS)[number];

type Point = { date: string; balance: string };

const DEFAULT_WIDTH = 640;
const HEIGHT = 240;
/** room for the value labels on the left and the dates below */
const PAD = { top: 16, right: 16, bottom: 32, left: 88 };

/** The points placed in a box `width` wide; a step line from each point to the next. */
export function chartGeometry(points: readonly Point[], WIDTH = DEFAULT_WIDTH) {
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
  // the value axis: lowest, middle and highest, where the line can reach them
  const ticks = [low, (low + high) / 2, high].map((value) => ({ value, y: y(value) }));
  return { sorted, xy, path, lowest: sorted[minIndex]!, highest: sorted[maxIndex]!, ticks, width: WIDTH };
}

/** The width of an element as it is laid out, followed as it changes. */
function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.round(entry?.contentRect.width ?? 0);
      if (next > 0) setWidth(next);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
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
    <section className="card home-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">{t`Balance over time`}</h2>
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
  const [boxRef, width] = useWidth<HTMLDivElement>();
  const { sorted, xy, path, lowest, highest, ticks } = useMemo(() => chartGeometry(points, width), [points, width]);
  const [active, setActive] = useState<number | null>(null);
  const [tableOpen, setTableOpen] = useState(false);
  const [announced, setAnnounced] = useState('');
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  const money = (p: Point) => formatMoney(p.balance, currency, lang);
  const day = (p: Point) => formatDate(`${p.date.slice(0, 10)}T12:00:00Z`, lang);
  const lowestText = money(lowest);
  const highestText = money(highest);
  const firstText = `${money(first)} (${day(first)})`;
  const lastText = `${money(last)} (${day(last)})`;
  const summary = t`${currency} balance, ${periodName}: from ${firstText} to ${lastText}; lowest ${lowestText}, highest ${highestText}.`;
  // the dates under the line: first, middle and last point (fewer when they would collide)
  const dateTicks = [...new Set(sorted.length > 2 && width >= 360 ? [0, Math.floor((sorted.length - 1) / 2), sorted.length - 1] : [0, sorted.length - 1])];
  const valueText = (value: number) => formatMoney(value.toFixed(currency === 'BTC' || currency === 'ETH' ? 8 : 2), currency, lang);

  const nearest = (clientX: number, svg: SVGSVGElement) => {
    const box = svg.getBoundingClientRect();
    const x = ((clientX - box.left) / Math.max(box.width, 1)) * width;
    let best = 0;
    xy.forEach((p, i) => {
      if (Math.abs(p.x - x) < Math.abs(xy[best]!.x - x)) best = i;
    });
    return best;
  };
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => setActive(nearest(event.clientX, event.currentTarget));
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, (i: number) => number> = {
      ArrowRight: (i) => Math.min(i + 1, sorted.length - 1),
      ArrowLeft: (i) => Math.max(i - 1, 0),
      Home: () => 0,
      End: () => sorted.length - 1,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const next = move(active ?? sorted.length);
    setActive(next);
    const point = sorted[next]!;
    setAnnounced(`${day(point)}: ${money(point)}`);
  };
  const activePoint = active === null ? null : sorted[active];
  const activeXY = active === null ? null : xy[active];

  return (
    <figure className="balance-chart">
      <div
        ref={boxRef}
        className="chart-box"
        tabIndex={0}
        role="group"
        aria-label={t`Balance chart: use the left and right arrow keys to read each day`}
        onKeyDown={onKeyDown}
        onBlur={() => setActive(null)}
      >
        <svg role="img" aria-label={summary} viewBox={`0 0 ${width} ${HEIGHT}`} width={width} height={HEIGHT} focusable="false" onPointerMove={onPointerMove} onPointerLeave={() => setActive(null)}>
          {/* the drawing one step after the page: the box keeps its size meanwhile (src/ui/deferred.tsx) */}
          <Deferred>
            {ticks.map((tick) => (
              <g key={tick.value} className="chart-tick">
                <line className="chart-grid" x1={PAD.left} x2={width - PAD.right} y1={tick.y} y2={tick.y} />
                <text className="chart-label" x={PAD.left - 8} y={tick.y} textAnchor="end" dominantBaseline="middle">
                  {valueText(tick.value)}
                </text>
              </g>
            ))}
            <line className="chart-axis" x1={PAD.left} x2={width - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} />
            {dateTicks.map((i) => (
              <text key={sorted[i]!.date} className="chart-label" x={xy[i]!.x} y={HEIGHT - PAD.bottom + 20} textAnchor={i === 0 ? 'start' : i === sorted.length - 1 ? 'end' : 'middle'}>
                {day(sorted[i]!)}
              </text>
            ))}
            <path className="chart-line" d={path} pathLength={1} />
            {xy.map((p, i) => (
              <circle key={sorted[i]!.date} className={i === active ? 'chart-point chart-point-active' : 'chart-point'} cx={p.x} cy={p.y} r={i === active ? 5 : 3} />
            ))}
            {activeXY ? <line className="chart-cursor" x1={activeXY.x} x2={activeXY.x} y1={PAD.top} y2={HEIGHT - PAD.bottom} /> : null}
          </Deferred>
        </svg>
        {activePoint && activeXY ? (
          <div className="chart-tooltip" aria-hidden="true" style={{ left: `${Math.min(Math.max(activeXY.x, 70), width - 70)}px`, top: `${Math.max(activeXY.y - 12, 0)}px` }}>
            <span className="chart-tooltip-value">{money(activePoint)}</span>
            <span className="chart-tooltip-date">{day(activePoint)}</span>
          </div>
        ) : null}
        <span className="visually-hidden" aria-live="polite">
          {announced}
        </span>
      </div>
      <figcaption className="chart-legend" aria-hidden="true">
        <span>{t`Lowest ${lowestText} · highest ${highestText}`}</span>
      </figcaption>
      {/* the rows are drawn once the reader opens them (a closed details shows nothing and is
          read by nobody): a year of points is hundreds of cells to draw on every first paint */}
      <details onToggle={(e) => setTableOpen(e.currentTarget.open)}>
        <summary>{t`Show the data points`}</summary>
        {tableOpen ? (
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
        ) : null}
      </details>
    </figure>
  );
}

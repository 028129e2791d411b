/**
 * Counters and histograms for the observations reported on hot paths (every HTTP request, every store operation).
 * prom-client validates and hashes the label values on every `inc`/`observe`, even through a cached child, which
 * costs a measurable share of a small request; these keep each series as plain numbers behind one Map lookup and
 * render the same text exposition lines at scrape time.
 */

/** Escapes a label value for the text exposition format. */
function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** A Prometheus number: `+Inf`, `-Inf`, `NaN` or the decimal form. */
function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** Series of a family, nested by label value (route templates and methods are the same string objects each time, so
 *  each lookup hashes nothing new and builds no key). */
type SeriesTree<Series> = Map<string, SeriesTree<Series> | { labels: string; series: Series }>;

/** One metric family: its series by label values, each with its rendered label pairs. */
abstract class Family<Series> {
  readonly #tree: SeriesTree<Series> = new Map();
  readonly #all: { labels: string; series: Series }[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
  ) {}

  protected abstract newSeries(): Series;

  protected abstract renderSeries(labels: string, series: Series, lines: string[]): void;

  protected abstract readonly type: string;

  /** The series of these label values (in `labelNames` order), created on first use. */
  series(...values: string[]): Series {
    let level = this.#tree;
    const last = values.length - 1;
    for (let i = 0; i < last; i++) {
      const value = values[i] as string;
      let next = level.get(value) as SeriesTree<Series> | undefined;
      if (!next) level.set(value, (next = new Map()));
      level = next;
    }
    const leaf = values[last] as string;
    let entry = level.get(leaf) as { labels: string; series: Series } | undefined;
    if (!entry) {
      const labels = this.labelNames.map((name, i) => `${name}="${escapeLabelValue(values[i] ?? '')}"`).join(',');
      entry = { labels, series: this.newSeries() };
      level.set(leaf, entry);
      this.#all.push(entry);
    }
    return entry.series;
  }

  /** The family in the text exposition format, as prom-client writes it. */
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
    for (const { labels, series } of this.#all) this.renderSeries(labels, series, lines);
    return lines.join('\n');
  }
}

interface CounterSeries {
  value: number;
}

export class HotCounter extends Family<CounterSeries> {
  protected readonly type = 'counter';

  inc(...values: string[]): void {
    this.series(...values).value += 1;
  }

  protected newSeries(): CounterSeries {
    return { value: 0 };
  }

  protected renderSeries(labels: string, series: CounterSeries, lines: string[]): void {
    lines.push(`${this.name}{${labels}} ${formatNumber(series.value)}`);
  }
}

interface HistogramSeries {
  /** Observations per bucket, not cumulated (the last slot counts those above every bound). */
  counts: Float64Array;
  sum: number;
  count: number;
}

export class HotHistogram extends Family<HistogramSeries> {
  protected readonly type = 'histogram';

  constructor(name: string, help: string, labelNames: readonly string[], private readonly buckets: readonly number[]) {
    super(name, help, labelNames);
  }

  observe(value: number, ...values: string[]): void {
    const series = this.series(...values);
    let bucket = 0;
    while (bucket < this.buckets.length && value > (this.buckets[bucket] as number)) bucket++;
    (series.counts[bucket] as number) += 1;
    series.sum += value;
    series.count += 1;
  }

  protected newSeries(): HistogramSeries {
    return { counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 };
  }

  protected renderSeries(labels: string, series: HistogramSeries, lines: string[]): void {
    let cumulated = 0;
    this.buckets.forEach((bound, i) => {
      cumulated += series.counts[i] as number;
      lines.push(`${this.name}_bucket{le="${formatNumber(bound)}",${labels}} ${cumulated}`);
    });
    lines.push(`${this.name}_bucket{le="+Inf",${labels}} ${series.count}`);
    lines.push(`${this.name}_sum{${labels}} ${formatNumber(series.sum)}`);
    lines.push(`${this.name}_count{${labels}} ${series.count}`);
  }
}

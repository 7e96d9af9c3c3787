// The console's charts: each element with a data-chart attribute holds a declarative spec (JSON) that
// this module draws with Apache ECharts (the WebJar the layout loads as the global `echarts`). Pages say
// what to show; only this file knows the library. Kinds:
//   bar       categories with one or more series of values ("horizontal": true puts the categories on y)
//   line      series of [epoch ms, value] over a UTC time axis ("stack": true stacks them)
//   cdf       series of [x, share 0..1] drawn as step lines, shares shown as percentages
//   interval  rows of {label, low, mid, high} (p10, p50, p90) as bands named "band" with "mid" points, against
//             a vertical marker {name, at}; x is a time axis unless the spec's x has "type": "value"
// Every axis is {name, unit?, min?, max?}; its title reads "name (unit)". More than one series name gets a legend.
// Live updates swap in new elements with new specs: they are drawn on htmx:load, and the old ones disposed.
const PALETTE = ['#0a58ca', '#c25e00', '#116329', '#8250df', '#b3261e', '#1b7c83', '#57606a'];
const MARKER = '#b3261e';
const INK = '#1b1f24';
const MUTED = '#57606a';
const LINE = '#d0d7de';

const drawn = new Set();
const resizes = new ResizeObserver((entries) => entries.forEach((entry) => {
  const chart = window.echarts.getInstanceByDom(entry.target);
  if (chart) chart.resize();
}));

function escape(text) {
  return window.echarts.format.encodeHTML(String(text));
}

function title(axis) {
  return axis.unit ? `${axis.name} (${axis.unit})` : axis.name;
}

function clock(ms) {
  return `${window.echarts.time.format(ms, '{yyyy}-{MM}-{dd} {HH}:{mm}', true)} UTC`;
}

function percent(share) {
  return `${Math.round(share * 1000) / 10} %`;
}

// A value with its axis's unit ("12 min"); a count's axis title already says what it counts.
function amount(value, axis) {
  const figure = Number.isInteger(value) ? value : Number(Number(value).toPrecision(3));
  return axis.unit ? `${figure} ${axis.unit}` : String(figure);
}

// An interval's x: a time, unless its axis is a plain value axis.
function clockOr(spec, value) {
  return spec.x.type === 'value' ? amount(value, spec.x) : clock(value);
}

function line(param, text) {
  return `${param.marker}${escape(param.seriesName)}: ${escape(text)}`;
}

// An axis titled at its top (y) or under its middle (x); categories read top-down on a y axis.
function axis(spec, position, type) {
  const vertical = position === 'y';
  const inverse = vertical && type === 'category';
  return {
    type,
    inverse,
    name: title(spec),
    min: spec.min,
    max: spec.max,
    nameLocation: vertical ? (inverse ? 'start' : 'end') : 'middle',
    nameGap: vertical ? 12 : 30,
    nameTextStyle: { color: INK, fontSize: 12, fontWeight: 600, align: vertical ? 'left' : 'center' },
    axisLabel: type === 'category' ? { color: MUTED, fontSize: 12, interval: 0 }
      : { color: MUTED, fontSize: 12, hideOverlap: true },
    axisLine: { lineStyle: { color: MUTED } },
    splitLine: { show: type !== 'category', lineStyle: { color: LINE } },
  };
}

function bar(spec) {
  const categories = { ...axis(spec.horizontal ? spec.y : spec.x, spec.horizontal ? 'y' : 'x', 'category'),
    data: spec.categories };
  const values = { ...axis(spec.horizontal ? spec.x : spec.y, spec.horizontal ? 'x' : 'y', 'value'),
    minInterval: 1 };
  const valueAxis = spec.horizontal ? spec.x : spec.y;
  return {
    xAxis: spec.horizontal ? values : categories,
    yAxis: spec.horizontal ? categories : values,
    series: spec.series.map((s) => ({ type: 'bar', name: s.name, data: s.data, barMaxWidth: 48 })),
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (params) => [escape(params[0].axisValueLabel),
        ...params.map((p) => line(p, amount(p.value, valueAxis)))].join('<br>'),
    },
  };
}

function overTime(spec) {
  return {
    xAxis: { ...axis(spec.x, 'x', 'time'), splitNumber: 6 },
    yAxis: { ...axis(spec.y, 'y', 'value'), minInterval: 1 },
    // A lone series ends with its latest value, what a live chart is read for first (stacked ones would
    // print each value at the height of the sum).
    series: spec.series.map((s) => ({ type: 'line', name: s.name, data: s.data, showSymbol: s.data.length < 30,
      stack: spec.stack ? 'total' : undefined, areaStyle: spec.stack ? { opacity: 0.25 } : undefined,
      endLabel: { show: spec.series.length === 1, color: INK, fontWeight: 600, formatter: (p) => String(p.value[1]) },
    })),
    tooltip: {
      trigger: 'axis',
      formatter: (params) => [escape(clock(params[0].axisValue)),
        ...params.map((p) => line(p, amount(p.value[1], spec.y)))].join('<br>'),
    },
  };
}

// A CDF's share at x: the value of its last point at or before x (the step the line draws there).
function shareAt(points, x) {
  return points.reduce((found, [at, share]) => (at <= x ? share : found), 0);
}

function cdf(spec) {
  return {
    xAxis: { ...axis(spec.x, 'x', 'value'), min: 0 },
    yAxis: { ...axis(spec.y, 'y', 'value'), min: 0, max: 1, axisLabel: { color: MUTED, formatter: percent } },
    series: spec.series.map((s) => ({ type: 'line', name: s.name, data: s.data, step: 'end', showSymbol: false })),
    tooltip: {
      trigger: 'axis',
      // Every series at the pointer's x, also those with no point near it.
      formatter: (params) => [escape(`${spec.x.name} ≤ ${amount(params[0].axisValue, spec.x)}`),
        ...spec.series.map((s, i) => `${window.echarts.format.getTooltipMarker(PALETTE[i % PALETTE.length])}${
          escape(s.name)}: ${percent(shareAt(s.data, params[0].axisValue))}`)].join('<br>'),
    },
  };
}

function interval(spec) {
  const values = spec.rows.flatMap((r) => [r.low, r.high]).concat(spec.marker ? [spec.marker.at] : []);
  const pad = Math.max(1, (Math.max(...values) - Math.min(...values)) * 0.05);
  const labels = spec.rows.map((r) => r.label);
  const bands = spec.rows.map((r) => ({ type: 'line', name: spec.band, color: PALETTE[0], symbol: 'none',
    lineStyle: { width: 14, opacity: 0.35 }, data: [[r.low, r.label], [r.high, r.label]] }));
  const mids = { type: 'scatter', name: spec.mid, color: PALETTE[0], symbol: 'diamond', symbolSize: 14,
    data: spec.rows.map((r) => [r.mid, r.label]) };
  const marker = spec.marker ? [{ type: 'line', name: spec.marker.name, color: MARKER, data: [],
    markLine: { symbol: 'none', silent: true, lineStyle: { color: MARKER, type: 'dashed', width: 2 },
      label: { formatter: spec.marker.name, color: MARKER, position: 'start' },
      data: [{ xAxis: spec.marker.at }] } }] : [];
  return {
    xAxis: { ...axis(spec.x, 'x', spec.x.type === 'value' ? 'value' : 'time'), min: Math.min(...values) - pad,
      max: Math.max(...values) + pad },
    yAxis: { ...axis(spec.y || { name: '' }, 'y', 'category'), data: labels },
    series: [...bands, mids, ...marker],
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (params) => {
        const row = spec.rows[labels.indexOf(params[0].axisValue)];
        const at = (value) => escape(clockOr(spec, value));
        return [escape(row.label), `${escape(spec.band)}: ${at(row.low)} – ${at(row.high)}`,
          `${escape(spec.mid)}: ${at(row.mid)}`,
          ...(spec.marker ? [`${escape(spec.marker.name)}: ${at(spec.marker.at)}`] : [])].join('<br>');
      },
    },
  };
}

const KINDS = { bar, line: overTime, cdf, interval };

// What a screen reader says for the chart: its title and its figures in words.
function summary(spec) {
  const parts = {
    bar: () => spec.series.map((s) => `${s.name}: ${spec.categories.map((c, i) => `${c} ${s.data[i]}`).join(', ')}`),
    line: () => spec.series.map((s) => `${s.name} from ${clock(s.data[0][0])} to ${clock(s.data.at(-1)[0])}: ${
      s.data.map((p) => p[1]).join(', ')}`),
    cdf: () => spec.series.map((s) => `${s.name}: ${s.data.map(([x, y]) => `${percent(y)} by ${amount(x, spec.x)}`)
      .join(', ')}`),
    interval: () => spec.rows.map((r) => `${r.label}: ${spec.mid} ${clockOr(spec, r.mid)}, ${spec.band} ${
      clockOr(spec, r.low)} to ${clockOr(spec, r.high)}`)
      .concat(spec.marker ? [`${spec.marker.name} ${clockOr(spec, spec.marker.at)}`] : []),
  }[spec.kind]();
  return [spec.title, ...(parts.length ? parts : ['no data'])].filter(Boolean).join('. ');
}

function option(spec) {
  const drawing = KINDS[spec.kind](spec);
  const names = new Set(drawing.series.map((s) => s.name));
  return {
    ...drawing,
    animation: false,
    useUTC: true,
    color: PALETTE,
    aria: { enabled: true, label: { description: summary(spec) } },
    grid: { left: 8, right: 32, top: names.size > 1 ? 56 : 36, bottom: 36, containLabel: true },
    legend: { show: names.size > 1, top: 0, left: 'center', type: 'scroll', textStyle: { color: INK } },
    tooltip: { ...drawing.tooltip, className: 'chart-tooltip', confine: true },
  };
}

// Rows on a y axis get room by their number; other charts keep the height the stylesheet gives them.
function fitRows(element, spec) {
  const rows = spec.kind === 'interval' ? spec.rows.length * 40
    : spec.kind === 'bar' && spec.horizontal ? spec.categories.length * (12 + 14 * spec.series.length) : 0;
  if (rows) element.style.minHeight = `${rows + 110}px`;
}

function draw(element) {
  if (window.echarts.getInstanceByDom(element)) return;
  const spec = JSON.parse(element.dataset.chart);
  fitRows(element, spec);
  const chart = window.echarts.init(element, null, { renderer: 'svg' });
  chart.setOption(option(spec));
  element.setAttribute('role', 'img');
  drawn.add(element);
  resizes.observe(element);
}

// Charts swapped out by a live update are gone from the page; their instances would otherwise stay.
function forgetDetached() {
  drawn.forEach((element) => {
    if (element.isConnected) return;
    resizes.unobserve(element);
    window.echarts.getInstanceByDom(element)?.dispose();
    drawn.delete(element);
  });
}

function drawWithin(root) {
  forgetDetached();
  if (root.matches?.('[data-chart]')) draw(root);
  root.querySelectorAll('[data-chart]').forEach(draw);
}

// What the browser tests read: axis titles and types, legend, and each series' name, type and data.
function describe(target) {
  const element = typeof target === 'string' ? document.querySelector(target) : target;
  const chart = element && window.echarts.getInstanceByDom(element);
  if (!chart) return null;
  const shown = chart.getOption();
  const first = ([a]) => ({ name: a.name, type: a.type, categories: a.data || null });
  return {
    x: first(shown.xAxis),
    y: first(shown.yAxis),
    legend: shown.legend[0].show ? [...new Set(shown.series.map((s) => s.name))] : [],
    series: shown.series.map((s) => ({ name: s.name, type: s.type, step: s.step || null, stack: s.stack || null,
      points: s.data.length, data: s.data, markers: (s.markLine?.data || []).map((m) => m.xAxis) })),
  };
}

window.spilloverCharts = { describe };
drawWithin(document);
document.addEventListener('htmx:load', (event) => drawWithin(event.detail.elt));

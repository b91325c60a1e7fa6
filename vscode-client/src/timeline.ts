// Kernel timeline: parse a Chrome/Perfetto trace (what `ascendc-lsp run --trace` writes) into
// lanes (block x pipe) and draw it as a static SVG. No vscode import, no scripts in the output.

export interface Span {
  start: number;
  dur: number;
  name: string;
}

export interface Lane {
  block: string;
  pipe: string;
  spans: Span[];
  busy: number;
}

export interface TimelineModel {
  lanes: Lane[];
  t0: number;
  t1: number;
  unit: string;
  spanCount: number;
}

interface TraceEvent {
  ph?: string;
  name?: string;
  cat?: string;
  ts?: number;
  dur?: number;
  pid?: number | string;
  tid?: number | string;
  args?: Record<string, unknown>;
}

const PIPE_ORDER = ['scalar', 's', 'mte2', 'mte1', 'vector', 'v', 'cube', 'm', 'fix', 'mte3'];

export function pipeRank(pipe: string): number {
  const p = pipe.toLowerCase().replace(/^pipe_/, '');
  const i = PIPE_ORDER.indexOf(p);
  return i < 0 ? PIPE_ORDER.length : i;
}

const PIPE_COLORS: Record<string, string> = {
  s: '#9e9e9e', scalar: '#9e9e9e',
  mte2: '#42a5f5', mte1: '#26c6da',
  v: '#66bb6a', vector: '#66bb6a',
  m: '#ab47bc', cube: '#ab47bc',
  fix: '#8d6e63',
  mte3: '#ffa726',
};

export function pipeColor(pipe: string): string {
  return PIPE_COLORS[pipe.toLowerCase().replace(/^pipe_/, '')] ?? '#78909c';
}

function num(v: unknown): number | undefined {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** Accepts `[events]` or `{traceEvents: [events], displayTimeUnit?}`; uses X events and B/E pairs. */
export function parseTrace(data: unknown): TimelineModel {
  const events: TraceEvent[] = Array.isArray(data)
    ? (data as TraceEvent[])
    : Array.isArray((data as { traceEvents?: unknown })?.traceEvents)
      ? ((data as { traceEvents: TraceEvent[] }).traceEvents)
      : [];
  const unitField = (data as { displayTimeUnit?: string; otherData?: { unit?: string } })?.otherData?.unit;
  const processNames = new Map<string, string>();
  const threadNames = new Map<string, string>();
  for (const e of events) {
    if (e?.ph === 'M' && e.args && typeof e.args.name === 'string') {
      if (e.name === 'process_name') processNames.set(String(e.pid), e.args.name);
      if (e.name === 'thread_name') threadNames.set(`${e.pid}/${e.tid}`, e.args.name);
    }
  }
  const lanes = new Map<string, Lane>();
  const open = new Map<string, TraceEvent[]>();
  let t0 = Infinity;
  let t1 = -Infinity;
  let spanCount = 0;
  const add = (e: TraceEvent, start: number, dur: number) => {
    const block = String(e.args?.block ?? processNames.get(String(e.pid)) ?? (e.pid !== undefined ? `block ${e.pid}` : 'block 0'));
    const pipe = String(e.args?.pipe ?? threadNames.get(`${e.pid}/${e.tid}`) ?? e.cat ?? (e.tid !== undefined ? String(e.tid) : 'pipe'));
    const key = `${block}\u0000${pipe}`;
    let lane = lanes.get(key);
    if (!lane) {
      lane = { block, pipe, spans: [], busy: 0 };
      lanes.set(key, lane);
    }
    lane.spans.push({ start, dur, name: String(e.name ?? pipe) });
    lane.busy += dur;
    spanCount += 1;
    t0 = Math.min(t0, start);
    t1 = Math.max(t1, start + dur);
  };
  for (const e of events) {
    if (!e || typeof e !== 'object') continue;
    const ts = num(e.ts);
    if (ts === undefined) continue;
    if (e.ph === 'X') {
      add(e, ts, Math.max(0, num(e.dur) ?? 0));
    } else if (e.ph === 'B') {
      const k = `${e.pid}/${e.tid}`;
      open.set(k, [...(open.get(k) ?? []), e]);
    } else if (e.ph === 'E') {
      const k = `${e.pid}/${e.tid}`;
      const stack = open.get(k);
      const b = stack?.pop();
      if (b) add({ ...b, args: { ...(b.args ?? {}), ...(e.args ?? {}) } }, num(b.ts) ?? ts, ts - (num(b.ts) ?? ts));
    }
  }
  const sorted = [...lanes.values()].sort((a, b) => {
    const ba = blockKey(a.block);
    const bb = blockKey(b.block);
    if (ba !== bb) return ba < bb ? -1 : 1;
    return pipeRank(a.pipe) - pipeRank(b.pipe) || a.pipe.localeCompare(b.pipe);
  });
  for (const lane of sorted) lane.spans.sort((a, b) => a.start - b.start);
  if (!Number.isFinite(t0)) {
    t0 = 0;
    t1 = 0;
  }
  return { lanes: sorted, t0, t1, unit: unitField ?? 'µs', spanCount };
}

function blockKey(block: string): string {
  const m = /(\d+)/.exec(block);
  return m ? `${block.replace(/\d+/, '').trim()}${m[1].padStart(8, '0')}` : block;
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function niceStep(range: number, ticks: number): number {
  const raw = range / Math.max(1, ticks);
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 5, 10]) {
    if (raw <= m * mag) return m * mag;
  }
  return 10 * mag;
}

function fmt(n: number): string {
  return Math.abs(n) >= 1000 ? n.toFixed(0) : Number(n.toPrecision(4)).toString();
}

export interface SvgOptions {
  width?: number;
  rowHeight?: number;
  maxSpans?: number;
  maxBlocks?: number;
}

/** A self-contained SVG: one row per (block, pipe), one rect per span with a <title> tooltip. */
export function renderTimelineSvg(model: TimelineModel, opts: SvgOptions = {}): string {
  const width = opts.width ?? 1100;
  const rowH = opts.rowHeight ?? 16;
  const maxSpans = opts.maxSpans ?? 20000;
  const maxBlocks = opts.maxBlocks ?? 48;
  const labelW = 170;
  const axisH = 28;
  const plotW = width - labelW - 12;
  const range = Math.max(model.t1 - model.t0, 1e-9);
  const x = (t: number) => labelW + ((t - model.t0) / range) * plotW;

  const blocks: string[] = [];
  for (const lane of model.lanes) if (!blocks.includes(lane.block)) blocks.push(lane.block);
  const shownBlocks = new Set(blocks.slice(0, maxBlocks));
  const lanes = model.lanes.filter((l) => shownBlocks.has(l.block));

  const parts: string[] = [];
  let y = axisH;
  let drawn = 0;
  let lastBlock = '';
  for (const lane of lanes) {
    if (lane.block !== lastBlock) {
      parts.push(`<text x="4" y="${y + 12}" class="blk">${esc(lane.block)}</text>`);
      parts.push(`<line x1="0" x2="${width}" y1="${y}" y2="${y}" class="sep"/>`);
      y += rowH;
      lastBlock = lane.block;
    }
    const pct = ((100 * lane.busy) / range).toFixed(0);
    parts.push(`<text x="16" y="${y + 12}" class="pipe">${esc(lane.pipe)} <tspan class="pct">${pct}%</tspan></text>`);
    parts.push(`<rect x="${labelW}" y="${y + 2}" width="${plotW}" height="${rowH - 4}" class="track"/>`);
    const color = pipeColor(lane.pipe);
    for (const s of lane.spans) {
      if (drawn >= maxSpans) break;
      const x0 = x(s.start);
      const w = Math.max(0.75, x(s.start + s.dur) - x0);
      parts.push(`<rect x="${x0.toFixed(2)}" y="${y + 2}" width="${w.toFixed(2)}" height="${rowH - 4}" fill="${color}"><title>${esc(`${lane.block} · ${lane.pipe} · ${s.name}\n${fmt(s.start)}–${fmt(s.start + s.dur)} ${model.unit} (${fmt(s.dur)} ${model.unit})`)}</title></rect>`);
      drawn += 1;
    }
    y += rowH;
  }
  const height = y + 8;
  const axis: string[] = [];
  const step = niceStep(range, 8);
  for (let t = Math.ceil(model.t0 / step) * step; t <= model.t1 + 1e-9; t += step) {
    const xt = x(t);
    axis.push(`<line x1="${xt.toFixed(2)}" x2="${xt.toFixed(2)}" y1="${axisH - 6}" y2="${height}" class="grid"/>`);
    axis.push(`<text x="${xt.toFixed(2)}" y="${axisH - 10}" class="tick">${fmt(t)}</text>`);
  }
  axis.push(`<text x="4" y="${axisH - 10}" class="unit">time (${esc(model.unit)})</text>`);
  const notes: string[] = [];
  if (blocks.length > shownBlocks.size) notes.push(`${blocks.length - shownBlocks.size} more blocks not shown`);
  if (drawn < model.spanCount && drawn >= maxSpans) notes.push(`first ${maxSpans} of ${model.spanCount} spans drawn`);
  const style = `<style>
text{font:11px var(--vscode-editor-font-family,monospace);fill:var(--vscode-foreground,#ccc)}
.blk{font-weight:bold}.pct{fill:var(--vscode-descriptionForeground,#999)}.tick{text-anchor:middle}
.track{fill:var(--vscode-editorWidget-background,#2a2a2a)}.grid{stroke:var(--vscode-editorRuler-foreground,#444);stroke-width:0.5}
.sep{stroke:var(--vscode-panel-border,#555);stroke-width:0.5}
</style>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="100%" style="min-width:${Math.round(width * 0.45)}px;max-width:${width * 2}px" viewBox="0 0 ${width} ${height}" role="img" aria-label="kernel timeline">${style}${axis.join('')}${parts.join('')}</svg>`;
  return notes.length ? `${svg}<p class="note">${esc(notes.join('; '))}</p>` : svg;
}

/** Busy time per pipe summed over blocks, for the legend. */
export function pipeTotals(model: TimelineModel): Array<{ pipe: string; busy: number }> {
  const totals = new Map<string, number>();
  for (const lane of model.lanes) totals.set(lane.pipe, (totals.get(lane.pipe) ?? 0) + lane.busy);
  return [...totals.entries()].map(([pipe, busy]) => ({ pipe, busy })).sort((a, b) => pipeRank(a.pipe) - pipeRank(b.pipe));
}

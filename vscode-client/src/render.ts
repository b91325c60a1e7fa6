// HTML for the webview panels. Static HTML + CSS only (the webviews run no scripts at all).
// No vscode import: unit-tested in Node.
import { pipeColor, pipeTotals, renderTimelineSvg, TimelineModel } from './timeline';

export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** Pretty-printed JSON with spans for keys, strings, numbers and literals. */
export function highlightJson(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? 'undefined';
  return esc(text).replace(
    /(&quot;(?:[^&\\]|\\.|&(?!quot;))*&quot;)(\s*:)?|\b(true|false|null)\b|(-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b)/g,
    (m, str: string | undefined, colon: string | undefined, lit: string | undefined, n: string | undefined) => {
      if (str) return colon ? `<span class="k">${str}</span>${colon}` : `<span class="s">${str}</span>`;
      if (lit) return `<span class="l">${lit}</span>`;
      if (n) return `<span class="n">${n}</span>`;
      return m;
    },
  );
}

const STYLE = `
body{font-family:var(--vscode-font-family,sans-serif);font-size:var(--vscode-font-size,13px);color:var(--vscode-foreground);background:var(--vscode-editor-background);padding:0 18px 24px}
h1{font-size:1.35em;margin:14px 0 6px}h2{font-size:1.1em;margin:18px 0 6px;border-bottom:1px solid var(--vscode-panel-border,#444);padding-bottom:3px}
.sub{color:var(--vscode-descriptionForeground);margin-bottom:10px;word-break:break-all}
.badge{display:inline-block;padding:2px 9px;margin:0 6px 6px 0;border-radius:10px;font-weight:600;font-size:.92em}
.ok{background:#2e7d32;color:#fff}.bad{background:#c62828;color:#fff}.neutral{background:var(--vscode-badge-background,#555);color:var(--vscode-badge-foreground,#fff)}
table{border-collapse:collapse;margin:4px 0}td,th{padding:3px 12px 3px 0;text-align:left;vertical-align:top}th{color:var(--vscode-descriptionForeground);font-weight:normal}
.bar{height:12px;border-radius:2px;display:inline-block;vertical-align:middle}
pre{background:var(--vscode-textCodeBlock-background,#1e1e1e);padding:8px 10px;border-radius:4px;overflow:auto;font-family:var(--vscode-editor-font-family,monospace);font-size:var(--vscode-editor-font-size,12px)}
.k{color:var(--vscode-symbolIcon-propertyForeground,#9cdcfe)}.s{color:var(--vscode-debugTokenExpression-string,#ce9178)}.n{color:var(--vscode-debugTokenExpression-number,#b5cea8)}.l{color:var(--vscode-debugTokenExpression-boolean,#569cd6)}
.diag{margin:4px 0}.sev-error{color:var(--vscode-errorForeground,#f48771)}.sev-warning{color:var(--vscode-editorWarning-foreground,#cca700)}.sev-information,.sev-hint{color:var(--vscode-editorInfo-foreground,#3794ff)}
.card{border:1px solid var(--vscode-panel-border,#444);border-radius:5px;padding:8px 12px;margin:8px 0}
.card .title{font-weight:600}.card pre{white-space:pre-wrap;word-break:break-word}.muted{color:var(--vscode-descriptionForeground)}
.legend span{margin-right:14px;white-space:nowrap}.swatch{display:inline-block;width:10px;height:10px;margin-right:4px;border-radius:2px}
.verdict{display:inline-block;font-size:1.15em;font-weight:700;padding:4px 12px;margin:4px 0 10px;border-radius:4px}
.timeline{overflow-x:auto}.note{color:var(--vscode-descriptionForeground)}
details summary{cursor:pointer;color:var(--vscode-textLink-foreground)}
`;

export function page(title: string, body: string, cspSource = ''): string {
  const csp = `default-src 'none'; style-src 'unsafe-inline' ${cspSource}; img-src data: ${cspSource}; font-src ${cspSource};`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

function badge(label: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  const cls = value === true ? 'ok' : value === false ? 'bad' : 'neutral';
  const text = typeof value === 'boolean' ? `${label}: ${value ? 'yes' : 'no'}` : `${label}: ${value}`;
  return `<span class="badge ${cls}">${esc(text)}</span>`;
}

interface Diag {
  range?: { start?: { line?: number; character?: number } };
  severity?: string | number;
  code?: string;
  category?: string;
  message?: string;
  file?: string;
  path?: string;
}

const SEVERITIES = ['', 'error', 'warning', 'information', 'hint'];

export function renderDiagnostics(diags: unknown): string {
  if (!Array.isArray(diags) || diags.length === 0) return '';
  const rows = (diags as Diag[]).map((d) => {
    const sev = typeof d.severity === 'number' ? SEVERITIES[d.severity] ?? 'error' : String(d.severity ?? 'error');
    const pos = d.range?.start ? `${(d.range.start.line ?? 0) + 1}:${(d.range.start.character ?? 0) + 1}` : '';
    const where = [d.file ?? d.path, pos].filter(Boolean).join(':');
    const code = [d.code, d.category].filter(Boolean).join(' · ');
    return `<div class="diag"><span class="sev-${esc(sev)}">${esc(sev)}</span> ${code ? `<b>${esc(code)}</b> ` : ''}${where ? `<span class="muted">${esc(where)}</span> ` : ''}${esc(d.message ?? '')}</div>`;
  });
  return `<h2>Diagnostics (${diags.length})</h2>${rows.join('')}`;
}

export function renderEstimate(estimate: unknown): string {
  if (!estimate || typeof estimate !== 'object') return '';
  const e = estimate as { cycles?: number; microseconds?: number; bottleneck?: string; pipes?: Record<string, number> };
  const rows: string[] = [];
  if (e.cycles !== undefined) rows.push(`<tr><th>cycles</th><td>${esc(Number(e.cycles).toLocaleString('en-US'))}</td></tr>`);
  if (e.microseconds !== undefined) rows.push(`<tr><th>time</th><td>${esc(Number(e.microseconds).toFixed(2))} µs</td></tr>`);
  if (e.bottleneck) rows.push(`<tr><th>bottleneck</th><td><b>${esc(e.bottleneck)}</b></td></tr>`);
  let pipes = '';
  if (e.pipes && typeof e.pipes === 'object') {
    const entries = Object.entries(e.pipes).filter(([, v]) => typeof v === 'number');
    const max = Math.max(1, ...entries.map(([, v]) => v));
    pipes = `<table>${entries
      .map(([k, v]) => `<tr><th>${esc(k)}</th><td><span class="bar" style="width:${Math.max(1, Math.round((260 * v) / max))}px;background:${pipeColor(k)}"></span> ${esc(Number(v).toLocaleString('en-US'))} busy cycles</td></tr>`)
      .join('')}</table>`;
  }
  return `<h2>Performance estimate <span class="muted">(cost model, uncalibrated)</span></h2><table>${rows.join('')}</table>${pipes}`;
}

const KNOWN_RUN_KEYS = new Set(['stage_reached', 'compiled', 'ran', 'correct', 'diagnostics', 'max_abs_error', 'mismatches', 'estimate', 'outputs']);

export interface RunMeta {
  title: string;
  /** The server's one-line verdict (RunKernelResult.summary): "CORRECT (…)" or "NOT CORRECT (stage …): why". */
  summary?: string;
  /** What ran: "spec: …", "test case: …" or "program: …". */
  target?: string;
  sourcePath?: string;
  seconds?: number;
  /** HTML right under the verdict (the timeline page puts its timeline there). */
  leading?: string;
}

interface OutputRow {
  name?: string;
  compared?: boolean;
  elements?: number;
  mismatches?: number;
  max_abs_error?: number | string;
  unwritten?: number;
}

/** One row per output tensor: elements, mismatches, max abs error (the numbers behind CORRECT). */
/** The output rows; `trusted` is false when the run reported errors: matching values then prove nothing. */
export function renderOutputs(outputs: unknown, trusted = true): string {
  if (!Array.isArray(outputs) || outputs.length === 0) return '';
  const rows = (outputs as OutputRow[]).map((o) => {
    const ok = o.compared !== false && (o.mismatches ?? 0) === 0 && (o.unwritten ?? 0) === 0;
    const verdict = o.compared === false ? 'not compared' : !ok ? 'MISMATCH' : trusted ? 'ok' : 'matches, not trusted (the run reported errors)';
    const sev = ok && trusted ? 'sev-information' : ok ? 'sev-warning' : 'sev-error';
    return `<tr><td><b>${esc(o.name ?? '?')}</b></td><td class="${sev}">${esc(verdict)}</td><td>${esc(o.elements ?? '')}</td><td>${esc(o.mismatches ?? '')}</td><td>${esc(o.max_abs_error ?? '')}</td></tr>`;
  });
  return `<h2>Outputs</h2><table><tr><th>output</th><th>check</th><th>elements</th><th>mismatches</th><th>max abs error</th></tr>${rows.join('')}</table>`;
}

/** The `run` JSON (architecture.md) as a readable page; unknown keys still shown. */
export function renderRunResult(result: unknown, meta: RunMeta, extra = ''): string {
  const r = (result && typeof result === 'object' ? result : { result }) as Record<string, unknown>;
  const sub = [meta.sourcePath && `source: ${meta.sourcePath}`, meta.target, meta.seconds !== undefined && `${meta.seconds.toFixed(1)} s`]
    .filter(Boolean)
    .join(' · ');
  const badges = [badge('stage', r.stage_reached), badge('compiled', r.compiled), badge('ran', r.ran), badge('correct', r.correct)].join('');
  const numbers: string[] = [];
  if (r.max_abs_error !== undefined) numbers.push(`<tr><th>max abs error</th><td>${esc(r.max_abs_error)}</td></tr>`);
  if (r.mismatches !== undefined) numbers.push(`<tr><th>mismatches</th><td>${esc(r.mismatches)}</td></tr>`);
  const texts: string[] = [];
  const others: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) {
    if (KNOWN_RUN_KEYS.has(k)) continue;
    if (typeof v === 'string' && v.includes('\n')) texts.push(`<h2>${esc(k)}</h2><pre>${esc(v)}</pre>`);
    else others[k] = v;
  }
  const otherRows = Object.entries(others)
    .map(([k, v]) => `<tr><th>${esc(k)}</th><td>${typeof v === 'object' && v !== null ? `<pre>${highlightJson(v)}</pre>` : esc(v)}</td></tr>`)
    .join('');
  const body = [
    `<h1>${esc(meta.title)}</h1>`,
    sub ? `<div class="sub">${esc(sub)}</div>` : '',
    meta.summary ? `<div class="verdict ${r.correct === true ? 'ok' : 'bad'}">${esc(meta.summary)}</div>` : '',
    `<div>${badges}</div>`,
    meta.leading ?? '',
    numbers.length ? `<table>${numbers.join('')}</table>` : '',
    renderOutputs(r.outputs, !runErrors(r.diagnostics)),
    renderEstimate(r.estimate),
    extra,
    renderDiagnostics(r.diagnostics),
    otherRows ? `<h2>Details</h2><table>${otherRows}</table>` : '',
    texts.join(''),
    `<h2>Raw result</h2><details><summary>JSON</summary><pre>${highlightJson(result)}</pre></details>`,
  ];
  return page(meta.title, body.join(''));
}

/** Errors the build or the run reported (a failed comparison is said per output instead). */
function runErrors(diagnostics: unknown): boolean {
  return Array.isArray(diagnostics) && diagnostics.some((d) => d && typeof d === 'object' && (d as { severity?: string }).severity === 'error' && (d as { code?: string }).code !== 'mismatch');
}

/** The Run / Timeline page after the user cancelled the run. */
export function renderCancelled(meta: { title: string; target?: string; sourcePath?: string; seconds: number }): string {
  const sub = [meta.sourcePath && `source: ${meta.sourcePath}`, meta.target].filter(Boolean).join(' · ');
  const body = [
    `<h1>${esc(meta.title)}</h1>`,
    sub ? `<div class="sub">${esc(sub)}</div>` : '',
    `<div class="verdict bad">Cancelled after ${esc(meta.seconds.toFixed(1))} s: the server stopped the run; no verdict.</div>`,
    '<p>Run the command again to start a new run (a finished compile is cached).</p>',
  ];
  return page(meta.title, body.join(''));
}

interface Match {
  id?: string;
  title?: string;
  category?: string;
  score?: number;
  fix?: unknown;
  rationale?: unknown;
}

export function renderExplain(result: unknown, source: string): string {
  const r = (result ?? {}) as { matches?: Match[] };
  const matches = Array.isArray(r.matches) ? r.matches : Array.isArray(result) ? (result as Match[]) : [];
  const cards = matches.map((m, i) => {
    const score = typeof m.score === 'number' ? `<span class="bar" style="width:${Math.round(80 * Math.max(0, Math.min(1, m.score)))}px;background:#42a5f5"></span> ${m.score.toFixed(2)}` : '';
    const fix = m.fix === undefined ? '' : typeof m.fix === 'string' ? `<pre>${esc(m.fix)}</pre>` : `<pre>${highlightJson(m.fix)}</pre>`;
    const why = m.rationale === undefined ? '' : `<div class="muted">${esc(typeof m.rationale === 'string' ? m.rationale : JSON.stringify(m.rationale))}</div>`;
    return `<div class="card"><div class="title">${i + 1}. ${esc(m.title ?? m.id ?? 'match')}</div><div class="muted">${esc([m.id, m.category].filter(Boolean).join(' · '))} ${score}</div>${why}${fix}</div>`;
  });
  const body = [
    '<h1>Error log explained</h1>',
    `<div class="sub">${esc(source)}</div>`,
    matches.length ? cards.join('') : '<p>No knowledge entry matched this log.</p>',
    `<h2>Raw result</h2><details><summary>JSON</summary><pre>${highlightJson(result)}</pre></details>`,
  ];
  return page('AscendC: explained log', body.join(''));
}

export function renderTimeline(model: TimelineModel, title: string, tracePath: string): string {
  const totals = pipeTotals(model);
  const range = Math.max(model.t1 - model.t0, 1e-9);
  const blocks = new Set(model.lanes.map((l) => l.block)).size;
  const legend = totals
    .map((t) => `<span><span class="swatch" style="background:${pipeColor(t.pipe)}"></span>${esc(t.pipe)} ${((100 * t.busy) / (range * Math.max(1, blocks))).toFixed(0)}%</span>`)
    .join('');
  const summary = `${blocks} block(s), ${model.lanes.length} lanes, ${model.spanCount} spans, ${(model.t1 - model.t0).toPrecision(4)} ${model.unit}`;
  if (model.spanCount === 0) {
    return `<h2>Timeline</h2><p>The trace <code>${esc(tracePath)}</code> has no duration events.</p>`;
  }
  return `<h2>Timeline</h2><div class="sub">${esc(summary)} · <span class="muted">${esc(tracePath)}</span> · busy % = share of the kernel's time span (legend: mean over blocks); hover a bar for its call</div><div class="legend">${legend}</div><div class="timeline">${renderTimelineSvg(model)}</div>`;
}

export function renderMessage(title: string, message: string, details?: unknown): string {
  return page(title, `<h1>${esc(title)}</h1><p>${esc(message)}</p>${details === undefined ? '' : `<pre>${highlightJson(details)}</pre>`}`);
}

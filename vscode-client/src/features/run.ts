// "AscendC: Run Kernel in Emulator" and "AscendC: Show Kernel Timeline": the active kernel's target (a kernel
// spec or an op test case found beside it, or the `.asc` program itself) run by the server command runKernel;
// the result and the pipe timeline in a webview.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AscendcContext } from '../context';
import { describeError } from '../errors';
import { RunKernelParams, ServerCommands } from '../protocol';
import { esc, renderCancelled, renderRunResult, renderTimeline } from '../render';
import { findSpecsBeside } from '../specs';
import { parseTrace } from '../timeline';

interface Target {
  params: Omit<RunKernelParams, 'trace' | 'backend'>;
  label: string;
}

async function pickTarget(ctx: AscendcContext, sourcePath: string): Promise<Target | undefined> {
  if (/\.asc$/i.test(sourcePath)) return { params: { program: sourcePath }, label: `program: ${sourcePath}` };
  const key = `spec:${sourcePath}`;
  const candidates = findSpecsBeside(sourcePath);
  const asTarget = (p: string): Target => {
    const found = candidates.find((c) => c.path === p);
    return found?.kind === 'testCase'
      ? { params: { testCase: p }, label: `test case: ${p}` }
      : { params: { specPath: p, source: sourcePath }, label: `spec: ${p}` };
  };
  const remembered = ctx.extension.workspaceState.get<string>(key);
  if (remembered && fs.existsSync(remembered)) return asTarget(remembered);
  let chosen: string | undefined;
  if (candidates.length === 1 || (candidates.length > 1 && candidates[0].score >= 80 && candidates[1].score < candidates[0].score)) {
    chosen = candidates[0].path;
  } else {
    type Item = vscode.QuickPickItem & { specPath?: string };
    const items: Item[] = candidates.map((c) => ({
      label: path.basename(c.path),
      description: vscode.workspace.asRelativePath(c.path),
      detail: c.kind === 'testCase' ? `op test case${c.kernel ? `: ${c.kernel}` : ''}` : c.kernel ? `kernel: ${c.kernel}` : undefined,
      specPath: c.path,
    }));
    items.push({ label: '$(folder-opened) Choose a spec or test case…' });
    const pick = await vscode.window.showQuickPick(items, {
      title: `AscendC: what runs ${path.basename(sourcePath)}`,
      placeHolder: candidates.length ? 'Which spec or op test case runs this kernel?' : 'No spec (kernel:) or test case (project:/op:) YAML beside this file',
    });
    if (!pick) return undefined;
    chosen = pick.specPath;
    if (!chosen) {
      const uris = await vscode.window.showOpenDialog({ canSelectMany: false, defaultUri: vscode.Uri.file(path.dirname(sourcePath)), filters: { 'Kernel spec or test case': ['yaml', 'yml'] } });
      chosen = uris?.[0]?.fsPath;
    }
  }
  if (!chosen) return undefined;
  await ctx.extension.workspaceState.update(key, chosen);
  return asTarget(chosen);
}

async function kernelDocument(arg?: unknown): Promise<vscode.TextDocument | undefined> {
  const doc = arg instanceof vscode.Uri ? await vscode.workspace.openTextDocument(arg) : vscode.window.activeTextEditor?.document;
  if (!doc || doc.uri.scheme !== 'file') {
    void vscode.window.showWarningMessage('AscendC: open a kernel source file (saved on disk) first.');
    return undefined;
  }
  if (doc.isDirty) await doc.save();
  return doc;
}

function timelineHtml(tracePath: string | undefined, name: string): string {
  if (!tracePath) return '<h2>Timeline</h2><p>The run wrote no trace (it did not get as far as running the kernel).</p>';
  try {
    return renderTimeline(parseTrace(JSON.parse(fs.readFileSync(tracePath, 'utf8'))), name, tracePath);
  } catch (error) {
    return `<h2>Timeline</h2><p>${esc(`Cannot read the trace ${tracePath}: ${describeError(error)}`)}</p>`;
  }
}

async function runKernel(ctx: AscendcContext, arg: unknown, trace: boolean): Promise<void> {
  const doc = await kernelDocument(arg);
  if (!doc) return;
  const sourcePath = doc.uri.fsPath;
  const target = await pickTarget(ctx, sourcePath);
  if (!target) return;
  const name = path.basename(sourcePath);
  const started = Date.now();
  const title = trace ? `Timeline: ${name}` : `Run: ${name}`;
  // the user pressed Cancel on the progress: the panel says so (the server stops the kernel)
  const onCancelled = (seconds: number): void => {
    ctx.showPanel(trace ? 'timeline' : 'run', title, renderCancelled({ title, target: target.label, sourcePath, seconds }));
  };
  const result = await ctx.execute(
    ServerCommands.runKernel,
    { ...target.params, trace, backend: ctx.settings().toolchain.backend },
    trace ? `AscendC: running ${name} with a pipe trace…` : `AscendC: running ${name} in the emulator…`,
    { onCancelled },
  );
  if (result === undefined) return;
  const seconds = (Date.now() - started) / 1000;
  const leading = trace ? timelineHtml(result.trace, name) : undefined;
  const meta = { title, summary: result.summary, target: target.label, sourcePath, seconds, leading };
  ctx.showPanel(trace ? 'timeline' : 'run', title, renderRunResult(result.run ?? {}, meta));
  void vscode.window.setStatusBarMessage(`AscendC: ${name}: ${result.summary} (${seconds.toFixed(1)} s)`, 8000);
}

export function registerRun(ctx: AscendcContext): void {
  ctx.register('ascendc.runKernel', (a) => runKernel(ctx, a, false));
  ctx.register('ascendc.showTimeline', (a) => runKernel(ctx, a, true));
}

// "AscendC: Explain Error Log": a log from the selection, the clipboard, a file or one typed line, explained by
// the knowledge base (server command explainLog) in a webview.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { AscendcContext } from '../context';
import { describeError } from '../errors';
import { ServerCommands } from '../protocol';
import { renderExplain } from '../render';

async function chooseLog(arg: unknown): Promise<{ log?: string; logPath?: string } | undefined> {
  if (arg instanceof vscode.Uri) return { logPath: arg.fsPath };
  const editor = vscode.window.activeTextEditor;
  const selection = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : '';
  type Item = vscode.QuickPickItem & { id: string };
  const items: Item[] = [];
  if (selection.trim()) items.push({ id: 'selection', label: '$(selection) The selected text', description: `${selection.split('\n').length} line(s)` });
  items.push({ id: 'clipboard', label: '$(clippy) The clipboard' });
  items.push({ id: 'file', label: '$(folder-opened) Choose a log file…' });
  items.push({ id: 'type', label: '$(edit) Type or paste one line…' });
  const pick = await vscode.window.showQuickPick(items, { title: 'AscendC: Explain Error Log', placeHolder: 'Which log?' });
  if (!pick) return undefined;
  if (pick.id === 'selection') return { log: selection };
  if (pick.id === 'clipboard') {
    // Read only when chosen, and bounded: in a browser (code-server, vscode.dev) it can wait on a permission prompt.
    const log = (
      await Promise.race([
        Promise.resolve(vscode.env.clipboard.readText()).catch(() => ''),
        new Promise<string>((resolve) => setTimeout(() => resolve(''), 3000)),
      ])
    ).trim();
    if (!log) void vscode.window.showWarningMessage('AscendC: the clipboard is empty or cannot be read here; choose a log file or select the text in an editor.');
    return { log };
  }
  if (pick.id === 'type') {
    const log = await vscode.window.showInputBox({ title: 'AscendC: Explain Error Log', prompt: 'An error line from the compiler or the runtime (e.g. EZ9999 … errorStr: …)', ignoreFocusOut: true });
    return { log };
  }
  const uris = await vscode.window.showOpenDialog({ canSelectMany: false, title: 'Log file', filters: { Logs: ['log', 'txt', 'out'], All: ['*'] } });
  return { logPath: uris?.[0]?.fsPath };
}

export function registerExplain(ctx: AscendcContext): void {
  ctx.register('ascendc.explainLog', async (arg) => {
    const chosen = await chooseLog(arg);
    if (!chosen) return;
    let { log } = chosen;
    const { logPath } = chosen;
    if (logPath) {
      try {
        log = fs.readFileSync(logPath, 'utf8');
      } catch (error) {
        void vscode.window.showErrorMessage(`AscendC: cannot read ${logPath}: ${describeError(error)}`);
        return;
      }
    }
    if (!log || !log.trim()) return;
    const active = vscode.window.activeTextEditor?.document;
    const source = ctx.isKernelDocument(active) && active?.uri.scheme === 'file' ? active.uri.fsPath : undefined;
    const result = await ctx.execute(ServerCommands.explainLog, { log, path: logPath, source }, 'AscendC: explaining the log…');
    if (result === undefined) return;
    const origin = logPath ?? `${log.split('\n').length} line(s) of log`;
    ctx.showPanel('explain', 'AscendC: Explained Log', renderExplain(result, origin));
  });
}

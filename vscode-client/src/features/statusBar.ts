// The status bar item: the SoC and the active kernel's UB use (the server's `ascendc/status` notification),
// or the server's start problem; clicking picks the SoC.
import * as vscode from 'vscode';
import { State } from 'vscode-languageclient/node';
import { AscendcContext } from '../context';
import { config, DEFAULT_SOC } from '../settings';
import { formatStatus, isOverCapacity, KernelStatus, statusTooltip } from '../status';

export const SOCS = ['Ascend910B', 'Ascend910_93', 'Ascend310P', 'Ascend310B', 'Ascend910A', 'Ascend950'];

function normalizeUri(uri: string): string {
  try {
    return vscode.Uri.parse(uri).toString();
  } catch {
    return uri;
  }
}

export function registerStatusBar(ctx: AscendcContext): void {
  const item = vscode.window.createStatusBarItem('ascendc.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'AscendC';
  const statuses = new Map<string, KernelStatus>();
  ctx.extension.subscriptions.push(item);

  const show = (text: string, tooltip: string, error = false) => {
    item.text = text;
    item.tooltip = tooltip;
    item.command = error ? 'ascendc.showOutput' : 'ascendc.selectSoc';
    item.backgroundColor = error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    item.show();
  };

  const update = () => {
    if (ctx.lastStartProblem && !ctx.client) {
      show('$(error) AscendC', `${ctx.lastStartProblem}\n(click for the log)`, true);
      return;
    }
    if (ctx.client && ctx.client.state === State.Stopped) {
      show('$(error) AscendC', 'AscendC language server stopped (click for the log; "AscendC: Restart Server" restarts it)', true);
      return;
    }
    const doc = vscode.window.activeTextEditor?.document;
    const status = doc ? statuses.get(doc.uri.toString()) : undefined;
    if (!status && !ctx.isKernelDocument(doc)) {
      item.hide();
      return;
    }
    const soc = ctx.settings().soc;
    item.text = `$(circuit-board) ${formatStatus(soc, status)}`;
    item.tooltip = statusTooltip(soc, status);
    item.command = 'ascendc.selectSoc';
    item.backgroundColor = isOverCapacity(status) ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    item.show();
  };

  ctx.onClient((c) => {
    statuses.clear();
    c.onNotification('ascendc/status', (params: KernelStatus) => {
      if (params && typeof params.uri === 'string') {
        statuses.set(normalizeUri(params.uri), params);
        update();
      }
    });
  });
  ctx.onState(update);

  ctx.register('ascendc.selectSoc', async () => {
    const current = config().get<string>('soc', DEFAULT_SOC);
    const pick = await vscode.window.showQuickPick(
      SOCS.map((s) => ({ label: s, description: s === current ? 'current' : undefined })),
      { title: 'AscendC: SoC profile for the checks', placeHolder: current },
    );
    if (!pick) return;
    const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await config().update('soc', pick.label, target);
  });
  ctx.extension.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(() => update()),
    vscode.workspace.onDidCloseTextDocument((doc) => statuses.delete(doc.uri.toString())),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('ascendc.soc')) {
        statuses.clear();
        update();
      }
    }),
  );
  update();
}

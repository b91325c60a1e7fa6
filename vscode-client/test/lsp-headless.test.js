// Headless LSP client: starts `python -m ascendc_lsp serve --stdio` the way the VS Code client does and
// speaks plain LSP to it (vscode-languageserver-protocol over stdio). No VS Code needed.
//   ASCENDC_LSP_PYTHON   interpreter (default: ../.venv/bin/python relative to the repository root)
//   ASCENDC_LSP_TIMEOUT  seconds per wait (default 30)
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const cp = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const p = require('vscode-languageserver-protocol/node');
const { isCommandNotFound } = require('../out/errors.js');

const CLIENT_DIR = path.resolve(__dirname, '..');
const REPO = path.resolve(CLIENT_DIR, '..');
const PYTHON = process.env.ASCENDC_LSP_PYTHON || path.join(REPO, '.venv', 'bin', 'python');
const WAIT_MS = Number(process.env.ASCENDC_LSP_TIMEOUT || 30) * 1000;
const FIXTURES = path.join(__dirname, 'fixtures');

function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms / 1000} s waiting for ${what}`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function startServer() {
  const proc = cp.spawn(PYTHON, ['-m', 'ascendc_lsp', 'serve', '--stdio'], {
    cwd: REPO,
    env: { ...process.env, PYTHONUNBUFFERED: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (d) => {
    stderr += d.toString();
  });
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  const conn = p.createProtocolConnection(new p.StreamMessageReader(proc.stdout), new p.StreamMessageWriter(proc.stdin));
  const diagnostics = new Map();
  const waiters = [];
  conn.onNotification(p.PublishDiagnosticsNotification.type, (params) => {
    diagnostics.set(params.uri, params.diagnostics);
    for (const w of [...waiters]) {
      if (w.uri === params.uri && w.pred(params.diagnostics)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(params.diagnostics);
      }
    }
  });
  // Requests a server may send: answer them so it never blocks.
  conn.onRequest(p.ConfigurationRequest.type, (params) => params.items.map(() => null));
  conn.onRequest(p.WorkDoneProgressCreateRequest.type, () => null);
  conn.onRequest(p.RegistrationRequest.type, () => null);
  conn.onRequest(p.UnregistrationRequest.type, () => null);
  conn.onNotification(p.LogMessageNotification.type, () => undefined);
  conn.onNotification(p.ShowMessageNotification.type, () => undefined);
  conn.onNotification('ascendc/status', () => undefined);
  conn.listen();
  const waitDiagnostics = (uri, pred = () => true) => {
    if (diagnostics.has(uri) && pred(diagnostics.get(uri))) return Promise.resolve(diagnostics.get(uri));
    return new Promise((resolve) => waiters.push({ uri, pred, resolve }));
  };
  const failed = exited.then(({ code, signal }) => {
    throw new Error(`server exited early (code ${code}, signal ${signal}); stderr:\n${stderr.slice(-4000)}`);
  });
  failed.catch(() => undefined);
  /** Races `promise` against the server dying and a timeout. */
  const guard = (promise, what) => within(Promise.race([promise, failed]), WAIT_MS, what);
  return { proc, conn, exited, guard, waitDiagnostics, stderr: () => stderr };
}

function flattenSymbols(symbols) {
  const names = [];
  const walk = (list) => {
    for (const s of list || []) {
      names.push(s.name);
      walk(s.children);
    }
  };
  walk(symbols);
  return names;
}

test('ascendc-lsp over stdio: initialize, diagnostics, documentSymbol, unknown command, shutdown', { timeout: 4 * WAIT_MS }, async (t) => {
  assert.ok(fs.existsSync(PYTHON) || !PYTHON.includes(path.sep), `Python interpreter not found: ${PYTHON} (set ASCENDC_LSP_PYTHON)`);
  const s = startServer();
  t.after(() => {
    if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
  });
  const t0 = Date.now();
  const init = await s.guard(
    s.conn.sendRequest(p.InitializeRequest.type, {
      processId: process.pid,
      clientInfo: { name: 'ascendc-headless-test', version: '1' },
      rootUri: pathToFileURL(FIXTURES).href,
      workspaceFolders: [{ uri: pathToFileURL(FIXTURES).href, name: 'fixtures' }],
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        textDocument: {
          synchronization: { didSave: true },
          publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'source'] } } },
        },
        workspace: { configuration: true, workspaceFolders: true },
        window: { workDoneProgress: true },
      },
      initializationOptions: { settings: { soc: 'Ascend910B' } },
    }),
    'initialize',
  );
  t.diagnostic(`initialize answered in ${Date.now() - t0} ms by ${JSON.stringify(init.serverInfo || {})}`);
  assert.ok(init.capabilities, 'initialize result has capabilities');
  await s.conn.sendNotification(p.InitializedNotification.type, {});

  // 1. A file with a syntax error gets a diagnostic with code "syntax".
  const brokenPath = path.join(FIXTURES, 'broken.asc');
  const brokenUri = pathToFileURL(brokenPath).href;
  await s.conn.sendNotification(p.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: brokenUri, languageId: 'cpp', version: 1, text: fs.readFileSync(brokenPath, 'utf8') },
  });
  const brokenDiags = await s.guard(
    s.waitDiagnostics(brokenUri, (d) => d.some((x) => x.code === 'syntax')),
    `a diagnostic with code "syntax" for ${path.basename(brokenPath)}`,
  );
  t.diagnostic(`syntax diagnostics: ${JSON.stringify(brokenDiags.map((d) => [d.code, d.range.start, d.message]))}`);

  // 2. documentSymbol of a real kernel names the kernel entry.
  const kernelPath = path.join(FIXTURES, 'op_kernel', 'add_custom.cpp');
  const kernelUri = pathToFileURL(kernelPath).href;
  await s.conn.sendNotification(p.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: kernelUri, languageId: 'cpp', version: 1, text: fs.readFileSync(kernelPath, 'utf8') },
  });
  const kernelDiags = await s.guard(s.waitDiagnostics(kernelUri), `publishDiagnostics for ${path.basename(kernelPath)}`);
  t.diagnostic(`add_custom.cpp diagnostics: ${JSON.stringify(kernelDiags.map((d) => [d.code, d.message]))}`);
  assert.ok(!kernelDiags.some((d) => d.code === 'syntax'), 'the valid kernel has no syntax diagnostic');
  const symbols = await s.guard(
    s.conn.sendRequest(p.DocumentSymbolRequest.type, { textDocument: { uri: kernelUri } }),
    'documentSymbol',
  );
  const names = flattenSymbols(symbols);
  t.diagnostic(`symbols: ${JSON.stringify(names)}`);
  assert.ok(names.includes('add_custom'), `documentSymbol names the kernel add_custom (got ${JSON.stringify(names)})`);

  // 3. An unknown command is an error the VS Code client recognises as "command not found".
  const unknown = 'ascendc.noSuchCommandForTest';
  await assert.rejects(
    s.guard(s.conn.sendRequest(p.ExecuteCommandRequest.type, { command: unknown, arguments: [] }), 'executeCommand'),
    (err) => {
      t.diagnostic(`unknown command -> ${err.code}: ${err.message}`);
      assert.ok(isCommandNotFound(err, unknown), `client classifies ${JSON.stringify(err.message)} as command-not-found`);
      return true;
    },
  );

  // 4. Clean shutdown: shutdown request, exit notification, exit code 0.
  await s.guard(s.conn.sendRequest(p.ShutdownRequest.type), 'shutdown');
  await s.conn.sendNotification(p.ExitNotification.type);
  const { code, signal } = await within(s.exited, 15000, 'the server process to exit');
  s.conn.dispose();
  assert.equal(signal, null, `server exited by signal ${signal}`);
  assert.equal(code, 0, `server exit code (stderr tail: ${s.stderr().slice(-1000)})`);
});

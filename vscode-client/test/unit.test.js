// Unit tests of the extension's vscode-free modules (compiled to out/ by build.mjs).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { formatStatus, isOverCapacity } = require('../out/status.js');
const { isCommandNotFound, isCancelled } = require('../out/errors.js');
const { resolvePython, checkPython } = require('../out/python.js');
const { findSpecsBeside, buildSpec, peekSpec, parseShape, validateKernelName } = require('../out/specs.js');
const { parseTrace, renderTimelineSvg } = require('../out/timeline.js');
const { renderRunResult, renderExplain, renderOutputs, renderCancelled, highlightJson } = require('../out/render.js');
const { isKernelFile, isKernelPath, looksLikeKernel } = require('../out/kernelfiles.js');
const { ServerCommands, ErrorCode } = require('../out/protocol.js');

test('status bar text', () => {
  assert.equal(formatStatus('Ascend910B', { soc: 'Ascend910B', ubUsedBytes: 65536, ubCapacityBytes: 196608 }), 'Ascend910B · UB 64.0/192.0 KB');
  assert.equal(formatStatus('Ascend910B'), 'Ascend910B');
  assert.equal(formatStatus('Ascend910B', { soc: 'Ascend310P', ubUsedBytes: null, ubCapacityBytes: 262144 }), 'Ascend310P');
  assert.ok(isOverCapacity({ ubUsedBytes: 393216, ubCapacityBytes: 196608 }));
  assert.ok(!isOverCapacity({ ubUsedBytes: 1, ubCapacityBytes: 196608 }));
});

test('command-not-found classification', () => {
  assert.ok(isCommandNotFound({ code: -32602, message: "Command name 'ascendc.runKernel' is not defined" }, 'ascendc.runKernel'));
  assert.ok(isCommandNotFound({ code: -32601, message: 'Unhandled method workspace/executeCommand' }));
  assert.ok(!isCommandNotFound({ code: -32602, message: 'missing argument specPath' }, 'ascendc.runKernel'));
  assert.ok(!isCommandNotFound({ code: -32603, message: 'compile failed' }, 'ascendc.runKernel'));
  assert.ok(isCancelled({ code: -32800, message: 'Request cancelled' }));
});

test('python resolution: setting, workspace .venv, python3', () => {
  const ws = '/ws';
  assert.deepEqual(resolvePython('/opt/py/bin/python', [ws], () => true), { python: '/opt/py/bin/python', source: 'setting' });
  assert.equal(resolvePython('${workspaceFolder}/env/bin/python', [ws], () => false).python, '/ws/env/bin/python');
  assert.deepEqual(resolvePython('', [ws], (p) => p === '/ws/.venv/bin/python', 'linux'), { python: '/ws/.venv/bin/python', source: 'workspace .venv' });
  assert.deepEqual(resolvePython(undefined, [ws], () => false, 'linux'), { python: 'python3', source: 'default' });
});

test('python check tells a missing interpreter from a missing package', async () => {
  const missing = await checkPython('/nonexistent/python3', 5000);
  assert.equal(missing.ok, false);
  assert.equal(missing.kind, 'no-python');
  const py = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const env = { ...process.env, PYTHONPATH: '', PYTHONNOUSERSITE: '1' };
  const noPkg = await checkPython(py, 20000, env);
  if (!noPkg.ok) assert.equal(noPkg.kind, 'no-package');
});

test('spec beside a kernel source', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ascendc-spec-'));
  try {
    fs.mkdirSync(path.join(dir, 'op_kernel'));
    const src = path.join(dir, 'op_kernel', 'add_custom.cpp');
    fs.writeFileSync(src, '// kernel\n');
    fs.writeFileSync(path.join(dir, 'other.yaml'), 'kernel: mul_custom\n');
    fs.writeFileSync(path.join(dir, 'notes.yaml'), 'title: not a spec\n');
    fs.writeFileSync(path.join(dir, 'add.yaml'), 'kernel: add_custom\nsource: op_kernel/add_custom.cpp # the source\n');
    const found = findSpecsBeside(src);
    assert.deepEqual(found.map((f) => path.basename(f.path)), ['add.yaml', 'other.yaml']);
    assert.ok(found[0].score > found[1].score);
    assert.ok(found.every((f) => f.kind === 'spec'));
    // an op test case naming this kernel's project: run as a test case, ranked above loose specs
    fs.writeFileSync(path.join(dir, 'case.yaml'), `project: ${dir}\ninputs: []\n`);
    const withCase = findSpecsBeside(src);
    const testCase = withCase.find((f) => path.basename(f.path) === 'case.yaml');
    assert.equal(testCase.kind, 'testCase');
    assert.ok(testCase.score > withCase.find((f) => path.basename(f.path) === 'other.yaml').score);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(peekSpec('{"kernel": "k", "source": "k.cpp"}'), { kernel: 'k', source: 'k.cpp' });
  assert.deepEqual(parseShape('8, 2048'), [8, 2048]);
  assert.equal(parseShape('8, -1'), undefined);
  assert.ok(validateKernelName('1abc'));
  const spec = buildSpec({ kernel: 'k', description: 'd', inputs: ['x', 'y'], outputs: ['z'], shape: [4, 16], dtype: 'float16', reference: 'z = x + y' });
  assert.equal(spec.kernel, 'k');
  assert.equal(spec.inputs.length, 2);
  assert.deepEqual(spec.outputs[0], { name: 'z', shape: [4, 16], dtype: 'float16' });
});

test('timeline: Chrome trace with metadata, X and B/E events -> SVG', () => {
  const trace = {
    traceEvents: [
      { ph: 'M', name: 'process_name', pid: 0, args: { name: 'block 0' } },
      { ph: 'M', name: 'thread_name', pid: 0, tid: 1, args: { name: 'MTE2' } },
      { ph: 'M', name: 'thread_name', pid: 0, tid: 2, args: { name: 'V' } },
      { ph: 'X', name: 'DataCopy', pid: 0, tid: 1, ts: 0, dur: 4 },
      { ph: 'X', name: 'Add', pid: 0, tid: 2, ts: 4, dur: 2 },
      { ph: 'B', name: 'DataCopy', pid: 1, tid: 'mte3', ts: 6 },
      { ph: 'E', pid: 1, tid: 'mte3', ts: 9 },
    ],
  };
  const model = parseTrace(trace);
  assert.equal(model.spanCount, 3);
  assert.equal(model.t0, 0);
  assert.equal(model.t1, 9);
  assert.deepEqual(model.lanes.map((l) => `${l.block}/${l.pipe}`), ['block 0/MTE2', 'block 0/V', 'block 1/mte3']);
  const svg = renderTimelineSvg(model);
  assert.match(svg, /^<svg/);
  assert.equal((svg.match(/<rect [^>]*fill="#/g) || []).length, 3);
  assert.ok(!/<script/i.test(svg));
  assert.equal(parseTrace([]).spanCount, 0);
});

test('run result page is static HTML with the numbers', () => {
  const html = renderRunResult(
    {
      stage_reached: 'done', compiled: true, ran: true, correct: false, max_abs_error: 0.5, mismatches: 3,
      diagnostics: [{ range: { start: { line: 4, character: 2 } }, severity: 'error', code: 'ASC001', message: 'UB <overflow>' }],
      estimate: { cycles: 1200, microseconds: 0.65, bottleneck: 'mte2', pipes: { mte2: 900, vector: 200 } },
    },
    { title: 'Run: k.cpp' },
  );
  assert.match(html, /correct: no/);
  assert.match(html, /ASC001/);
  assert.match(html, /UB &lt;overflow&gt;/);
  assert.match(html, /bottleneck/);
  assert.ok(!/<script/i.test(html));
  assert.match(html, /default-src 'none'/);
  assert.match(renderExplain({ matches: [{ id: 'e1', title: 'T', score: 0.8, fix: 'do x' }] }, 'log'), /1\. T/);
  assert.match(highlightJson({ a: 'b', n: 1, t: true }), /<span class="k">&quot;a&quot;<\/span>/);
});

test('an output that matches after the run reported errors is not "ok"; a cancelled run says so', () => {
  const outputs = [{ name: 'c', compared: true, elements: 1024, mismatches: 0, max_abs_error: 0 }];
  assert.match(renderOutputs(outputs), /<td class="sev-information">ok<\/td>/);
  const untrusted = renderRunResult(
    { compiled: true, ran: false, correct: false, outputs, diagnostics: [{ severity: 'error', code: '507015', message: 'Mmad writes past L0C' }] },
    { title: 'Run: mm.cpp' },
  );
  assert.match(untrusted, /matches, not trusted \(the run reported errors\)/);
  assert.ok(!/>ok</.test(untrusted));
  const mismatchOnly = renderRunResult(
    { compiled: true, ran: true, correct: false, outputs: [{ ...outputs[0], mismatches: 3 }], diagnostics: [{ severity: 'error', code: 'mismatch', message: 'differs' }] },
    { title: 'Run: mm.cpp' },
  );
  assert.match(mismatchOnly, />MISMATCH</);
  const cancelled = renderCancelled({ title: 'Run: slow_copy.cpp', target: 'spec: slow_copy.yaml', seconds: 12.34 });
  assert.match(cancelled, /<h1>Run: slow_copy.cpp<\/h1>/);
  assert.match(cancelled, /Cancelled after 12.3 s: the server stopped the run/);
  assert.ok(!/<script/i.test(cancelled));
});

test('kernel files: op_kernel sources, .asc, and C++ that uses AscendC; host C++ is left to clangd', () => {
  assert.ok(isKernelPath('/p/add_custom/op_kernel/add_custom.cpp'));
  assert.ok(isKernelPath('C:\\p\\op_kernel\\sub\\k.h'));
  assert.ok(isKernelPath('/p/demo/add.asc'));
  assert.ok(!isKernelPath('/p/add_custom/op_host/add_custom.cpp'));
  assert.ok(!isKernelPath('/p/main.cpp'));
  assert.ok(looksLikeKernel('#include "kernel_operator.h"\n'));
  assert.ok(looksLikeKernel('extern "C" __global__ __aicore__ void k(GM_ADDR x) {}'));
  assert.ok(!looksLikeKernel('#include <vector>\nint main() { return 0; }\n'));
  assert.ok(!looksLikeKernel(' '.repeat(70 * 1024) + '__aicore__'), 'only the head of a large file is read');
  assert.ok(isKernelFile('/p/host/main.cpp', '#include "kernel_operator.h"'));
  assert.ok(!isKernelFile('/p/host/main.cpp', 'int main() {}'));
});

test('server command ids differ from the client command ids (no monkeypatching of executeCommand)', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  const clientIds = new Set(pkg.contributes.commands.map((c) => c.command));
  for (const id of Object.values(ServerCommands)) assert.ok(!clientIds.has(id), id);
  assert.equal(ErrorCode.invalidParams, -32602);
});

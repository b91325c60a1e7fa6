// Kernel specs: finding the spec beside a kernel source, and building a spec from the short form.
// No vscode import.
import * as fs from 'node:fs';
import * as path from 'node:path';

const SPEC_EXT = /\.(ya?ml|json)$/i;

export interface SpecPeek {
  kernel?: string;
  source?: string;
  project?: string; // an op test case names its op project (and/or its op)
  op?: string;
}

/** Reads `kernel:`, `source:`, `project:` and `op:` from a spec or test case without a YAML library (top-level
 * scalar keys only). */
export function peekSpec(text: string): SpecPeek {
  const out: SpecPeek = {};
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      const obj = JSON.parse(trimmed) as Record<string, unknown>;
      for (const key of ['kernel', 'source', 'project', 'op'] as const) {
        if (typeof obj[key] === 'string') out[key] = obj[key] as string;
      }
      return out;
    } catch {
      return out;
    }
  }
  for (const line of text.split(/\r?\n/)) {
    const m = /^(kernel|source|project|op)\s*:\s*["']?([^"'#\s]+)["']?/.exec(line);
    if (m) {
      out[m[1] as keyof SpecPeek] = m[2];
    }
  }
  return out;
}

export interface SpecCandidate {
  path: string;
  score: number;
  kernel?: string;
  /** 'spec': a kernel spec (`kernel:`); 'testCase': an op project's test case (`project:`/`op:`, no `kernel:`). */
  kind: 'spec' | 'testCase';
}

/** A test case is a YAML naming an op project or an op and no kernel (toolchain/opproject/testcase.py). */
export function isTestCase(info: SpecPeek): boolean {
  return !info.kernel && Boolean(info.project || info.op);
}

/**
 * Spec files and op test cases that plausibly describe `sourcePath`, best first. Looks in the source's folder,
 * its parent and grandparent (framework projects keep op_kernel/ and the spec side by side). A test case whose
 * `project:` contains the source scores 90. Scores: the spec's `source:`
 * names this file (100), same stem (`add_custom.yaml`, `add_custom.spec.yaml`: 80), `kernel:` equals the
 * stem (60), `spec.yaml` (40), any other spec with a `kernel:` key (10). Files without `kernel:` are skipped.
 */
export function findSpecsBeside(sourcePath: string, readDir = fs.readdirSync, readFile = (p: string) => fs.readFileSync(p, 'utf8')): SpecCandidate[] {
  const dir = path.dirname(sourcePath);
  const stem = path.basename(sourcePath).replace(/\.[^.]+$/, '');
  const found: SpecCandidate[] = [];
  for (const d of [...new Set([dir, path.dirname(dir), path.dirname(path.dirname(dir))])]) {
    let names: string[];
    try {
      names = readDir(d) as unknown as string[];
    } catch {
      continue;
    }
    for (const name of names) {
      if (!SPEC_EXT.test(name) || name === 'package.json' || name.startsWith('.')) {
        continue;
      }
      const p = path.join(d, name);
      let text: string;
      try {
        text = readFile(p);
      } catch {
        continue;
      }
      if (text.length > 1_000_000) continue;
      const info = peekSpec(text);
      if (isTestCase(info)) {
        // a case whose project path contains this kernel file is the one to run; other cases rank low
        const project = info.project ? path.resolve(d, info.project) : '';
        const projectRoot = project && /\.(cpp|cc|h|hpp|asc)$/i.test(project) ? path.dirname(path.dirname(project)) : project;
        const inside = projectRoot !== '' && path.resolve(sourcePath).startsWith(projectRoot + path.sep);
        found.push({ path: p, score: inside ? 90 - (d !== dir ? 5 : 0) : 20, kernel: info.op, kind: 'testCase' });
        continue;
      }
      if (!info.kernel) {
        continue;
      }
      const specStem = name.replace(SPEC_EXT, '').replace(/\.spec$/i, '');
      let score = 10;
      if (info.source && path.resolve(d, info.source) === path.resolve(sourcePath)) score = 100;
      else if (specStem === stem) score = 80;
      else if (info.kernel === stem) score = 60;
      else if (/^spec$/i.test(specStem)) score = 40;
      if (d !== dir) score -= 5;
      found.push({ path: p, score, kernel: info.kernel, kind: 'spec' });
    }
  }
  found.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
  return found;
}

export const DTYPES = ['float16', 'float32', 'bfloat16', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'bool'] as const;

export interface SpecForm {
  kernel: string;
  description: string;
  inputs: string[];
  outputs: string[];
  shape: number[];
  dtype: string;
  reference: string;
  soc?: string;
  blockDim?: number;
}

export function validateKernelName(name: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.trim())) {
    return 'A C++ identifier, e.g. add_custom';
  }
  return undefined;
}

export function parseNames(text: string): string[] {
  return text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
}

export function validateNames(text: string): string | undefined {
  const names = parseNames(text);
  if (names.length === 0) return 'At least one name, e.g. x, y';
  const bad = names.find((n) => validateKernelName(n));
  return bad ? `"${bad}" is not an identifier` : undefined;
}

export function parseShape(text: string): number[] | undefined {
  const parts = text.replace(/[[\]()]/g, '').split(/[\s,x×]+/).filter(Boolean);
  if (parts.length === 0) return undefined;
  const dims = parts.map((p) => Number(p));
  return dims.every((d) => Number.isInteger(d) && d > 0) ? dims : undefined;
}

/** The spec (architecture.md "Kernel spec") the short form describes. */
export function buildSpec(form: SpecForm): Record<string, unknown> {
  const tensor = (name: string, isInput: boolean) => {
    const t: Record<string, unknown> = { name, shape: form.shape, dtype: form.dtype };
    if (isInput) t.init = form.dtype === 'bool' ? { randint: [0, 2] } : form.dtype.startsWith('int') || form.dtype.startsWith('uint') ? { randint: [0, 100] } : { uniform: [-1, 1] };
    return t;
  };
  const spec: Record<string, unknown> = {
    kernel: form.kernel,
    source: `${form.kernel}.cpp`,
    block_dim: form.blockDim ?? 8,
    inputs: form.inputs.map((n) => tensor(n, true)),
    outputs: form.outputs.map((n) => tensor(n, false)),
    reference: form.reference.endsWith('\n') ? form.reference : `${form.reference}\n`,
    tolerance: form.dtype === 'float32' ? { rtol: 1e-4, atol: 1e-5 } : { rtol: 1e-3, atol: 1e-3 },
    seed: 0,
    description: form.description,
  };
  if (form.soc) spec.soc = form.soc;
  return spec;
}

/** JSON is valid YAML, so a spec written this way is read by every YAML-based tool of the project. */
export function specToText(spec: Record<string, unknown>): string {
  return `${JSON.stringify(spec, null, 2)}\n`;
}

import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  bundledWheel,
  chooseInterpreter,
  DEFAULT_INTERPRETER,
  installArgs,
  interpreterInSettings,
  probeArgs,
  serverArgs,
} from '../src/interpreter';

describe('chooseInterpreter', () => {
  it('prefers the vtlint.interpreter setting', () => {
    assert.deepStrictEqual(chooseInterpreter('/opt/py/bin/python', '/env/bin/python'), {
      command: '/opt/py/bin/python',
      source: 'setting',
    });
  });

  it('expands ${workspaceFolder} and ~ in the setting', () => {
    const vars = { workspaceFolder: '/ws', home: '/home/u' };
    assert.strictEqual(chooseInterpreter('${workspaceFolder}/.venv/bin/python', undefined, vars).command, '/ws/.venv/bin/python');
    assert.strictEqual(chooseInterpreter('~/venv/bin/python', undefined, vars).command, '/home/u/venv/bin/python');
  });

  it("falls back to the Python extension's active environment", () => {
    assert.deepStrictEqual(chooseInterpreter('  ', '/env/bin/python'), { command: '/env/bin/python', source: 'python-extension' });
  });

  it('falls back to python3', () => {
    assert.deepStrictEqual(chooseInterpreter(undefined, undefined), { command: DEFAULT_INTERPRETER, source: 'default' });
    assert.strictEqual(DEFAULT_INTERPRETER, 'python3');
  });

  it('uses nothing an untrusted workspace chose: not the Python extension, not a setting into the folder', () => {
    const vars = { workspaceFolder: '/ws', home: '/home/u' };
    assert.deepStrictEqual(chooseInterpreter(undefined, '/ws/.venv/bin/python', vars, false), {
      command: DEFAULT_INTERPRETER,
      source: 'default',
    });
    assert.strictEqual(chooseInterpreter('${workspaceFolder}/.venv/bin/python', undefined, vars, false).source, 'default');
    assert.strictEqual(chooseInterpreter('~/venv/bin/python', '/ws/.venv/bin/python', vars, false).command, '/home/u/venv/bin/python');
  });

  it('starts the server and the probe isolated (-I), as a module', () => {
    assert.deepStrictEqual(serverArgs(), ['-I', '-m', 'vtlint', 'lsp']);
    assert.deepStrictEqual(probeArgs(), ['-I', '-c', 'import vtlint.lsp.server']);
  });

  it('installs the bundled wheel, never `vtlint` from the package index (it is not there)', () => {
    const wheel = bundledWheel('/ext/dist/python', ['README', 'vtlint-0.1.0-py3-none-any.whl']);
    assert.strictEqual(wheel, '/ext/dist/python/vtlint-0.1.0-py3-none-any.whl');
    assert.deepStrictEqual(installArgs(wheel), ['-I', '-m', 'pip', 'install', '--upgrade', wheel]);
    assert.strictEqual(installArgs(bundledWheel('/ext/dist/python', [])), undefined);
  });
});

describe('interpreterInSettings', () => {
  it("reads vtlint.interpreter from a workspace's settings file (JSON with comments) or .code-workspace", () => {
    const jsonc = `{
      // the project's environment
      "editor.rulers": [100,],
      /* block */ "vtlint.interpreter": "\${workspaceFolder}/.venv/bin/python", // trailing
      "x": "http://not/a comment",
    }`;
    assert.strictEqual(interpreterInSettings(jsonc), '${workspaceFolder}/.venv/bin/python');
    const workspaceFile = JSON.stringify({ folders: [{ path: '.' }], settings: { 'vtlint.interpreter': '/opt/py' } });
    assert.strictEqual(interpreterInSettings(workspaceFile), '/opt/py');
    assert.strictEqual(interpreterInSettings('{"folders": [], "vtlint.interpreter": "/top"}'), undefined);
    for (const junk of ['', '{', '[]', 'null', '{"vtlint.interpreter": 5}', '{"vtlint.interpreter": "  "}', '"/*']) {
      assert.strictEqual(interpreterInSettings(junk), undefined, junk);
    }
  });
});

describe('a workspace holding a vtlint package', () => {
  const python = process.env.VTLINT_PYTHON ?? 'python3';
  let available = true;
  try {
    execFileSync(python, ['-c', 'pass']);
  } catch {
    available = false;
  }

  (available ? it : it.skip)('is never run by the server or the probe, even as their working directory', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'vtlint-ws-'));
    try {
      fs.mkdirSync(path.join(ws, 'vtlint', 'lsp'), { recursive: true });
      const plant = "open('MARKER', 'w')\n";
      for (const file of ['__init__.py', '__main__.py', path.join('lsp', '__init__.py'), path.join('lsp', 'server.py')]) {
        fs.writeFileSync(path.join(ws, 'vtlint', file), plant);
      }
      for (const args of [serverArgs(), probeArgs()]) {
        try {
          execFileSync(python, [...args, '--version'], { cwd: ws, stdio: 'ignore', timeout: 20000 });
        } catch {
          // vtlint may be missing from this Python, or the server refuses --version: either is fine
        }
        assert.ok(!fs.existsSync(path.join(ws, 'MARKER')), `${args.join(' ')} ran the workspace's vtlint`);
      }
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});

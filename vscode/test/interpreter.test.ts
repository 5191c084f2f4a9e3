import * as assert from 'assert';
import { bundledWheel, chooseInterpreter, DEFAULT_INTERPRETER, installArgs, serverArgs } from '../src/interpreter';

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

  it('starts the server as a module', () => {
    assert.deepStrictEqual(serverArgs(), ['-m', 'vtlint', 'lsp']);
  });

  it('installs the bundled wheel, never `vtlint` from the package index (it is not there)', () => {
    const wheel = bundledWheel('/ext/dist/python', ['README', 'vtlint-0.1.0-py3-none-any.whl']);
    assert.strictEqual(wheel, '/ext/dist/python/vtlint-0.1.0-py3-none-any.whl');
    assert.deepStrictEqual(installArgs(wheel), ['-m', 'pip', 'install', '--upgrade', wheel]);
    assert.strictEqual(installArgs(bundledWheel('/ext/dist/python', [])), undefined);
  });
});

import * as assert from 'assert';
import { chooseInterpreter, DEFAULT_INTERPRETER, serverArgs } from '../src/interpreter';

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
});

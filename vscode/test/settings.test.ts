import * as assert from 'assert';
import { runtimeAllowed, serverSettings } from '../src/settings';

describe('serverSettings', () => {
  it('maps select/ignore to upper-case codes, splitting commas', () => {
    const s = serverSettings({ select: ['vtl1', 'VTL2, vtl301'], ignore: [' vtl201 '] }, true);
    assert.deepStrictEqual(s.select, ['VTL1', 'VTL2', 'VTL301']);
    assert.deepStrictEqual(s.ignore, ['VTL201']);
    assert.strictEqual(s.enable, true);
  });

  it('drops non-string entries', () => {
    const s = serverSettings({ select: ['VTL1', 3 as unknown as string] }, true);
    assert.deepStrictEqual(s.select, ['VTL1']);
  });

  it('passes the harness command and onSave in a trusted workspace', () => {
    const s = serverSettings({ runtimeCommand: ' python harness.py ', runtimeOnSave: true }, true);
    assert.deepStrictEqual(s.runtime, { command: 'python harness.py', onSave: true });
    assert.strictEqual(s.trusted, true);
  });

  it('never hands a harness to the server in an untrusted workspace', () => {
    const s = serverSettings({ runtimeCommand: 'python harness.py', runtimeOnSave: true }, false);
    assert.deepStrictEqual(s.runtime, { command: undefined, onSave: false });
    assert.strictEqual(s.trusted, false);
  });

  it('honours enable=false', () => {
    assert.strictEqual(serverSettings({ enable: false }, true).enable, false);
  });
});

describe('runtimeAllowed', () => {
  it('refuses in an untrusted workspace with a reason', () => {
    const r = runtimeAllowed(false);
    assert.strictEqual(r.ok, false);
    assert.match(r.reason ?? '', /trust/);
  });
  it('allows in a trusted workspace', () => {
    assert.deepStrictEqual(runtimeAllowed(true), { ok: true });
  });
});

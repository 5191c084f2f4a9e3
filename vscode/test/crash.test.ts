import * as assert from 'assert';
import { CrashPolicy } from '../src/crash';

describe('CrashPolicy', () => {
  it('restarts at most N times within the window', () => {
    const p = new CrashPolicy(2, 1000);
    assert.strictEqual(p.shouldRestart(0), true);
    assert.strictEqual(p.shouldRestart(10), true);
    assert.strictEqual(p.shouldRestart(20), false);
    assert.match(p.message(), /crashed 3 times/);
  });

  it('forgets crashes older than the window', () => {
    const p = new CrashPolicy(1, 1000);
    assert.strictEqual(p.shouldRestart(0), true);
    assert.strictEqual(p.shouldRestart(5000), true);
  });

  it('starts afresh after a reset', () => {
    const p = new CrashPolicy(1, 1000);
    p.shouldRestart(0);
    assert.strictEqual(p.shouldRestart(1), false);
    p.reset();
    assert.strictEqual(p.shouldRestart(2), true);
  });
});

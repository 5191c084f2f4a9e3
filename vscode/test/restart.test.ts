import * as assert from 'assert';
import { restrictedNote, skippedInterpreters } from '../src/interpreter';
import { RestartQueue } from '../src/restart';
import { FakeClient, loadExtension, seeded, World } from './fakes';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A queue over clients that are plain numbers, recording what runs at the same time. */
function recorder(seed: number, failures: Set<number> = new Set()) {
  const random = seeded(seed);
  const log = { active: 0, maxActive: 0, starts: [] as number[], stops: [] as number[], failed: [] as unknown[], seen: [] as string[] };
  let value = 'v0';
  let n = 0;
  const step = async <T>(run: () => T): Promise<T> => {
    log.active++;
    log.maxActive = Math.max(log.maxActive, log.active);
    try {
      await sleep(Math.floor(random() * 4));
      return run();
    } finally {
      log.active--;
    }
  };
  const queue = new RestartQueue<number>({
    start: () =>
      step(() => {
        const id = ++n;
        log.seen.push(value);
        if (failures.has(id)) {
          throw new Error(`start ${id} failed`);
        }
        log.starts.push(id);
        return id;
      }),
    stop: (id) => step(() => void log.stops.push(id)),
    failed: (error) => log.failed.push(error),
  });
  return { queue, log, set: (v: string) => (value = v) };
}

describe('RestartQueue', () => {
  it('never starts or stops two clients at once, whatever the timing of the requests', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { queue, log } = recorder(seed);
      const random = seeded(seed * 7);
      const pending: Promise<void>[] = [];
      for (let i = 0; i < 12; i++) {
        pending.push(queue.restart());
        if (random() < 0.5) {
          await sleep(Math.floor(random() * 5));
        }
      }
      await Promise.all(pending);
      assert.strictEqual(log.maxActive, 1, `seed ${seed}: two steps ran at once`);
      // each client is stopped before the next one starts; only the last is left
      assert.deepStrictEqual(log.stops, log.starts.slice(0, -1), `seed ${seed}`);
      assert.strictEqual(queue.client, log.starts[log.starts.length - 1]);
    }
  });

  it('serves the requests made during a restart with one more restart, which sees the last change', async () => {
    const { queue, log, set } = recorder(3);
    const first = queue.restart();
    const during: Promise<void>[] = [];
    for (const v of ['v1', 'v2', 'v3', 'v4', 'v5']) {
      set(v);
      during.push(queue.restart());
    }
    await Promise.all([first, ...during]);
    assert.deepStrictEqual(log.starts, [1, 2]);
    assert.deepStrictEqual(log.seen, ['v5', 'v5']);
    assert.strictEqual(queue.busy, false);
  });

  it("resolves each caller once a restart that began after its request has finished", async () => {
    const { queue, log } = recorder(5);
    void queue.restart();
    await sleep(1);
    const startsBefore = log.starts.length;
    await queue.restart();
    assert.ok(log.starts.length > startsBefore, 'resolved before a restart that saw the request');
  });

  it('tells a start that a newer request made it moot', async () => {
    const verdicts: boolean[] = [];
    const queue = new RestartQueue<string>({
      start: async (stale) => {
        await sleep(2);
        verdicts.push(stale());
        return stale() ? undefined : 'client';
      },
      stop: async () => undefined,
    });
    const a = queue.restart();
    const b = queue.restart();
    await Promise.all([a, b]);
    assert.deepStrictEqual(verdicts, [true, false]);
    assert.strictEqual(queue.client, 'client');
  });

  it('goes on after a start that throws', async () => {
    const { queue, log } = recorder(9, new Set([1]));
    await queue.restart();
    assert.strictEqual(queue.client, undefined);
    assert.strictEqual(log.failed.length, 1);
    await queue.restart();
    assert.deepStrictEqual(log.starts, [2]);
    assert.strictEqual(queue.client, 2);
  });

  it('closes after the restart under way, stops the client and ignores later requests', async () => {
    const { queue, log } = recorder(11);
    const restarting = queue.restart();
    await queue.close();
    await restarting;
    assert.deepStrictEqual(log.stops, log.starts);
    assert.strictEqual(queue.client, undefined);
    await queue.restart();
    assert.strictEqual(log.starts.length, 1);
  });
});

describe('the extension restarting its client', () => {
  const context = () => ({ extensionPath: '/ext', subscriptions: [] as { dispose(): unknown }[] });
  const COMMANDS = ['vtlint.restart', 'vtlint.showOutput', 'vtlint.confirmAtRuntime', 'vtlint.serverStatus'];

  async function activated(world: World) {
    const ext = loadExtension(world);
    const ctx = context();
    await ext.activate(ctx);
    return { ext, ctx };
  }

  /** Wait until a restart requested now has finished (the restart command's promise). */
  const settle = (world: World) => world.commands.get('vtlint.restart')!() as Promise<void>;

  it('restarts on settings, trust, Python environment and the command at once: one client at a time, the last settings win', async () => {
    for (let seed = 1; seed <= 10; seed++) {
      const world = new World(seed);
      world.trusted = false;
      world.settings.interpreter = '';
      const { ext } = await activated(world);
      const random = seeded(seed * 13);
      const pending: unknown[] = [];
      for (let i = 1; i <= 8; i++) {
        const what = Math.floor(random() * 4);
        if (what === 0) {
          world.changeSettings({ select: [`VTL${i}`] });
        } else if (what === 1) {
          world.grantTrust();
        } else if (what === 2) {
          world.fire(world.envListeners);
        } else {
          pending.push(world.commands.get('vtlint.restart')!());
        }
        if (random() < 0.5) {
          await sleep(Math.floor(random() * 6));
        }
      }
      world.changeSettings({ select: ['LAST'] });
      world.grantTrust();
      await Promise.all(pending);
      await settle(world);
      assert.deepStrictEqual(world.overlaps, [], `seed ${seed}`);
      assert.deepStrictEqual(world.errors(), [], `seed ${seed}`);
      const alive = world.alive();
      assert.strictEqual(alive.length, 1, `seed ${seed}: ${alive.length} clients alive`);
      assert.strictEqual(alive[0], world.clients[world.clients.length - 1]);
      assert.deepStrictEqual(alive[0].settings.select, ['LAST']);
      assert.strictEqual(alive[0].settings.trusted, true);
      assert.deepStrictEqual([...world.registerCalls].sort(), [...COMMANDS].sort(), `seed ${seed}`);
      await ext.deactivate();
      assert.strictEqual(world.alive().length, 0);
    }
  });

  it('registers each command once per activation, however many restarts', async () => {
    const world = new World(2);
    const { ext } = await activated(world);
    for (let i = 0; i < 10; i++) {
      await settle(world);
    }
    assert.ok(world.clients.length >= 11);
    assert.deepStrictEqual([...world.registerCalls].sort(), [...COMMANDS].sort());
    // the client's own registration of the server's commands is left out: the extension's stands
    for (const client of world.clients) {
      assert.ok(!client.features.some((f) => f.registrationType?.method === 'workspace/executeCommand'));
      assert.ok(client.features.some((f) => f.registrationType?.method === 'workspace/didChangeConfiguration'));
    }
    await ext.deactivate();
  });

  it('trusting the workspace (the trust event and a settings change in the same instant) replaces the client once, without errors', async () => {
    const world = new World(4);
    world.trusted = false;
    world.workspaceSettings.interpreter = '/ws/.venv/bin/python';
    const { ext } = await activated(world);
    assert.strictEqual(world.clients.length, 1);
    assert.strictEqual(world.clients[0].serverOptions.command, '/user/bin/python');
    assert.match(world.status.text, /static only/);
    // VS Code fires both when trust is granted: the workspace's restricted settings now apply
    world.grantTrust();
    world.changeSettings({});
    await settle(world);
    assert.deepStrictEqual(world.overlaps, []);
    assert.deepStrictEqual(world.errors(), []);
    assert.strictEqual(world.clients[0].state, 'stopped');
    const last = world.clients[world.clients.length - 1];
    assert.strictEqual(last.state, 'running');
    assert.strictEqual(last.serverOptions.command, '/ws/.venv/bin/python');
    assert.strictEqual(world.alive().length, 1);
    assert.doesNotMatch(world.status.text, /static only/);
    await ext.deactivate();
  });

  it("in Restricted Mode starts with the user's interpreter, not the workspace's, and says why once", async () => {
    const world = new World(6);
    world.trusted = false;
    world.workspaceSettings.interpreter = '/ws/.venv/bin/python';
    const { ext } = await activated(world);
    await settle(world);
    await settle(world);
    for (const client of world.clients) {
      assert.strictEqual(client.serverOptions.command, '/user/bin/python');
      assert.strictEqual(client.settings.trusted, false);
    }
    const infos = world.messages.filter((m) => m.kind === 'info').map((m) => m.text);
    assert.strictEqual(infos.length, 1, JSON.stringify(infos));
    assert.match(infos[0], /Restricted Mode/);
    assert.match(infos[0], /The workspace's vtlint\.interpreter \(\/ws\/\.venv\/bin\/python\)/);
    assert.match(infos[0], /the Python extension's environment \(\/ws\/\.venv\/bin\/python\)/);
    assert.ok(world.output.some((l) => l.includes('Restricted Mode')));
    await ext.deactivate();
  });

  it('sends vtlint.confirmAtRuntime to the running client, and refuses it while untrusted', async () => {
    const world = new World(8);
    world.trusted = false;
    const { ext } = await activated(world);
    await world.commands.get('vtlint.confirmAtRuntime')!('file:///ws/a.py');
    assert.match(world.messages.map((m) => m.text).join('\n'), /trust this workspace first/);
    assert.deepStrictEqual(world.clients.flatMap((c) => c.requests), []);
    world.grantTrust();
    // a command sent during the restart goes to the client that restart starts
    const result = await world.commands.get('vtlint.confirmAtRuntime')!('file:///ws/a.py');
    assert.deepStrictEqual(result, { ok: true, text: 'ran vtlint.confirmAtRuntime' });
    const last: FakeClient = world.clients[world.clients.length - 1];
    assert.deepStrictEqual(last.requests, [{ command: 'vtlint.confirmAtRuntime', arguments: ['file:///ws/a.py'] }]);
    await ext.deactivate();
  });

  it('starts nothing after deactivation', async () => {
    const world = new World(10);
    const { ext } = await activated(world);
    const restarting = settle(world);
    await ext.deactivate();
    await restarting;
    world.changeSettings({ select: ['VTL1'] });
    await settle(world);
    assert.strictEqual(world.alive().length, 0);
    assert.deepStrictEqual(world.overlaps, []);
  });
});

describe('restrictedNote', () => {
  it("names what the untrusted workspace chose and what runs instead", () => {
    const chosen = { command: '/usr/bin/python3', source: 'setting' as const };
    const skipped = skippedInterpreters('/ws/.venv/bin/python', '/usr/bin/python3', '/ws/.venv/bin/python', chosen);
    assert.deepStrictEqual(skipped, [
      "the workspace's vtlint.interpreter (/ws/.venv/bin/python)",
      "the Python extension's environment (/ws/.venv/bin/python)",
    ]);
    const note = restrictedNote(chosen, skipped);
    assert.match(note, /not trusted \(Restricted Mode\)/);
    assert.match(note, /with \/usr\/bin\/python3 \(setting\)/);
    assert.match(note, /are not used until you trust it\.$/);
    assert.deepStrictEqual(
      skippedInterpreters(undefined, '${workspaceFolder}/.venv/bin/python', undefined, { command: 'python3', source: 'default' }),
      ['vtlint.interpreter (${workspaceFolder}/.venv/bin/python, inside the workspace)'],
    );
    assert.deepStrictEqual(skippedInterpreters(undefined, '/usr/bin/python3', undefined, chosen), []);
  });
});

// Pure: the language client's restarts, one at a time.
//
// A settings change, the trust grant, a new Python environment and "vtlint: Restart
// server" each ask for a restart, often several in the same instant (granting trust fires
// the trust event and a settings change together). Started side by side, two clients
// both run a server and the second one's start fails; so every request goes through one
// queue: the running client is stopped before the next one starts, and the requests that
// arrive while a restart is under way are served together by one more restart afterwards
// (the last request wins: that restart reads the settings as they are by then).

export interface ClientOps<C> {
  /** Start a client; `stale()` turns true once a newer request makes this start moot
   * (the start may then give up early and return undefined). Undefined: no client. */
  start(stale: () => boolean): Promise<C | undefined>;
  /** Stop a client that `start` returned. */
  stop(client: C): Promise<void>;
  /** A start or stop that threw (the queue goes on with the next request). */
  failed?(error: unknown): void;
}

export class RestartQueue<C> {
  private current: C | undefined;
  private requested = 0; // requests made so far
  private served = 0; // requests that a finished restart has served
  private loop: Promise<void> | undefined;
  private waiters: { upTo: number; resolve: () => void }[] = [];
  private closed = false;

  constructor(private readonly ops: ClientOps<C>) {}

  /** The client that is running, if any (undefined while none has been started). */
  get client(): C | undefined {
    return this.current;
  }

  /** True while a restart is under way or waiting. */
  get busy(): boolean {
    return this.loop !== undefined;
  }

  /** Ask for a restart (the first one starts the client). Resolves once a restart that
   * began after this request has finished; after `close()`, at once and doing nothing. */
  restart(): Promise<void> {
    if (this.closed) {
      return Promise.resolve();
    }
    const id = ++this.requested;
    const done = new Promise<void>((resolve) => this.waiters.push({ upTo: id, resolve }));
    this.loop ??= this.run();
    return done;
  }

  /** Resolves once no restart is under way or waiting (the client is then the latest). */
  async idle(): Promise<void> {
    while (this.loop) {
      await this.loop;
    }
  }

  /** Stop for good (deactivation): waits for the restart under way, then stops the client. */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
    const running = this.current;
    this.current = undefined;
    if (running !== undefined) {
      await this.guard(() => this.ops.stop(running));
    }
    this.release(Number.MAX_SAFE_INTEGER);
  }

  private async run(): Promise<void> {
    try {
      while (this.served < this.requested && !this.closed) {
        const upTo = this.requested;
        const running = this.current;
        this.current = undefined;
        if (running !== undefined) {
          await this.guard(() => this.ops.stop(running));
        }
        if (!this.closed) {
          this.current = await this.guard(() => this.ops.start(() => this.closed || this.requested > upTo));
        }
        this.served = upTo;
        this.release(upTo);
      }
    } finally {
      this.loop = undefined;
      if (this.closed) {
        this.release(Number.MAX_SAFE_INTEGER);
      }
    }
  }

  private async guard<T>(step: () => Promise<T>): Promise<T | undefined> {
    try {
      return await step();
    } catch (error) {
      this.ops.failed?.(error);
      return undefined;
    }
  }

  private release(upTo: number): void {
    const ready = this.waiters.filter((w) => w.upTo <= upTo);
    this.waiters = this.waiters.filter((w) => w.upTo > upTo);
    ready.forEach((w) => w.resolve());
  }
}

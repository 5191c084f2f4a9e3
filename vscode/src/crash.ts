// Pure: how many times a crashed server is restarted before vtlint gives up.

export class CrashPolicy {
  private crashes: number[] = [];

  constructor(
    readonly maxRestarts = 4,
    readonly windowMs = 3 * 60 * 1000,
  ) {}

  /** Record a crash at `now`; true when the server should be restarted again. */
  shouldRestart(now: number): boolean {
    this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
    this.crashes.push(now);
    return this.crashes.length <= this.maxRestarts;
  }

  /** A manual restart or a settings change starts counting afresh. */
  reset(): void {
    this.crashes = [];
  }

  message(): string {
    const minutes = Math.round(this.windowMs / 60000);
    return `vtlint: the language server crashed ${this.maxRestarts + 1} times in ${minutes} minutes and will not be restarted. See "vtlint: Show output", then run "vtlint: Restart server".`;
  }
}

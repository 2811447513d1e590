// A progress bar on stderr: redrawn in place on a terminal, a line every 10% otherwise.

export class ProgressBar {
  private readonly started = performance.now();
  private lastDraw = 0;
  private lastDecile = -1;

  constructor(
    private readonly total: number,
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  update(done: number): void {
    const now = performance.now();
    const fraction = this.total === 0 ? 1 : done / this.total;
    if (this.stream.isTTY) {
      if (now - this.lastDraw < 200 && done < this.total) return;
      this.lastDraw = now;
      const width = 30;
      const filled = Math.round(fraction * width);
      this.stream.write(`\r${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.describe(done, now)}  `);
    } else {
      const decile = Math.floor(fraction * 10);
      if (decile === this.lastDecile) return;
      this.lastDecile = decile;
      this.stream.write(`${this.label} ${this.describe(done, now)}\n`);
    }
  }

  done(message: string): void {
    if (this.stream.isTTY) this.stream.write('\n');
    this.stream.write(`${message}\n`);
  }

  private describe(done: number, now: number): string {
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = rate > 0 ? (this.total - done) / rate : 0;
    const pct = this.total === 0 ? 100 : Math.floor((done / this.total) * 100);
    return `${pct}% ${done.toLocaleString('en')}/${this.total.toLocaleString('en')} ${Math.round(rate).toLocaleString('en')}/s ETA ${formatSeconds(eta)}`;
  }
}

export function formatSeconds(seconds: number): string {
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

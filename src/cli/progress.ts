/** A progress bar on stderr: redrawn in place on a terminal, a line every tenth of the way otherwise. */
export class Progress {
  private lastDecile = -1;

  constructor(
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  update(done: number, note = ''): void {
    const width = 30;
    const filled = Math.round((done / this.total) * width);
    const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${this.total} ${note}`;
    if (this.stream.isTTY) {
      this.stream.write(`\r${line}`);
      if (done === this.total) this.stream.write('\n');
      return;
    }
    const decile = Math.floor((done / this.total) * 10);
    if (decile !== this.lastDecile || done === this.total) {
      this.lastDecile = decile;
      this.stream.write(`${line}\n`);
    }
  }
}

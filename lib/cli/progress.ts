/**
 * Step-by-step progress on stderr with timings: a spinner on an interactive terminal, plain lines otherwise (CI
 * logs, pipes), so stdout keeps only the results (tables, JSON).
 */
import { formatDuration } from "./duration";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Where progress goes; `process.stderr` by default. */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/**
 * Reports steps as they run.
 * @example
 * const progress = new Progress();
 * const stacks = await progress.step("synthesize the cdktf app", () => synthesize(app));
 */
export class Progress {
  private readonly started = performance.now();
  private spinning: { label: string; started: number; timer: NodeJS.Timeout } | undefined;

  constructor(
    private readonly stream: ProgressStream = process.stderr,
    /** Spinner (true) or plain lines (false). @default whether the stream is a terminal */
    private readonly interactive: boolean = Boolean(stream.isTTY),
  ) {}

  /** Runs one step: shows it while it runs, then a tick (or a cross) with its duration. */
  async step<T>(label: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    this.begin(label, started);
    try {
      const result = await run();
      this.end(`✓ ${label} (${formatDuration(performance.now() - started)})`);
      return result;
    } catch (error) {
      this.end(`✗ ${label} (${formatDuration(performance.now() - started)})`);
      throw error;
    }
  }

  /** Prints a line between steps (e.g. "press Ctrl-C to destroy"). */
  note(line: string): void {
    this.clearSpinner();
    this.stream.write(`${line}\n`);
  }

  /** Prints the total time since this reporter was made. */
  done(label: string): void {
    this.note(`✓ ${label} in ${formatDuration(performance.now() - this.started)}`);
  }

  private begin(label: string, started: number): void {
    if (!this.interactive) {
      this.stream.write(`• ${label}…\n`);
      return;
    }
    let frame = 0;
    const draw = () =>
      this.stream.write(`\r\x1b[2K${SPINNER[frame++ % SPINNER.length]} ${label} ${formatDuration(performance.now() - started)}`);
    draw();
    const timer = setInterval(draw, 100);
    timer.unref();
    this.spinning = { label, started, timer };
  }

  private end(line: string): void {
    this.clearSpinner();
    this.stream.write(`${line}\n`);
  }

  private clearSpinner(): void {
    if (!this.spinning) return;
    clearInterval(this.spinning.timer);
    this.spinning = undefined;
    this.stream.write("\r\x1b[2K");
  }
}

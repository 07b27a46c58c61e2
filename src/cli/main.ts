/**
 * The footprint-otel command line: `demo` (default; what `npm start` runs), `view` and `why`.
 * Exit status: 0 done; 1 an error (reported in one line, e.g. an unreadable trace file, or a telemetry variable no exporter can use: an OTLP endpoint without a scheme, an unknown exporter or protocol, a malformed header list); 2 a usage error (a bad flag or flag value); 3 the demo ran but every
 * span of its telemetry was lost (the summary says why); 130 / 143 the demo was stopped by SIGINT /
 * SIGTERM (after winding down and reporting).
 */
import { McpPeerMissingError } from '../mcp/index.js';
import { TelemetryConfigError } from '../telemetry/index.js';
import { CliError, parseCommand, USAGE, UsageError } from './args.js';
import { demoCommand, EXIT_FLUSH_BOUND_MS, IN_FLIGHT_GRACE_MS } from './demo.js';
import { exitStatusFor, Interrupts } from './interrupts.js';
import { escapeStreamed, writeLines, type TerminalLine } from './terminal.js';
import { viewCommand } from './view.js';
import { whyCommand } from './why.js';

/** Everything the command prints goes through terminal.ts, which escapes outside text. */
const out = (lines: readonly TerminalLine[], color = false) => writeLines(process.stdout, lines, color);
const err = (...lines: TerminalLine[]) => writeLines(process.stderr, lines);

async function main(argv: string[]): Promise<number> {
  const command = parseCommand(argv, process.stdout.isTTY === true);
  switch (command.kind) {
    case 'help':
      out(USAGE.split('\n'));
      return 0;
    case 'view': {
      const result = await viewCommand(command);
      out(result.lines, command.color);
      err(...result.warnings);
      return 0;
    }
    case 'why': {
      const result = await whyCommand(command);
      out(result.lines, command.color);
      err(...result.warnings);
      return 0;
    }
    case 'demo': {
      const interrupts = new Interrupts({
        plan:
          `No new runs start; runs in flight get up to ${IN_FLIGHT_GRACE_MS / 1000} s, then are cancelled; ` +
          `telemetry is flushed for up to ${EXIT_FLUSH_BOUND_MS / 1000} s; then a summary of what was done and what was lost.`,
        write: (line) => err('', line),
        exit: (code) => process.exit(code),
      });
      try {
        const runs = command.ticket ? 1 : command.runsGiven ? command.runs : 12;
        const result = await demoCommand({
          ...command,
          runs,
          progress: command.runsGiven,
          write: (text) => process.stdout.write(escapeStreamed(text)),
          stop: interrupts.stop,
          notice: (line) => err(line),
        });
        out(result.lines, command.color);
        err(...result.warnings);
        return interrupts.signal ? exitStatusFor(interrupts.signal) : result.exitCode;
      } finally {
        interrupts.dispose();
      }
    }
  }
}

/** Ends the process once stdout and stderr are drained (an export given up on must not hold it open). */
function exitAfterOutput(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

main(process.argv.slice(2)).then(exitAfterOutput, (error: unknown) => {
  if (error instanceof UsageError) {
    err(`footprint-otel: ${error.message}`, '', ...USAGE.split('\n'));
    exitAfterOutput(2);
  } else if (error instanceof CliError || error instanceof TelemetryConfigError || error instanceof McpPeerMissingError) {
    err(`footprint-otel: ${error.message}`);
    exitAfterOutput(1);
  } else {
    err(...`footprint-otel: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`.split('\n'));
    exitAfterOutput(1);
  }
});

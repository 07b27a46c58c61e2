/** The footprint-otel command line: `demo` (default; what `npm start` runs) and `view`. */
import { CliError, parseCommand, USAGE, UsageError } from './args.js';
import { demoCommand } from './demo.js';
import { viewCommand } from './view.js';

async function main(argv: string[]): Promise<number> {
  const command = parseCommand(argv, process.stdout.isTTY === true);
  switch (command.kind) {
    case 'help':
      console.log(USAGE);
      return 0;
    case 'view':
      console.log((await viewCommand(command)).join('\n'));
      return 0;
    case 'demo': {
      const runs = command.ticket ? 1 : command.runsGiven ? command.runs : 12;
      const result = await demoCommand({ ...command, runs, progress: command.runsGiven });
      console.log(result.lines.join('\n'));
      for (const warning of result.warnings) console.error(warning);
      return 0;
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`footprint-otel: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else if (error instanceof CliError) {
      console.error(`footprint-otel: ${error.message}`);
      process.exitCode = 1;
    } else {
      console.error(`footprint-otel: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    }
  },
);

import { runEmulatorCommand } from './command';

process.exitCode = await runEmulatorCommand(process.argv.slice(2));

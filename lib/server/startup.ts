// A bad configuration stops the console at start-up with a message naming the variable, not at the first request.
import { ConfigError, parseEnv } from './env';

try {
  parseEnv(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`\n${err.message}\n`);
  process.exit(1);
}

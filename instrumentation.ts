// Validates the console's configuration once at start-up (Node.js runtime only).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') await import('./lib/server/process/startup');
}

// The demo's ports checked before anything starts: a taken one stops the demo with its number and the flag that moves
// it (a console already on the port would otherwise answer the health check and be announced as this demo's).
import { createServer } from 'node:net';

/** Whether something already listens on 127.0.0.1:`port` (or it cannot be bound for another reason: its message). */
function portProblem(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'EADDRINUSE' ? 'is already in use' : `cannot be used (${err.code ?? err.message})`),
    );
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/** The first taken port of `ports` (flag → port), as a message naming the port and the flag; null when all are free. */
export async function takenPort(ports: Record<string, number>): Promise<string | null> {
  for (const [flag, port] of Object.entries(ports)) {
    const problem = await portProblem(port);
    if (problem)
      return `port ${port} ${problem} (another demo or console?): stop what holds it, or choose another port with --${flag} (e.g. --${flag} ${port + 100}).`;
  }
  return null;
}

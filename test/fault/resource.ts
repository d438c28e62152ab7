// A fenced resource: accepts writes only with a token at least as large as the largest seen, and records what a
// mutual-exclusion checker needs (overlapping sections, rejected stale writes, order inversions).
import { createServer, type Server } from 'node:http';

export interface ResourceReport {
  sectionsBegun: number;
  sectionsEnded: number;
  acceptedWrites: number;
  rejectedStaleWrites: number;
  /** Accepted writes whose token is smaller than an earlier accepted write's: must be 0. */
  acceptedOverlaps: number;
  /** Sections that began while another live worker's section was still open (lock-level overlap). */
  lockOverlaps: number;
}

export class FencedResource {
  private maxSeen = 0n;
  private lastAccepted = 0n;
  private readonly open = new Map<string, { worker: string; token: bigint }>();
  readonly report: ResourceReport = {
    sectionsBegun: 0,
    sectionsEnded: 0,
    acceptedWrites: 0,
    rejectedStaleWrites: 0,
    acceptedOverlaps: 0,
    lockOverlaps: 0,
  };

  begin(worker: string, token: bigint): boolean {
    if (token < this.maxSeen) {
      this.report.rejectedStaleWrites++;
      return false;
    }
    if ([...this.open.values()].some((s) => s.worker !== worker)) this.report.lockOverlaps++;
    this.maxSeen = token;
    this.open.set(worker, { worker, token });
    this.report.sectionsBegun++;
    return true;
  }

  write(worker: string, token: bigint): boolean {
    if (token < this.maxSeen) {
      this.report.rejectedStaleWrites++;
      return false;
    }
    if (token < this.lastAccepted) this.report.acceptedOverlaps++;
    this.lastAccepted = token;
    this.report.acceptedWrites++;
    return true;
  }

  end(worker: string): void {
    if (this.open.delete(worker)) this.report.sectionsEnded++;
  }

  /** A killed worker's section ends with it. */
  forget(worker: string): void {
    this.open.delete(worker);
  }

  listen(): Promise<{ url: string; server: Server }> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://resource');
      const worker = url.searchParams.get('worker') ?? '';
      const token = BigInt(url.searchParams.get('token') ?? '0');
      let ok = true;
      if (url.pathname === '/begin') ok = this.begin(worker, token);
      else if (url.pathname === '/write') ok = this.write(worker, token);
      else if (url.pathname === '/end') this.end(worker);
      res.writeHead(ok ? 200 : 409).end();
    });
    return new Promise((resolve) =>
      server.listen(0, '127.0.0.1', () =>
        resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server }),
      ),
    );
  }
}

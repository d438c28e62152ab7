// node-zookeeper-client parses the server's bytes in its socket's 'data' handler and throws from there on bytes it
// cannot parse: Exception.create's "Unknown code: …" for an error field it does not know, a RangeError for a short
// frame. A throw from an event handler reaches no caller: an uncaughtException, which stopped the demo's console
// (issue #62). Reproduced: a client closed while its connect request is unanswered (the connect's timeout, against a
// server still starting) reads the late connect response as a reply, whose bytes 12-15 become an "error code".
//
// The guard shadows three handlers of one client's ConnectionManager with its own properties (the module, its
// prototype and every other client are untouched; no file is patched). A throw while parsing drops the bytes buffered
// so far and destroys the socket: the library's own way out of a reply it does not expect (its pending requests fail
// with CONNECTION_LOSS; the one whose reply it was is lost with it, and kept-client.ts's deadline fails that one; it
// reconnects unless closing). An abandoned client stays closed: a socket its reconnect timer opens later is
// destroyed. It also notes when bytes last arrived: node-zookeeper-client keeps no read timeout (kept-client.ts does).
import type { Client } from 'node-zookeeper-client';

/** ConnectionManager's states (lib/ConnectionManager.js STATES). */
const CONNECTED = 2;
const CONNECTED_READ_ONLY = 3;
const CLOSING = -1;

interface Manager {
  state: number;
  socket?: { destroy(): void };
  pendingBuffer: Buffer | null;
  onSocketData(buffer: Buffer): void;
  onSocketClosed(hadError: boolean): void;
  onSocketConnected(): void;
}

export interface Guard {
  /** When the server's bytes last arrived (performance.now()). */
  readonly lastDataAt: number;
  /** Whether the client has a session it can send on. */
  connected(): boolean;
  /** Ends the connection now (pending requests fail with CONNECTION_LOSS); the client reconnects. */
  drop(): void;
  /** Closes the client for good, whatever it is doing: no late reply is read, no reconnect is made. */
  abandon(): void;
}

/** Guards `client` (before its connect()); `onFault` hears each reply it could not parse. */
export function guardClient(client: Client, onFault: (err: Error) => void): Guard {
  const cm = (client as unknown as { connectionManager?: Manager }).connectionManager;
  let lastDataAt = performance.now();
  let abandoned = false;
  if (!cm) return { lastDataAt, connected: () => true, drop: () => undefined, abandon: () => client.close() };
  const { onSocketData, onSocketClosed, onSocketConnected } = cm;
  cm.onSocketData = (buffer) => {
    lastDataAt = performance.now();
    if (abandoned) return cm.socket?.destroy();
    try {
      onSocketData.call(cm, buffer);
    } catch (err) {
      cm.pendingBuffer = null;
      cm.socket?.destroy();
      onFault(err instanceof Error ? err : new Error(String(err)));
    }
  };
  cm.onSocketClosed = (hadError) => {
    cm.pendingBuffer = null; // a lost connection's partial frame must never prefix the next connection's bytes
    if (abandoned) cm.state = CLOSING; // closes for good instead of reconnecting
    onSocketClosed.call(cm, hadError);
  };
  cm.onSocketConnected = () => (abandoned ? cm.socket?.destroy() : onSocketConnected.call(cm));
  return {
    get lastDataAt() {
      return lastDataAt;
    },
    connected: () => cm.state === CONNECTED || cm.state === CONNECTED_READ_ONLY,
    drop: () => cm.socket?.destroy(),
    abandon() {
      if (abandoned) return;
      const live = cm.state === CONNECTED || cm.state === CONNECTED_READ_ONLY;
      abandoned = true;
      client.close(); // a live session is ended by its close request (its ephemeral nodes go at once)
      if (!live) cm.socket?.destroy();
    },
  };
}

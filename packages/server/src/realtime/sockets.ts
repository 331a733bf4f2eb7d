/** What the registry needs of an open socket: a way to close it. */
export interface Closable {
  end(code: number, reason: string): void;
}

interface TokenSockets {
  /** Places taken: sockets open or being opened. */
  taken: number;
  open: Set<Closable>;
}

/**
 * The realtime sockets open on this instance, by token (its stored hash): the per-token cap of
 * §5 counts them, and the periodic grant check closes those whose token no longer grants them.
 * Per instance: a count shared across instances would have to survive an instance dying with its
 * sockets, which a counter in Redis does not.
 */
export class OpenSockets {
  private readonly byToken = new Map<string, TokenSockets>();

  /** @param perToken the most sockets one token may have open on this instance */
  constructor(readonly perToken: number) {}

  /**
   * Takes one of the token's places; undefined when all `perToken` are taken. The returned
   * function gives the place back (call it when the connection ends; a second call does nothing).
   */
  reserve(tokenHash: string): (() => void) | undefined {
    let entry = this.byToken.get(tokenHash);
    if (!entry) this.byToken.set(tokenHash, (entry = { taken: 0, open: new Set() }));
    if (entry.taken >= this.perToken) return undefined;
    entry.taken += 1;
    const e = entry;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      e.taken -= 1;
      if (e.taken === 0 && this.byToken.get(tokenHash) === e) this.byToken.delete(tokenHash);
    };
  }

  /** Tracks an accepted socket of a token until `remove`. */
  add(tokenHash: string, socket: Closable): void {
    this.byToken.get(tokenHash)?.open.add(socket);
  }

  remove(tokenHash: string, socket: Closable): void {
    this.byToken.get(tokenHash)?.open.delete(socket);
  }

  /** The tokens that have sockets on this instance. */
  tokens(): string[] {
    return [...this.byToken.keys()];
  }

  /**
   * Closes every socket of the `checked` tokens that are not `live`; returns how many it closed.
   * Only checked tokens: one whose first socket opened while the check ran was not asked about.
   */
  closeEnded(checked: string[], live: Set<string>, code: number, reason: string): number {
    let closed = 0;
    for (const tokenHash of checked) {
      if (live.has(tokenHash)) continue;
      const entry = this.byToken.get(tokenHash);
      if (!entry) continue;
      for (const socket of entry.open) {
        socket.end(code, reason);
        closed += 1;
      }
      entry.open.clear();
    }
    return closed;
  }
}

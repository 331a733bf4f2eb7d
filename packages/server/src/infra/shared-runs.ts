/**
 * Identical reads share one run when the second comes before the first was started (request
 * collapsing, as a CDN does for one URL), and never otherwise: a feed that many clients list at
 * once, between writes that keep its answers out of the list cache, costs one page read per round
 * instead of one per client (docs/performance-notes.md, "Identical reads on PostgreSQL").
 *
 * Per key (what makes two reads the same read):
 * - `waiting`: the run not started yet. A read that finds one joins it and gets its answer.
 * - `started`: the run under way. A read never joins it: what it read may be older than the read
 *   (a write acknowledged to the reader before it asked could be missing). A read that finds only
 *   a started run begins the waiting one, which starts once the started one settles.
 *
 * So every answer comes from a run started after its read was asked for, and sees every write
 * committed before that: what an unshared read would see (read-your-writes holds, on every
 * instance). What it costs: a read that finds the same read under way waits for it first (at most
 * one run more); a lone read starts at once.
 *
 * Hand-written: memoizing single-flight libraries share a run already under way, which is the one
 * thing this must not do.
 */
export class SharedRuns<R> {
  private readonly slots = new Map<string, Slot<R>>();
  /** Runs started, and reads answered by a run another read had asked for. */
  readonly tally = { runs: 0, joined: 0 };

  /**
   * `start`'s answer for `key`: a waiting run's, or a new run's (after the started one settles).
   * `joined` makes what a read that joined gets (its own copy, where callers may change it).
   */
  run(key: string, start: () => Promise<R>, joined: (answer: R) => R = same): Promise<R> {
    let slot = this.slots.get(key);
    if (slot?.waiting) {
      this.tally.joined += 1;
      return slot.waiting.then(joined);
    }
    if (!slot) this.slots.set(key, (slot = {}));
    const own = slot;
    const before = own.started;
    let run!: Promise<R>;
    const go = async (): Promise<R> => {
      if (before) {
        await before.then(noop, noop);
        // From here on the run is under way: later reads must not join it.
        own.waiting = undefined;
        own.started = run;
      }
      this.tally.runs += 1;
      try {
        return await start();
      } finally {
        if (own.started === run) own.started = undefined;
        if (!own.started && !own.waiting) this.slots.delete(key);
      }
    };
    run = go();
    // Without a run before it, this one started in the call above (up to its first wait): nobody may join it.
    if (before) own.waiting = run;
    else own.started = run;
    return run;
  }
}

interface Slot<R> {
  waiting?: Promise<R>;
  started?: Promise<R>;
}

const noop = () => undefined;
const same = <R>(answer: R): R => answer;

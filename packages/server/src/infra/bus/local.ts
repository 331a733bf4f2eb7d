import type { ChangeEvent } from '../../changes/events.ts';
import type { Bus } from './bus.ts';

/** The bus of a single instance: listeners are called in-process, on the next tick. */
export function localBus(): Bus {
  const listeners: Array<(events: ChangeEvent[]) => void> = [];
  return {
    publish: (events) =>
      queueMicrotask(() => {
        for (const l of listeners) l(events);
      }),
    subscribe: (l) => void listeners.push(l),
    onReconnect: () => undefined,
    close: async () => undefined,
  };
}

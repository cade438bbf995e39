/**
 * Settles as `work` does, or rejects with `expired()` once `ms` have passed. When the timer fires, the rejection waits
 * for one turn of the event loop's I/O: on a busy loop, a reply that arrived in time is read first and still counts.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, expired: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => setImmediate(() => reject(expired())), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Bounded concurrency over a list: at most `concurrency` calls of `work` in flight, items taken in order.
 * Resolves when every item is done; rejects with the first rejection of `work` (items in flight still finish).
 */
export async function inPool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, () => worker()));
}

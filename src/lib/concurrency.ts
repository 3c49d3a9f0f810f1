// Running async work over a list with at most `limit` calls in flight (geocoding an import's
// addresses, uploading a publish's files): results keep the order of the input. On the first
// rejection no further call starts, and the rejection comes once the calls in flight have
// settled, so that none of them runs on after it (a publish that failed has released its lock
// by then, and an unpublish may be emptying the folder its uploads would write into).
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const lanes = await Promise.allSettled(
    Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane),
  );
  const rejected = lanes.find((settled) => settled.status === 'rejected');
  if (rejected) throw rejected.reason;
  return results;
}

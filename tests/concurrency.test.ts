// mapWithConcurrency (src/lib/concurrency.ts): at most `limit` calls at once, results in input
// order, and after a rejection no call starts and none is still running when it rejects.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { mapWithConcurrency } from '../src/lib/concurrency.ts';

describe('mapWithConcurrency', () => {
  it('keeps at most `limit` calls in flight and the results in input order', async () => {
    let running = 0;
    let most = 0;
    const results = await mapWithConcurrency([5, 1, 4, 2, 3, 0], 3, async (ms, index) => {
      running++;
      most = Math.max(most, running);
      await sleep(ms * 5);
      running--;
      return `${index}:${ms}`;
    });
    expect(results).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0']);
    expect(most).toBe(3);
  });

  it('starts no call after a rejection, and rejects once the calls in flight have settled', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const items = Array.from({ length: 50 }, (_, i) => i);
    const outcome = mapWithConcurrency(items, 4, async (item) => {
      started.push(item);
      if (item === 5) throw new Error('storage answered 503');
      await sleep(30);
      finished.push(item);
    });
    await expect(outcome).rejects.toThrow('storage answered 503');
    // Settled: nothing runs on, and nothing starts, after the rejection.
    const settled = { started: started.length, finished: finished.length };
    await sleep(100);
    expect({ started: started.length, finished: finished.length }).toEqual(settled);
    expect(started.length - 1).toBe(finished.length);
    expect(started.length).toBeLessThan(10);
  });
});

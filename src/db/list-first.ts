import { combineLatest, defer, map, shareReplay, startWith, switchMap, take, type Observable } from 'rxjs';

/**
 * A screen's list first, its totals after. Chromium answers an IndexedDB `count()` by walking every
 * key of the range, and runs an origin's IndexedDB requests one at a time: counting 10,000 deals takes
 * about 150 ms on a small machine, and a list read asked for after it waits that long. So the totals
 * are asked for only once the list has its first result: a page load shows its cards first, and the
 * figures follow (`totals` is undefined until they are counted).
 */
export function listFirst<L, T>(list$: Observable<L>, totals$: Observable<T>): Observable<{ list: L; totals?: T }> {
  return defer(() => {
    const list = list$.pipe(shareReplay({ bufferSize: 1, refCount: true }));
    return list.pipe(
      take(1),
      switchMap(() => combineLatest([list, totals$.pipe(startWith(undefined))])),
      map(([items, totals]) => ({ list: items, totals })),
    );
  });
}

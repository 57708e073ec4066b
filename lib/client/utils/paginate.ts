/**
 * Walks a paginated list page by page (`page` from 1) and yields its items. It stops after the first page that is
 * shorter than `perPage`, and also, so that a service that ignores `page` or `perPage` cannot make it loop
 * forever, after a page larger than asked (the service sent everything at once) or a page that repeats the
 * previous one (the service ignores `page`). Pages are fetched lazily, only as the caller consumes items.
 */
export async function* paginate<T>(
  fetchPage: (page: number, perPage: number) => Promise<T[]>,
  perPage: number,
): AsyncGenerator<T, void, undefined> {
  let previous: string | undefined;
  for (let page = 1; ; page++) {
    const items = await fetchPage(page, perPage);
    const fingerprint = JSON.stringify(items);
    if (items.length > 0 && fingerprint === previous) return;
    yield* items;
    if (items.length !== perPage) return;
    previous = fingerprint;
  }
}

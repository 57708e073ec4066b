/**
 * Walks a paginated list page by page (`page` from 1) and yields its items, stopping after the first page that
 * is shorter than `perPage`. Pages are fetched lazily, only as the caller consumes items.
 */
export async function* paginate<T>(fetchPage: (page: number, perPage: number) => Promise<T[]>, perPage: number): AsyncGenerator<T, void, undefined> {
  for (let page = 1; ; page++) {
    const items = await fetchPage(page, perPage);
    yield* items;
    if (items.length < perPage) return;
  }
}

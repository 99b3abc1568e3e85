/**
 * One request at a time per client and key: callers that ask while it is under way share its answer (the header
 * and the Business page both asked for the logo and the deletion status as the page opened, issue 25). Once it
 * has settled, the next call asks again, so a change made since is always seen. Per client, because two people
 * signed in side by side (tests, the admin's views) may be answered differently for the same key.
 */
const underWay = new WeakMap<object, Map<string, Promise<unknown>>>();

export function sharedRequest<T>(client: object, key: string, request: () => Promise<T>): Promise<T> {
  let requests = underWay.get(client);
  if (!requests) underWay.set(client, (requests = new Map()));
  const pending = requests.get(key);
  if (pending) return pending as Promise<T>;
  const started = request().finally(() => requests.delete(key));
  requests.set(key, started);
  return started;
}

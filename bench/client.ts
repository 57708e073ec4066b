/**
 * `npm run bench -- client`: tears down 300 environments through the client against the local service with the
 * spec's default limits (400/min, burst 250), once with the batch endpoint and once with one DELETE each.
 *
 * Both teardowns use alice's access key and start from a fresh window of that key. The environments are created
 * in between with alice's bearer token, which the service counts in a bucket of its own, so setup traffic does not
 * eat the teardown's budget. The one-by-one path needs 3 list pages + 300 DELETEs, more than the 250 burst: the
 * pacer then waits for the window instead of running into 429s. That wait is the point of the comparison.
 * The last line is one JSON object with the figures.
 */
import { createClient, type Client, type ResponseEvent } from "../lib/client";
import { startServer } from "../lib/service/listen";

const ENVIRONMENTS = 300;
const SINGLE_CONCURRENCY = 10;

async function createMany(client: Client, label: string): Promise<void> {
  const started = performance.now();
  const pending = Array.from({ length: ENVIRONMENTS }, (_, i) =>
    client.createEnvironment({ display_name: `${label} ${i}`, network_configs: [{ network_id: "1" }] }),
  );
  await Promise.all(pending);
  console.log(
    `created ${ENVIRONMENTS} environments (${label}) in ${((performance.now() - started) / 1000).toFixed(1)} s (setup, bearer token)`,
  );
}

async function allIds(client: Client): Promise<string[]> {
  const ids: string[] = [];
  for await (const environment of client.iterateEnvironments()) ids.push(environment.id);
  return ids;
}

/** Runs `teardown` with a fresh call counter and returns its calls and seconds. */
async function measure(calls: { count: number }, teardown: () => Promise<void>): Promise<{ calls: number; seconds: number }> {
  calls.count = 0;
  const started = performance.now();
  await teardown();
  return { calls: calls.count, seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const service = await startServer({ port: 0, dataDir: null });
  const scope = { baseUrl: service.baseUrl, accountSlug: service.accountSlug, projectSlug: service.projectSlug };
  const setup = createClient({ ...scope, bearerToken: service.token("alice") });
  const counter = { count: 0 };
  const statuses = new Map<number, number>();
  const onResponse = (event: ResponseEvent) => {
    counter.count++;
    statuses.set(event.status, (statuses.get(event.status) ?? 0) + 1);
  };
  const client = createClient({ ...scope, accessKey: service.accessKey, onResponse });
  try {
    await createMany(setup, "batch");
    const batch = await measure(counter, async () => {
      const result = await client.deleteEnvironments({ environmentIds: await allIds(client) });
      if (result.deleted !== ENVIRONMENTS) throw new Error(`batch deleted ${result.deleted}, expected ${ENVIRONMENTS}`);
    });
    console.log(`batch teardown: ${batch.calls} calls in ${batch.seconds.toFixed(2)} s`);

    await createMany(setup, "single");
    const single = await measure(counter, async () => {
      const queue = await allIds(client);
      if (queue.length !== ENVIRONMENTS) throw new Error(`listed ${queue.length}, expected ${ENVIRONMENTS}`);
      const worker = async () => {
        for (let id = queue.pop(); id !== undefined; id = queue.pop()) await client.deleteEnvironment({ environmentId: id });
      };
      await Promise.all(Array.from({ length: SINGLE_CONCURRENCY }, worker));
    });
    console.log(`one-by-one teardown: ${single.calls} calls in ${single.seconds.toFixed(2)} s (${SINGLE_CONCURRENCY} in parallel)`);
    const remaining = await client.listEnvironments();
    if (remaining.length !== 0) throw new Error(`${remaining.length} environments left`);

    console.log(`answers by status (measured key): ${JSON.stringify(Object.fromEntries(statuses))}`);
    const ratio = single.seconds / batch.seconds;
    console.log(`batch is ${ratio.toFixed(1)}x faster with ${batch.calls} calls instead of ${single.calls}`);
    console.log(
      JSON.stringify({
        batch_calls: batch.calls,
        batch_s: Number(batch.seconds.toFixed(3)),
        single_calls: single.calls,
        single_s: Number(single.seconds.toFixed(3)),
        ratio: Number(ratio.toFixed(1)),
      }),
    );
  } finally {
    await client.close();
    await setup.close();
    await service.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

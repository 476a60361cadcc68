/** Sends message bodies to a queue in batches of 100 (the Queues sendBatch limit). */
export async function sendAll<T>(queue: Queue, bodies: T[]): Promise<void> {
  for (let i = 0; i < bodies.length; i += 100) {
    await queue.sendBatch(bodies.slice(i, i + 100).map((body) => ({ body, contentType: "json" as const })));
  }
}

/**
 * The child process that reads one fixture file for the service (./reader.ts): it is sent the file's bytes, answers
 * the content or the one-line refusal, and ends. A process of its own, not a worker thread: a worker that runs out of
 * heap on one large allocation (a long string `JSON.parse` builds) can abort the whole process with it (Node's worker
 * `resourceLimits` are best-effort), while a child's heap limit ends only the child.
 */
import { FixtureError } from "./container";
import { readFixture, type FixtureContent } from "./content";

/** What the reader sends. */
export interface ReadJob {
  readonly bytes: Uint8Array;
  readonly label: string;
}

/** What the child answers: the content, or why the file is refused (without its name). */
export type ReadAnswer = { readonly content: FixtureContent } | { readonly refused: string };

if (require.main === module && process.send) {
  process.once("message", (job: ReadJob) => {
    let answer: ReadAnswer;
    try {
      answer = { content: readFixture(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength), job.label) };
    } catch (error) {
      // A refusal says what is wrong; anything else the file made happen is a refusal too, in one line.
      answer = { refused: error instanceof FixtureError ? error.reason : `could not be read (${(error as Error)?.name ?? "error"})` };
    }
    process.send!(answer, () => process.disconnect());
  });
}

/**
 * The floor `bench/rpc` compares the service with: the least a Node.js proxy between a caller and anvil can do. It
 * reads an HTTP/1.1 POST off the socket by its Content-Length, and writes the calls read in one turn of the event
 * loop to anvil's IPC socket in one write, each with an id of its own (anvil answers them out of order), as the
 * service does (`CoalescingIpc`). Each answer goes back under a fixed head with the caller's id. No URL, no
 * allow-list, no rate limit, no lock, no error handling, no check that a call is one anvil may answer as it is.
 * Writing each call on a socket of its own instead costs a Node.js proxy 0.05 to 0.1 of anvil's throughput at 16
 * connections, so this is the floor of the way the service works.
 *
 *   node bench/support/floor-proxy.mjs IPC_PATH   (prints its URL, runs until stdin closes)
 */
import { connect, createServer } from "node:net";

const ipcPath = process.argv[2];
const HEAD_END = Buffer.from("\r\n\r\n");
const ID = '"id":';
/** Callers waiting for an answer, by the id of ours their call went with; ids are reused once answered. */
const waiting = new Map();
const freeIds = [];
let nextId = 1;
let queued = "";
let pending = null;

const chain = connect(ipcPath);
chain.on("data", (chunk) => {
  let data = pending ? Buffer.concat([pending, chunk]) : chunk;
  pending = null;
  for (let newline = data.indexOf(10); newline >= 0; newline = data.indexOf(10)) {
    // anvil's answer begins {"jsonrpc":"2.0","id":N,
    const line = data.subarray(0, newline);
    data = data.subarray(newline + 1);
    const idStart = line.indexOf(ID) + ID.length;
    let idEnd = idStart;
    let id = 0;
    for (; line[idEnd] >= 0x30 && line[idEnd] <= 0x39; idEnd += 1) id = id * 10 + line[idEnd] - 0x30;
    const answer = waiting.get(id);
    waiting.delete(id);
    freeIds.push(id);
    answer(line, idStart, idEnd);
  }
  if (data.length > 0) pending = data;
});

function flush() {
  chain.write(queued);
  queued = "";
}

const server = createServer((socket) => {
  socket.setNoDelay(true);
  socket.on("error", () => socket.destroy());
  let buffered = null;
  socket.on("data", (chunk) => {
    buffered = buffered ? Buffer.concat([buffered, chunk]) : chunk;
    const headEnd = buffered.indexOf(HEAD_END);
    if (headEnd < 0) return;
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(buffered.toString("latin1", 0, headEnd))[1]);
    const end = headEnd + 4 + length;
    if (buffered.length < end) return;
    const text = buffered.toString("utf8", headEnd + 4, end);
    buffered = end < buffered.length ? buffered.subarray(end) : null;
    // The caller's id, as it is written after "id": (the bench's calls have no other "id").
    const idStart = text.indexOf(ID) + ID.length;
    const idEnd = text.slice(idStart).search(/[,}\s]/) + idStart;
    const callerId = text.slice(idStart, idEnd);
    const id = freeIds.pop() ?? nextId++;
    waiting.set(id, (line, start, stop) => {
      const answer = `${line.toString("latin1", 0, start)}${callerId}${line.toString("latin1", stop)}`;
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${answer.length}\r\n\r\n${answer}`, "latin1");
    });
    if (queued === "") setImmediate(flush);
    queued += `${text.slice(0, idStart)}${id}${text.slice(idEnd)}\n`;
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`http://127.0.0.1:${server.address().port}/\n`));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();

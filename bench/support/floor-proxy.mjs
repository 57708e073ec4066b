/**
 * The floor `bench/rpc` compares the service with: the least a Node.js proxy between a caller and anvil can do. It
 * reads an HTTP/1.1 POST off the socket by its Content-Length, writes the body to anvil's IPC socket, and writes
 * anvil's answer back under a fixed head: no URL, no allow-list, no rate limit, no lock, no error handling. No
 * proxy written in Node.js answers faster on this machine, so its ratio to anvil is what any such proxy can reach.
 *
 *   node bench/support/floor-proxy.mjs IPC_PATH   (prints its URL, runs until stdin closes)
 */
import { connect, createServer } from "node:net";

const ipcPath = process.argv[2];
const HEAD_END = Buffer.from("\r\n\r\n");
const idle = [];

function chainSocket() {
  const socket = connect(ipcPath);
  const channel = { socket, pending: null, answered: null };
  socket.on("data", (chunk) => {
    channel.pending = channel.pending ? Buffer.concat([channel.pending, chunk]) : chunk;
    const newline = channel.pending.indexOf(10);
    if (newline < 0) return;
    const answer = channel.pending.subarray(0, newline);
    channel.pending = null;
    const answered = channel.answered;
    channel.answered = null;
    idle.push(channel);
    answered(answer);
  });
  return channel;
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
    const body = buffered.subarray(headEnd + 4, end);
    buffered = end < buffered.length ? buffered.subarray(end) : null;
    const channel = idle.pop() ?? chainSocket();
    channel.answered = (answer) =>
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${answer.length}\r\n\r\n${answer.toString("latin1")}`,
        "latin1",
      );
    channel.socket.write(body);
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`http://127.0.0.1:${server.address().port}/\n`));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();

/*
 * The native floor `bench/rpc` compares the service with: floor-proxy.mjs's work, done by a C program instead of a
 * Node.js process. It answers what a proxy hop that is not Node.js would reach on this machine (docs/performance.md
 * "RPC URLs": a native hop is the one design change left that could pass the Node.js floor). Like floor-proxy.mjs it
 * reads an HTTP/1.1 POST by its Content-Length, writes the calls read in one turn of its event loop to anvil's IPC
 * socket in one write, each with an id of its own, and sends each answer back under a fixed head with the caller's
 * id. No URL, allow-list, rate limit, lock or error handling: a measuring tool, never a part of the service.
 *
 *   cc -O2 -o native-floor-proxy native-floor-proxy.c
 *   ./native-floor-proxy IPC_PATH   (prints its URL, runs until stdin closes)
 *
 * Linux only (epoll), as the benchmark is.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_FDS 4096
#define MAX_WAITING 65536
#define IN_SIZE (1 << 16)

/** A growable byte buffer. */
typedef struct {
  char *data;
  size_t length, size;
} Bytes;

static void append(Bytes *bytes, const char *data, size_t length) {
  if (bytes->length + length > bytes->size) {
    bytes->size = (bytes->length + length) * 2;
    bytes->data = realloc(bytes->data, bytes->size);
    if (bytes->data == NULL) abort();
  }
  memcpy(bytes->data + bytes->length, data, length);
  bytes->length += length;
}

static void consume(Bytes *bytes, size_t length) {
  memmove(bytes->data, bytes->data + length, bytes->length - length);
  bytes->length -= length;
}

/** A caller's connection: what it sent and not yet read, what is to be written to it. */
typedef struct {
  int open;
  Bytes in, out;
} Connection;

/** A call sent to anvil: the connection that made it and the caller's id as it was written. */
typedef struct {
  int fd;
  char id[64];
  size_t idLength;
} Waiting;

static Connection connections[MAX_FDS];
static Waiting waiting[MAX_WAITING];
static int freeIds[MAX_WAITING], freeCount = 0, nextId = 1;
static Bytes chainOut, chainIn;
static int epoll, chain;

static void watch(int fd, int op, unsigned events) {
  struct epoll_event event = {.events = events, .data.fd = fd};
  epoll_ctl(epoll, op, fd, &event);
}

static void closeConnection(int fd) {
  Connection *c = &connections[fd];
  c->open = 0;
  c->in.length = c->out.length = 0;
  epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
  close(fd);
}

/** Writes what is queued for `fd`; what does not fit waits for EPOLLOUT. */
static void flush(int fd, Bytes *out) {
  while (out->length > 0) {
    ssize_t n = write(fd, out->data, out->length);
    if (n < 0) {
      if (errno == EAGAIN) break;
      if (fd != chain) closeConnection(fd);
      return;
    }
    consume(out, (size_t)n);
  }
  watch(fd, EPOLL_CTL_MOD, out->length > 0 ? EPOLLIN | EPOLLOUT : EPOLLIN);
}

static void readCalls(int fd) {
  Connection *c = &connections[fd];
  for (;;) {
    char *data = c->in.data;
    char *headEnd = memmem(data, c->in.length, "\r\n\r\n", 4);
    if (headEnd == NULL) return;
    size_t bodyStart = (size_t)(headEnd - data) + 4;
    size_t length = 0;
    for (char *line = memmem(data, bodyStart, "\r\n", 2); line && line < headEnd; line = memmem(line + 2, (size_t)(headEnd - line), "\r\n", 2)) {
      if (strncasecmp(line + 2, "content-length:", 15) == 0) length = strtoul(line + 17, NULL, 10);
    }
    if (c->in.length < bodyStart + length) return;
    char *body = data + bodyStart;
    char *idStart = memmem(body, length, "\"id\":", 5);
    if (idStart == NULL) {
      closeConnection(fd);
      return;
    }
    idStart += 5;
    char *idEnd = idStart;
    while (idEnd < body + length && *idEnd != ',' && *idEnd != '}' && *idEnd != ' ') idEnd += 1;
    int id = freeCount > 0 ? freeIds[--freeCount] : nextId++;
    if (id >= MAX_WAITING || (size_t)(idEnd - idStart) >= sizeof waiting[id].id) abort();
    waiting[id].fd = fd;
    waiting[id].idLength = (size_t)(idEnd - idStart);
    memcpy(waiting[id].id, idStart, waiting[id].idLength);
    char idText[16];
    int idLength = snprintf(idText, sizeof idText, "%d", id);
    append(&chainOut, body, (size_t)(idStart - body));
    append(&chainOut, idText, (size_t)idLength);
    append(&chainOut, idEnd, (size_t)(body + length - idEnd));
    append(&chainOut, "\n", 1);
    consume(&c->in, bodyStart + length);
  }
}

static void readAnswers(void) {
  for (;;) {
    char *newline = memchr(chainIn.data, '\n', chainIn.length);
    if (newline == NULL) return;
    size_t lineLength = (size_t)(newline - chainIn.data);
    char *line = chainIn.data;
    char *idStart = memmem(line, lineLength, "\"id\":", 5);
    if (idStart == NULL) {
      // Not an answer to a call (anvil sends none here): dropped.
      consume(&chainIn, lineLength + 1);
      continue;
    }
    idStart += 5;
    char *idEnd = idStart;
    int id = 0;
    while (*idEnd >= '0' && *idEnd <= '9') id = id * 10 + (*idEnd++ - '0');
    Waiting *w = &waiting[id];
    freeIds[freeCount++] = id;
    Connection *c = &connections[w->fd];
    if (c->open) {
      char head[160];
      size_t answerLength = lineLength - (size_t)(idEnd - idStart) + w->idLength;
      int headLength = snprintf(head, sizeof head,
                                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %zu\r\n\r\n", answerLength);
      append(&c->out, head, (size_t)headLength);
      append(&c->out, line, (size_t)(idStart - line));
      append(&c->out, w->id, w->idLength);
      append(&c->out, idEnd, (size_t)(newline - idEnd));
      flush(w->fd, &c->out);
    }
    consume(&chainIn, lineLength + 1);
  }
}

/** Reads what `fd` has into `bytes`; false when it closed or failed. */
static int readInto(int fd, Bytes *bytes) {
  char buffer[IN_SIZE];
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      append(bytes, buffer, (size_t)n);
      if ((size_t)n < sizeof buffer) return 1;
    } else if (n < 0 && errno == EAGAIN) {
      return 1;
    } else {
      return 0;
    }
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: native-floor-proxy IPC_PATH\n");
    return 2;
  }
  chain = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
  if (connect(chain, (struct sockaddr *)&address, sizeof address) != 0) {
    perror("connect to anvil's IPC socket");
    return 1;
  }
  fcntl(chain, F_SETFL, O_NONBLOCK);
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int yes = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  struct sockaddr_in local = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t localLength = sizeof local;
  if (bind(listener, (struct sockaddr *)&local, sizeof local) != 0 || listen(listener, 512) != 0) {
    perror("listen");
    return 1;
  }
  getsockname(listener, (struct sockaddr *)&local, &localLength);
  printf("http://127.0.0.1:%d/\n", ntohs(local.sin_port));
  fflush(stdout);
  epoll = epoll_create1(0);
  watch(listener, EPOLL_CTL_ADD, EPOLLIN);
  watch(chain, EPOLL_CTL_ADD, EPOLLIN);
  watch(STDIN_FILENO, EPOLL_CTL_ADD, EPOLLIN);
  struct epoll_event events[256];
  for (;;) {
    int count = epoll_wait(epoll, events, 256, -1);
    for (int i = 0; i < count; i += 1) {
      int fd = events[i].data.fd;
      if (fd == STDIN_FILENO) {
        char byte;
        if (read(STDIN_FILENO, &byte, 1) <= 0) return 0;
      } else if (fd == listener) {
        int accepted;
        while ((accepted = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          if (accepted >= MAX_FDS) {
            close(accepted);
            continue;
          }
          setsockopt(accepted, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
          connections[accepted].open = 1;
          watch(accepted, EPOLL_CTL_ADD, EPOLLIN);
        }
      } else if (fd == chain) {
        if (events[i].events & EPOLLOUT) flush(chain, &chainOut);
        if ((events[i].events & EPOLLIN) && !readInto(chain, &chainIn)) return 1;
        readAnswers();
      } else {
        Connection *c = &connections[fd];
        if (events[i].events & EPOLLOUT) flush(fd, &c->out);
        if (!c->open) continue;
        if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
          if (!readInto(fd, &c->in)) {
            closeConnection(fd);
            continue;
          }
          readCalls(fd);
        }
      }
    }
    // The calls read in this turn go to anvil in one write, as floor-proxy.mjs's setImmediate does.
    if (chainOut.length > 0) flush(chain, &chainOut);
  }
}

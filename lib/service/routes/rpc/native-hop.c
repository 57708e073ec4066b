/*
 * The RPC URLs' native hop: a Node-API addon that answers the pass-through calls of plain-HTTP RPC connections on a
 * thread of its own, with no JavaScript per call (docs/performance.md "RPC URLs": Node.js spends more on a call's
 * HTTP and socket work than anvil spends answering it, and no Node.js process in that place met the targets).
 *
 * The service reads a connection's first calls itself (http-connections.ts). Once it has answered a call that passes
 * through (a read-only method the chain answers alone), it hands the connection to the hop (`adopt`) with what the
 * hop needs for that URL: its vnet, the vnet's IPC socket, the method's verdict. The hop then reads the calls, answers
 * those it knows pass through, each by one write to the vnet's IPC socket (the calls of one turn of its loop in one
 * write, with ids of its own, as chain-sockets.ts `CoalescingIpc` does) and one write of the answer, and hands the
 * connection back (`handback` event: the descriptor and every byte not yet answered) at the first call it does not
 * know: a write, a cheatcode, another URL, an `Origin`, a batch, any head or body not of the plain shape. The service
 * then answers that call as it always has. Everything that records stays in JavaScript.
 *
 * Shared with the service, under one mutex:
 * - the per-URL rate windows of every RPC URL (`take`: the service's own RPC calls count here too, so the sliding
 *   window stays exact with two readers);
 * - each vnet's state: `open` while the service holds a shared lease on its chain's lock for the hop, `paused` once
 *   the service wants the chain exclusively (`pause`), closed once the hop's calls to it are answered (`drained`
 *   event, on which the service lets go of the lease). A paused or closed vnet's calls are handed back.
 *
 * Linux only (epoll, eventfd); the service keeps its JavaScript path elsewhere, or when this does not load.
 */
#define NAPI_VERSION 8
#define _GNU_SOURCE
#include <node_api.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_HEAD_BYTES (16 * 1024)
#define REQUEST_ARRIVAL_MS 60000
#define MAX_KEY_CHARS 500
#define MAX_JSON_DEPTH 64
#define MAX_VERDICTS 2048
#define SWEEP_EVERY 10000
#define READ_CHUNK 65536

/* ------------------------------------------------------------------------------------------------------------ */
/* Growable byte buffers.                                                                                         */

typedef struct {
  char *data;
  size_t len, cap;
} buf_t;

static bool buf_reserve(buf_t *b, size_t extra) {
  if (b->len + extra <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 4096;
  while (cap < b->len + extra) cap *= 2;
  char *data = realloc(b->data, cap);
  if (!data) return false;
  b->data = data;
  b->cap = cap;
  return true;
}

static bool buf_append(buf_t *b, const void *bytes, size_t n) {
  if (!buf_reserve(b, n)) return false;
  memcpy(b->data + b->len, bytes, n);
  b->len += n;
  return true;
}

static void buf_consume(buf_t *b, size_t n) {
  if (n >= b->len) {
    b->len = 0;
    return;
  }
  memmove(b->data, b->data + n, b->len - n);
  b->len -= n;
}

static void buf_free(buf_t *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* String-keyed maps (chained, FNV-1a).                                                                           */

typedef struct entry {
  struct entry *next;
  uint64_t hash;
  size_t keylen;
  void *value;
  char key[];
} entry_t;

typedef struct {
  entry_t **slots;
  size_t nslots, size;
} map_t;

static uint64_t hash_bytes(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 1099511628211ULL;
  return h;
}

static entry_t *map_find(const map_t *m, const char *key, size_t n) {
  if (m->nslots == 0) return NULL;
  uint64_t h = hash_bytes(key, n);
  for (entry_t *e = m->slots[h % m->nslots]; e; e = e->next)
    if (e->hash == h && e->keylen == n && memcmp(e->key, key, n) == 0) return e;
  return NULL;
}

static entry_t *map_add(map_t *m, const char *key, size_t n, void *value) {
  if (m->size + 1 > m->nslots) {
    size_t nslots = m->nslots ? m->nslots * 2 : 64;
    entry_t **slots = calloc(nslots, sizeof *slots);
    if (!slots) return NULL;
    for (size_t i = 0; i < m->nslots; i++)
      for (entry_t *e = m->slots[i], *next; e; e = next) {
        next = e->next;
        e->next = slots[e->hash % nslots];
        slots[e->hash % nslots] = e;
      }
    free(m->slots);
    m->slots = slots;
    m->nslots = nslots;
  }
  entry_t *e = malloc(sizeof *e + n + 1);
  if (!e) return NULL;
  e->hash = hash_bytes(key, n);
  e->keylen = n;
  e->value = value;
  memcpy(e->key, key, n);
  e->key[n] = 0;
  e->next = m->slots[e->hash % m->nslots];
  m->slots[e->hash % m->nslots] = e;
  m->size++;
  return e;
}

/* Removes the entries `drop` says to (their values are the caller's to free, in `drop`). */
static void map_filter(map_t *m, bool (*drop)(entry_t *, void *), void *arg) {
  for (size_t i = 0; i < m->nslots; i++)
    for (entry_t **link = &m->slots[i]; *link;) {
      entry_t *e = *link;
      if (drop(e, arg)) {
        *link = e->next;
        free(e);
        m->size--;
      } else
        link = &e->next;
    }
}

static bool drop_all(entry_t *e, void *arg) {
  (void)arg;
  free(e->value);
  return true;
}

static void map_free(map_t *m) {
  map_filter(m, drop_all, NULL);
  free(m->slots);
  m->slots = NULL;
  m->nslots = 0;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Sliding-window rate limiting: lib/service/rate-limit.ts `SlidingWindowLimiter`, the same to the millisecond.   */

typedef struct {
  int64_t *times, *counts;
  size_t head, len, cap;
  int64_t total;
} bucket_t;

typedef struct {
  bool allowed;
  int64_t limit, remaining, reset;
} decision_t;

static void bucket_expire(bucket_t *b, int64_t now, int64_t window) {
  int64_t threshold = now - window;
  while (b->head < b->len && b->times[b->head] <= threshold) {
    b->total -= b->counts[b->head];
    b->head++;
  }
  if (b->head > 1024 && b->head * 2 > b->len) {
    memmove(b->times, b->times + b->head, (b->len - b->head) * sizeof *b->times);
    memmove(b->counts, b->counts + b->head, (b->len - b->head) * sizeof *b->counts);
    b->len -= b->head;
    b->head = 0;
  }
}

static int64_t ceil_div_1000(int64_t ms) { return ms >= 0 ? (ms + 999) / 1000 : -((-ms) / 1000); }

/* ------------------------------------------------------------------------------------------------------------ */
/* The hop's state.                                                                                               */

enum { VNET_CLOSED, VNET_OPEN, VNET_PAUSED };
enum { KIND_CONN, KIND_IPC, KIND_WAKE };
enum { CONN_IDLE, CONN_WAITING };

struct conn;

typedef struct vnet {
  int kind; /* KIND_IPC: the epoll tag of its IPC socket */
  char *id;
  /* Under the mutex. */
  char *path;
  bool path_changed;
  int state;
  uint32_t gen;
  int inflight, conns;
  /* The hop thread's alone. */
  int ipc_fd;
  bool ipc_writing;
  buf_t ipc_out, ipc_in;
  struct conn **calls; /* our id -> the connection waiting for it; id 0 unused */
  uint32_t *free_ids;
  size_t calls_cap, nfree;
  uint32_t next_id;
  /* Counts the socket's failures: a reader of its answers stops when one happens under it. */
  uint32_t epoch;
  bool dirty;
  struct vnet *next_dirty;
} vnet_t;

typedef struct conn {
  int kind; /* KIND_CONN */
  int fd;
  buf_t in, out;
  int state;
  vnet_t *vnet; /* the vnet it is counted against (`conns`) */
  uint32_t call_id; /* while waiting: its call's id of ours on `vnet`'s socket */
  size_t call_len, id_start, id_len;
  bool close_after, peer_ended, write_blocked, reading;
  /* Closed or handed back: freed at the end of the loop's turn (events of this turn may still name it). */
  bool dead;
  decision_t rate;
  int64_t last_active, arrival_started;
  struct conn *prev, *next;
} conn_t;

typedef struct adoption {
  int fd;
  char *bytes;
  size_t len;
  vnet_t *vnet;
  struct adoption *next;
} adoption_t;

typedef struct {
  int kind; /* 0: handback, 1: drained, 2: closed */
  int fd;
  char *bytes;
  size_t len;
  bool counted;
  decision_t rate;
  char *vnet_id;
  uint32_t gen;
} event_t;

typedef struct hop {
  int wake_kind; /* KIND_WAKE: the epoll tag of the eventfd */
  pthread_t thread;
  bool thread_started, disposed;
  int epfd, evfd;
  pthread_mutex_t mu;
  napi_threadsafe_function tsfn;
  /* Settings. */
  int64_t keepalive_ms, window_ms, rpc_limit;
  size_t body_limit;
  /* Under the mutex. */
  map_t buckets, routes, verdicts, vnets;
  uint64_t takes;
  adoption_t *adoptions;
  bool closing;
  /* The hop thread's alone. */
  conn_t *conns, *graveyard;
  vnet_t *dirty;
  double *rate_out;
  napi_ref rate_ref;
  /* Counts for tests and benchmarks (`stats`): connections adopted, calls answered, connections handed back. */
  uint64_t adopted, answered, handed_back;
  char date[40];
  int64_t date_second;
} hop_t;

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t monotonic_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Counts one call of `key` unless `limit` calls already count in the window (the RPC URLs' limit and burst are one). */
static decision_t rate_take(hop_t *h, const char *key, size_t n, bool count) {
  int64_t now = now_ms();
  if (++h->takes % SWEEP_EVERY == 0) {
    for (size_t i = 0; i < h->buckets.nslots; i++)
      for (entry_t **link = &h->buckets.slots[i]; *link;) {
        entry_t *e = *link;
        bucket_t *b = e->value;
        bucket_expire(b, now, h->window_ms);
        if (b->head == b->len) {
          *link = e->next;
          free(b->times);
          free(b->counts);
          free(b);
          free(e);
          h->buckets.size--;
        } else
          link = &e->next;
      }
  }
  decision_t d = {.allowed = false, .limit = h->rpc_limit, .remaining = 0, .reset = 0};
  entry_t *e = map_find(&h->buckets, key, n);
  bucket_t *b = e ? e->value : NULL;
  if (!b) {
    b = calloc(1, sizeof *b);
    if (!b || !map_add(&h->buckets, key, n, b)) {
      free(b);
      d.reset = ceil_div_1000(now + h->window_ms);
      return d; /* out of memory: refused, nothing counted */
    }
  }
  bucket_expire(b, now, h->window_ms);
  int64_t cap = h->rpc_limit, counted = b->total;
  if (!count) {
    int64_t oldest = b->len > b->head ? b->times[b->head] : now;
    d.allowed = true;
    d.remaining = cap - counted > 0 ? cap - counted : 0;
    d.reset = ceil_div_1000(oldest + h->window_ms);
    return d;
  }
  d.allowed = counted < cap;
  if (d.allowed) {
    if (b->len > b->head && b->times[b->len - 1] == now)
      b->counts[b->len - 1] += 1;
    else {
      if (b->len == b->cap) {
        size_t cap2 = b->cap ? b->cap * 2 : 16;
        int64_t *times = realloc(b->times, cap2 * sizeof *times);
        if (times) b->times = times;
        int64_t *counts = times ? realloc(b->counts, cap2 * sizeof *counts) : NULL;
        if (counts) b->counts = counts;
        if (!times || !counts) {
          d.allowed = false;
          d.reset = ceil_div_1000(now + h->window_ms);
          return d;
        }
        b->cap = cap2;
      }
      b->times[b->len] = now;
      b->counts[b->len] = 1;
      b->len++;
    }
    b->total += 1;
  }
  int64_t oldest = b->len > b->head ? b->times[b->head] : now;
  d.remaining = d.allowed ? cap - counted - 1 : 0;
  d.reset = ceil_div_1000(oldest + h->window_ms);
  return d;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Events to JavaScript.                                                                                          */

static void post(hop_t *h, event_t *ev) {
  if (napi_call_threadsafe_function(h->tsfn, ev, napi_tsfn_nonblocking) != napi_ok) {
    if (ev->kind == 0) close(ev->fd);
    free(ev->bytes);
    free(ev->vnet_id);
    free(ev);
  }
}

/* Under the mutex: a vnet with no call in flight that is paused, or open with no connection left, is closed. */
static void settle_vnet(hop_t *h, vnet_t *v) {
  if (v->inflight > 0) return;
  if (v->state == VNET_PAUSED || (v->state == VNET_OPEN && v->conns == 0)) {
    /* Out of memory: the state stays, and the next answer or closed connection of this vnet tries again. */
    event_t *ev = calloc(1, sizeof *ev);
    char *id = strdup(v->id);
    if (!ev || !id) {
      free(ev);
      free(id);
      return;
    }
    v->state = VNET_CLOSED;
    ev->kind = 1;
    ev->vnet_id = id;
    ev->gen = v->gen;
    post(h, ev);
  }
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Connections.                                                                                                   */

/* A call whose connection went away while anvil answers it: its id stays taken until the answer comes (so that the
 * late answer reaches nobody else), and the answer is dropped. */
static conn_t orphan;

static void epoll_set(hop_t *h, conn_t *c) {
  struct epoll_event ev = {.events = (c->reading ? EPOLLIN | EPOLLRDHUP : 0) | (c->write_blocked ? EPOLLOUT : 0), .data.ptr = c};
  epoll_ctl(h->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

static void conn_unlink(hop_t *h, conn_t *c) {
  epoll_ctl(h->epfd, EPOLL_CTL_DEL, c->fd, NULL);
  if (c->prev) c->prev->next = c->next;
  else h->conns = c->next;
  if (c->next) c->next->prev = c->prev;
  c->dead = true;
  c->next = h->graveyard;
  h->graveyard = c;
  if (c->state == CONN_WAITING) c->vnet->calls[c->call_id] = &orphan;
  pthread_mutex_lock(&h->mu);
  if (c->vnet) {
    c->vnet->conns--;
    settle_vnet(h, c->vnet);
  }
  pthread_mutex_unlock(&h->mu);
  buf_free(&c->in);
  buf_free(&c->out);
}

static void conn_close(hop_t *h, conn_t *c) {
  conn_unlink(h, c);
  close(c->fd);
}

/* Gives the connection and every byte not yet answered back to the service. */
static void conn_hand_back(hop_t *h, conn_t *c, bool counted) {
  event_t *ev = calloc(1, sizeof *ev);
  int fd = c->fd;
  if (ev) {
    ev->kind = 0;
    ev->fd = fd;
    ev->counted = counted;
    ev->rate = c->rate;
    ev->len = c->in.len;
    ev->bytes = c->in.len ? malloc(c->in.len) : NULL;
    if (c->in.len && !ev->bytes) {
      free(ev);
      ev = NULL;
    } else if (c->in.len)
      memcpy(ev->bytes, c->in.data, c->in.len);
  }
  conn_unlink(h, c);
  __atomic_fetch_add(&h->handed_back, 1, __ATOMIC_RELAXED);
  if (ev) post(h, ev);
  else close(fd);
}

/* Writes what is waiting; false when the connection was closed (`dead`). */
static bool conn_flush(hop_t *h, conn_t *c) {
  while (c->out.len > 0) {
    ssize_t n = send(c->fd, c->out.data, c->out.len, MSG_NOSIGNAL);
    if (n > 0) {
      buf_consume(&c->out, (size_t)n);
      c->last_active = monotonic_ms();
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!c->write_blocked) {
        c->write_blocked = true;
        c->reading = false; /* a caller that does not read its answers gets no more until it does */
        epoll_set(h, c);
      }
      return true;
    }
    conn_close(h, c);
    return false;
  }
  if (c->write_blocked) {
    c->write_blocked = false;
    c->reading = !c->peer_ended;
    /* The calls read ahead are timed from their turn, as in the service. */
    if (c->in.len > 0) c->arrival_started = monotonic_ms();
    epoll_set(h, c);
  }
  if (c->close_after && c->state == CONN_IDLE) {
    shutdown(c->fd, SHUT_WR);
    conn_close(h, c);
    return false;
  }
  return true;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* A call's head: http-connections.ts `readRpcCallHead`, for the calls the hop answers (no Origin).               */

typedef struct {
  size_t path_start, path_len; /* "/rpc/{access}/{key}" */
  size_t key_start, key_len;
  char access; /* 'a' or 'p' */
  size_t content_length, body_start;
  bool close;
} head_t;

static bool is_token_char(uint8_t ch) {
  return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch && strchr("!#$%&'*+.^_`|~-", ch));
}

static bool name_is(const char *name, size_t n, const char *lower) {
  return strlen(lower) == n && strncasecmp(name, lower, n) == 0;
}

static void trim(const char **value, size_t *n) {
  while (*n > 0 && (**value == ' ' || **value == '\t')) (*value)++, (*n)--;
  while (*n > 0 && ((*value)[*n - 1] == ' ' || (*value)[*n - 1] == '\t')) (*n)--;
}

/* 1: a call's head this reads; 0: not whole yet; -1: for the service. */
static int read_head(const char *d, size_t n, head_t *head) {
  static const char prefix[] = "POST /rpc/";
  size_t p = n < sizeof prefix - 1 ? n : sizeof prefix - 1;
  if (memcmp(d, prefix, p) != 0) return -1;
  const char *end = memmem(d, n < MAX_HEAD_BYTES + 4 ? n : MAX_HEAD_BYTES + 4, "\r\n\r\n", 4);
  if (!end) return n > MAX_HEAD_BYTES ? -1 : 0;
  size_t head_end = (size_t)(end - d);
  if (head_end > MAX_HEAD_BYTES) return -1;
  const char *line_end = memmem(d, head_end + 2, "\r\n", 2);
  size_t le = (size_t)(line_end - d);
  if (le < 5 + 9 + 1 || memcmp(d + le - 9, " HTTP/1.1", 9) != 0) return -1;
  size_t target_start = 5, target_end = le - 9;
  for (size_t i = target_start; i < target_end; i++)
    if ((uint8_t)d[i] < 0x21 || (uint8_t)d[i] > 0x7e) return -1;
  const char *q = memchr(d + target_start, '?', target_end - target_start);
  size_t path_end = q ? (size_t)(q - d) : target_end;
  head->path_start = target_start;
  head->path_len = path_end - target_start;
  size_t at = target_start + 5; /* after "/rpc/" */
  if (path_end - at > 6 && memcmp(d + at, "admin/", 6) == 0) head->access = 'a', at += 6;
  else if (path_end - at > 7 && memcmp(d + at, "public/", 7) == 0) head->access = 'p', at += 7;
  else return -1;
  head->key_start = at;
  head->key_len = path_end - at;
  if (head->key_len < 1 || head->key_len > MAX_KEY_CHARS) return -1;
  for (size_t i = at; i < path_end; i++)
    if (d[i] == '/' || d[i] == '%') return -1;
  int lengths = 0, hosts = 0, connections = 0;
  const char *length = NULL, *connection = NULL;
  size_t length_n = 0, connection_n = 0;
  for (size_t i = le + 2; i < head_end + 2;) {
    const char *lend = memmem(d + i, head_end + 2 - i, "\r\n", 2);
    size_t line_stop = (size_t)(lend - d);
    size_t colon = i;
    while (colon < line_stop && is_token_char((uint8_t)d[colon])) colon++;
    if (colon == i || colon == line_stop || d[colon] != ':') return -1;
    for (size_t j = colon + 1; j < line_stop; j++) {
      uint8_t ch = (uint8_t)d[j];
      if (!(ch == '\t' || (ch >= 0x20 && ch != 0x7f))) return -1;
    }
    const char *name = d + i, *value = d + colon + 1;
    size_t name_n = colon - i, value_n = line_stop - colon - 1;
    if (name_is(name, name_n, "transfer-encoding") || name_is(name, name_n, "expect") || name_is(name, name_n, "upgrade") ||
        name_is(name, name_n, "origin"))
      return -1;
    if (name_is(name, name_n, "content-length")) lengths++, length = value, length_n = value_n;
    else if (name_is(name, name_n, "host")) hosts++;
    else if (name_is(name, name_n, "connection")) connections++, connection = value, connection_n = value_n;
    i = line_stop + 2;
  }
  if (lengths != 1 || hosts != 1 || connections > 1) return -1;
  trim(&length, &length_n);
  if (length_n < 1 || length_n > 9) return -1;
  size_t cl = 0;
  for (size_t i = 0; i < length_n; i++) {
    if (length[i] < '0' || length[i] > '9') return -1;
    cl = cl * 10 + (size_t)(length[i] - '0');
  }
  head->close = false;
  if (connection) {
    for (size_t i = 0; i < connection_n; i++)
      if ((uint8_t)connection[i] >= 0x80) return -1;
    for (size_t i = 0; i <= connection_n;) {
      const char *comma = memchr(connection + i, ',', connection_n - i);
      size_t stop = comma ? (size_t)(comma - connection) : connection_n;
      const char *option = connection + i;
      size_t option_n = stop - i;
      trim(&option, &option_n);
      if (name_is(option, option_n, "upgrade")) return -1;
      if (name_is(option, option_n, "close")) head->close = true;
      i = stop + 1;
    }
  }
  head->content_length = cl;
  head->body_start = head_end + 4;
  return 1;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* A call's body: a single JSON-RPC request that passes through (rpc-proxy.ts `passesThrough`), read strictly.    */
/* Anything this does not read as such (escapes, bytes over 0x7f, a batch, other members) goes to the service.     */

typedef struct {
  size_t method_start, method_len, id_start, id_len;
} call_t;

typedef struct {
  const char *s;
  size_t n, i;
} json_t;

static void skip_ws(json_t *j) {
  while (j->i < j->n && (j->s[j->i] == ' ' || j->s[j->i] == '\t' || j->s[j->i] == '\n' || j->s[j->i] == '\r')) j->i++;
}

static bool json_string(json_t *j) {
  if (j->i >= j->n || j->s[j->i] != '"') return false;
  for (j->i++; j->i < j->n; j->i++) {
    uint8_t ch = (uint8_t)j->s[j->i];
    if (ch == '"') {
      j->i++;
      return true;
    }
    if (ch < 0x20) return false; /* escapes and bytes over 0x7f were refused before */
  }
  return false;
}

static bool digits(json_t *j) {
  size_t start = j->i;
  while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9') j->i++;
  return j->i > start;
}

static bool json_number(json_t *j) {
  if (j->i < j->n && j->s[j->i] == '-') j->i++;
  if (j->i < j->n && j->s[j->i] == '0') j->i++;
  else if (!digits(j)) return false;
  if (j->i < j->n && j->s[j->i] == '.') {
    j->i++;
    if (!digits(j)) return false;
  }
  if (j->i < j->n && (j->s[j->i] == 'e' || j->s[j->i] == 'E')) {
    j->i++;
    if (j->i < j->n && (j->s[j->i] == '+' || j->s[j->i] == '-')) j->i++;
    if (!digits(j)) return false;
  }
  return true;
}

static bool json_literal(json_t *j, const char *word) {
  size_t n = strlen(word);
  if (j->n - j->i < n || memcmp(j->s + j->i, word, n) != 0) return false;
  j->i += n;
  return true;
}

static bool json_value(json_t *j, int depth) {
  if (depth > MAX_JSON_DEPTH || j->i >= j->n) return false;
  char ch = j->s[j->i];
  if (ch == '"') return json_string(j);
  if (ch == '{' || ch == '[') {
    char close = ch == '{' ? '}' : ']';
    j->i++;
    skip_ws(j);
    if (j->i < j->n && j->s[j->i] == close) {
      j->i++;
      return true;
    }
    for (;;) {
      if (ch == '{') {
        if (!json_string(j)) return false;
        skip_ws(j);
        if (j->i >= j->n || j->s[j->i] != ':') return false;
        j->i++;
        skip_ws(j);
      }
      if (!json_value(j, depth + 1)) return false;
      skip_ws(j);
      if (j->i >= j->n) return false;
      if (j->s[j->i] == ',') {
        j->i++;
        skip_ws(j);
        continue;
      }
      if (j->s[j->i] != close) return false;
      j->i++;
      return true;
    }
  }
  if (ch == 't') return json_literal(j, "true");
  if (ch == 'f') return json_literal(j, "false");
  if (ch == 'n') return json_literal(j, "null");
  return json_number(j);
}

/* A call's id as JSON.stringify writes it: a string, or a whole number from 0 to 2^53 - 1 without a leading zero. */
static bool canonical_id(const char *s, size_t n) {
  if (n >= 2 && s[0] == '"') return true;
  if (n < 1 || n > 16 || (s[0] == '0' && n > 1)) return false;
  uint64_t value = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    value = value * 10 + (uint64_t)(s[i] - '0');
  }
  return value <= 9007199254740991ULL;
}

static bool read_call(const char *s, size_t n, call_t *call) {
  for (size_t i = 0; i < n; i++)
    if (s[i] == '\\' || (uint8_t)s[i] >= 0x80) return false;
  json_t j = {s, n, 0};
  skip_ws(&j);
  if (j.i >= n || s[j.i] != '{') return false;
  j.i++;
  bool seen_jsonrpc = false, seen_method = false, seen_id = false, seen_params = false;
  skip_ws(&j);
  if (j.i < n && s[j.i] == '}') return false;
  for (;;) {
    size_t name_start = j.i;
    if (!json_string(&j)) return false;
    const char *name = s + name_start + 1;
    size_t name_n = j.i - name_start - 2;
    skip_ws(&j);
    if (j.i >= n || s[j.i] != ':') return false;
    j.i++;
    skip_ws(&j);
    size_t value_start = j.i;
    if (!json_value(&j, 1)) return false;
    const char *value = s + value_start;
    size_t value_n = j.i - value_start;
    if (name_n == 7 && memcmp(name, "jsonrpc", 7) == 0) {
      if (seen_jsonrpc || value_n != 5 || memcmp(value, "\"2.0\"", 5) != 0) return false;
      seen_jsonrpc = true;
    } else if (name_n == 6 && memcmp(name, "method", 6) == 0) {
      if (seen_method || value[0] != '"') return false;
      seen_method = true;
      call->method_start = value_start + 1;
      call->method_len = value_n - 2;
    } else if (name_n == 2 && memcmp(name, "id", 2) == 0) {
      if (seen_id || !canonical_id(value, value_n)) return false;
      seen_id = true;
      call->id_start = value_start;
      call->id_len = value_n;
    } else if (name_n == 6 && memcmp(name, "params", 6) == 0) {
      if (seen_params || value[0] != '[') return false;
      seen_params = true;
    } else
      return false;
    skip_ws(&j);
    if (j.i >= n) return false;
    if (s[j.i] == ',') {
      j.i++;
      skip_ws(&j);
      continue;
    }
    if (s[j.i] != '}') return false;
    j.i++;
    break;
  }
  skip_ws(&j);
  return j.i == n && seen_jsonrpc && seen_method && seen_id;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The vnets' IPC sockets.                                                                                        */

static void vnet_fail(hop_t *h, vnet_t *v);

static bool vnet_connect(hop_t *h, vnet_t *v) {
  pthread_mutex_lock(&h->mu);
  char *path = v->path ? strdup(v->path) : NULL;
  v->path_changed = false;
  pthread_mutex_unlock(&h->mu);
  if (!path) return false;
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  bool ok = strlen(path) < sizeof addr.sun_path;
  if (ok) strcpy(addr.sun_path, path);
  free(path);
  if (!ok) return false;
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0 && errno != EINPROGRESS) {
    close(fd);
    return false;
  }
  struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP, .data.ptr = v};
  if (epoll_ctl(h->epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
    close(fd);
    return false;
  }
  v->ipc_fd = fd;
  v->ipc_writing = false;
  return true;
}

static void vnet_flush(hop_t *h, vnet_t *v) {
  while (v->ipc_out.len > 0) {
    ssize_t n = send(v->ipc_fd, v->ipc_out.data, v->ipc_out.len, MSG_NOSIGNAL);
    if (n > 0) {
      buf_consume(&v->ipc_out, (size_t)n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!v->ipc_writing) {
        v->ipc_writing = true;
        struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | EPOLLOUT, .data.ptr = v};
        epoll_ctl(h->epfd, EPOLL_CTL_MOD, v->ipc_fd, &ev);
      }
      return;
    }
    vnet_fail(h, v);
    return;
  }
  if (v->ipc_writing) {
    v->ipc_writing = false;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP, .data.ptr = v};
    epoll_ctl(h->epfd, EPOLL_CTL_MOD, v->ipc_fd, &ev);
  }
}

static uint32_t vnet_call_id(vnet_t *v, conn_t *c) {
  uint32_t id;
  if (v->nfree > 0) id = v->free_ids[--v->nfree];
  else {
    if (v->next_id >= v->calls_cap) {
      size_t cap = v->calls_cap ? v->calls_cap * 2 : 64;
      conn_t **calls = realloc(v->calls, cap * sizeof *calls);
      if (!calls) return 0;
      v->calls = calls;
      uint32_t *free_ids = realloc(v->free_ids, cap * sizeof *free_ids);
      if (!free_ids) return 0;
      v->free_ids = free_ids;
      v->calls_cap = cap;
    }
    id = v->next_id++;
  }
  v->calls[id] = c;
  return id;
}

/* The calls in flight on a vnet's IPC socket cannot be answered here: their connections go back to the service, each
 * with its call unanswered (the service runs it again on its own path, which reports what the chain says). */
static void vnet_fail(hop_t *h, vnet_t *v) {
  v->epoch++;
  if (v->ipc_fd >= 0) {
    epoll_ctl(h->epfd, EPOLL_CTL_DEL, v->ipc_fd, NULL);
    close(v->ipc_fd);
    v->ipc_fd = -1;
  }
  v->ipc_in.len = v->ipc_out.len = 0;
  v->ipc_writing = false;
  for (uint32_t id = 1; id < v->next_id; id++) {
    conn_t *c = v->calls[id];
    if (!c) continue;
    v->calls[id] = NULL;
    pthread_mutex_lock(&h->mu);
    v->inflight--;
    pthread_mutex_unlock(&h->mu);
    if (c == &orphan) continue;
    c->state = CONN_IDLE;
    conn_hand_back(h, c, true);
  }
  v->next_id = 1;
  v->nfree = 0;
  pthread_mutex_lock(&h->mu);
  settle_vnet(h, v);
  pthread_mutex_unlock(&h->mu);
}

static void format_date(hop_t *h) {
  static const char *days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char *months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  time_t second = (time_t)(now_ms() / 1000);
  if (second == h->date_second) return;
  h->date_second = second;
  struct tm tm;
  gmtime_r(&second, &tm);
  snprintf(h->date, sizeof h->date, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
           tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static void conn_process(hop_t *h, conn_t *c);

/* One answer line from anvil: `{"jsonrpc":"2.0","id":N,...}`, given back to its caller with the caller's id. */
static bool vnet_answer(hop_t *h, vnet_t *v, const char *line, size_t n) {
  static const char prefix[] = "{\"jsonrpc\":\"2.0\",\"id\":";
  size_t p = sizeof prefix - 1, end = p;
  if (n <= p || memcmp(line, prefix, p) != 0) return false;
  uint64_t id = 0;
  while (end < n && end - p < 10 && line[end] >= '0' && line[end] <= '9') id = id * 10 + (uint64_t)(line[end++] - '0');
  if (end == p || end >= n || line[end] != ',' || id == 0 || id >= v->next_id || !v->calls[id]) return false;
  conn_t *c = v->calls[id];
  v->calls[id] = NULL;
  v->free_ids[v->nfree++] = (uint32_t)id;
  pthread_mutex_lock(&h->mu);
  v->inflight--;
  settle_vnet(h, v);
  bool closing = h->closing;
  pthread_mutex_unlock(&h->mu);
  if (c == &orphan) return true;
  format_date(h);
  size_t body_len = n - (end - p) + c->id_len;
  char head[512];
  bool close_now = c->close_after || c->peer_ended || (closing && c->in.len == c->call_len);
  int head_len = snprintf(head, sizeof head,
                          "HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\nx-svc-limit: %lld\r\n"
                          "x-svc-remaining: %lld\r\nx-svc-reset-timestamp: %lld\r\ncontent-length: %zu\r\ndate: %s\r\n",
                          (long long)c->rate.limit, (long long)c->rate.remaining, (long long)c->rate.reset, body_len, h->date);
  if (close_now) head_len += snprintf(head + head_len, sizeof head - (size_t)head_len, "connection: close\r\n\r\n");
  else
    head_len += snprintf(head + head_len, sizeof head - (size_t)head_len, "connection: keep-alive\r\nkeep-alive: timeout=%lld\r\n\r\n",
                         (long long)(h->keepalive_ms / 1000));
  if (!buf_reserve(&c->out, (size_t)head_len + body_len)) {
    conn_close(h, c);
    return true;
  }
  buf_append(&c->out, head, (size_t)head_len);
  buf_append(&c->out, line, p);
  buf_append(&c->out, c->in.data + c->id_start, c->id_len);
  buf_append(&c->out, line + end, n - end);
  buf_consume(&c->in, c->call_len);
  __atomic_fetch_add(&h->answered, 1, __ATOMIC_RELAXED);
  c->state = CONN_IDLE;
  c->close_after = close_now;
  c->last_active = monotonic_ms();
  if (c->in.len > 0) c->arrival_started = c->last_active;
  if (!conn_flush(h, c)) return true;
  if (!c->reading && !c->peer_ended && !c->write_blocked) {
    c->reading = true; /* reading had waited for this call's turn to pass */
    epoll_set(h, c);
  }
  if (!c->write_blocked) conn_process(h, c);
  return true;
}

static void vnet_read(hop_t *h, vnet_t *v) {
  uint32_t epoch = v->epoch;
  for (;;) {
    if (!buf_reserve(&v->ipc_in, READ_CHUNK)) return vnet_fail(h, v);
    ssize_t n = read(v->ipc_fd, v->ipc_in.data + v->ipc_in.len, READ_CHUNK);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n <= 0) return vnet_fail(h, v);
    size_t scanned = v->ipc_in.len;
    v->ipc_in.len += (size_t)n;
    size_t start = 0;
    for (char *nl; (nl = memchr(v->ipc_in.data + scanned, '\n', v->ipc_in.len - scanned)); scanned = start) {
      size_t stop = (size_t)(nl - v->ipc_in.data);
      if (!vnet_answer(h, v, v->ipc_in.data + start, stop - start)) return vnet_fail(h, v);
      if (v->epoch != epoch) return; /* an answer's caller went on to a call that failed the socket */
      start = stop + 1;
    }
    buf_consume(&v->ipc_in, start);
    if ((size_t)n < READ_CHUNK) break;
  }
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Answering a connection's calls.                                                                                */

/* Takes the calls at the head of what was read, one at a time, while they are whole and this knows them. */
static void conn_process(hop_t *h, conn_t *c) {
  while (c->state == CONN_IDLE && c->in.len > 0 && !c->write_blocked) {
    head_t head;
    int r = read_head(c->in.data, c->in.len, &head);
    if (r == 0) return;
    if (r < 0 || head.content_length > h->body_limit) return conn_hand_back(h, c, false);
    size_t total = head.body_start + head.content_length;
    if (c->in.len < total) return;
    call_t call = {0};
    if (!read_call(c->in.data + head.body_start, head.content_length, &call)) return conn_hand_back(h, c, false);
    char key[2 + MAX_KEY_CHARS];
    key[0] = head.access;
    memcpy(key + 1, c->in.data + head.key_start, head.key_len);
    char verdict[1 + 512];
    bool known_method = call.method_len < sizeof verdict - 1;
    if (known_method) {
      verdict[0] = head.access;
      memcpy(verdict + 1, c->in.data + head.body_start + call.method_start, call.method_len);
    }
    pthread_mutex_lock(&h->mu);
    entry_t *route = map_find(&h->routes, key, 1 + head.key_len);
    vnet_t *v = route ? route->value : NULL;
    bool ours = v && v->state == VNET_OPEN && !h->closing && known_method && map_find(&h->verdicts, verdict, 1 + call.method_len);
    decision_t rate = {0};
    if (ours) {
      rate = rate_take(h, c->in.data + head.path_start, head.path_len, true);
      ours = rate.allowed; /* a refused call is not counted: the service refuses it again, with its own answer */
    }
    if (ours) {
      if (c->vnet != v) {
        if (c->vnet) {
          c->vnet->conns--;
          settle_vnet(h, c->vnet);
        }
        v->conns++;
        c->vnet = v;
      }
      v->inflight++;
    }
    bool reconnect = ours && (v->ipc_fd < 0 || v->path_changed);
    pthread_mutex_unlock(&h->mu);
    if (!ours) return conn_hand_back(h, c, false);
    if (reconnect) {
      if (v->ipc_fd >= 0) vnet_fail(h, v);
      if (!vnet_connect(h, v)) {
        pthread_mutex_lock(&h->mu);
        v->inflight--;
        settle_vnet(h, v);
        pthread_mutex_unlock(&h->mu);
        c->rate = rate;
        return conn_hand_back(h, c, true);
      }
    }
    uint32_t id = vnet_call_id(v, c);
    char id_text[16];
    int id_n = snprintf(id_text, sizeof id_text, "%u", id);
    const char *body = c->in.data + head.body_start;
    size_t id_at = call.id_start;
    if (id == 0 || !buf_reserve(&v->ipc_out, head.content_length + (size_t)id_n + 1)) {
      pthread_mutex_lock(&h->mu);
      v->inflight--;
      settle_vnet(h, v);
      pthread_mutex_unlock(&h->mu);
      if (id) v->calls[id] = NULL, v->free_ids[v->nfree++] = id;
      c->rate = rate;
      return conn_hand_back(h, c, true);
    }
    buf_append(&v->ipc_out, body, id_at);
    buf_append(&v->ipc_out, id_text, (size_t)id_n);
    buf_append(&v->ipc_out, body + id_at + call.id_len, head.content_length - id_at - call.id_len);
    buf_append(&v->ipc_out, "\n", 1);
    if (!v->dirty) {
      v->dirty = true;
      v->next_dirty = h->dirty;
      h->dirty = v;
    }
    c->state = CONN_WAITING;
    c->call_id = id;
    c->call_len = total;
    c->id_start = head.body_start + call.id_start;
    c->id_len = call.id_len;
    c->close_after = head.close;
    c->rate = rate;
  }
}

static void conn_read(hop_t *h, conn_t *c) {
  for (;;) {
    if (c->in.len > h->body_limit + MAX_HEAD_BYTES + READ_CHUNK) {
      /* Calls sent ahead of their turn wait; past one call's worth, reading waits too. */
      c->reading = false;
      epoll_set(h, c);
      break;
    }
    if (!buf_reserve(&c->in, READ_CHUNK)) return conn_close(h, c);
    ssize_t n = read(c->fd, c->in.data + c->in.len, READ_CHUNK);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n < 0) return conn_close(h, c);
    if (n == 0) {
      c->peer_ended = true;
      c->reading = false;
      epoll_set(h, c);
      break;
    }
    int64_t now = monotonic_ms();
    if (c->in.len == 0) c->arrival_started = now;
    c->last_active = now;
    c->in.len += (size_t)n;
    if ((size_t)n < READ_CHUNK) break;
  }
  if (c->state == CONN_IDLE && c->in.len > 0 && monotonic_ms() - c->arrival_started > REQUEST_ARRIVAL_MS)
    return conn_hand_back(h, c, false);
  conn_process(h, c);
  /* The caller ended its side: answer what is under way, then end ours, as Node's server does. */
}

static void conn_after_event(hop_t *h, conn_t *c) {
  if (c->peer_ended && c->state == CONN_IDLE && c->out.len == 0) conn_close(h, c);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The thread.                                                                                                    */

static void take_adoptions(hop_t *h) {
  pthread_mutex_lock(&h->mu);
  adoption_t *list = h->adoptions;
  h->adoptions = NULL;
  pthread_mutex_unlock(&h->mu);
  /* In arrival order. */
  adoption_t *ordered = NULL;
  while (list) {
    adoption_t *next = list->next;
    list->next = ordered;
    ordered = list;
    list = next;
  }
  for (adoption_t *a = ordered, *next; a; a = next) {
    next = a->next;
    conn_t *c = calloc(1, sizeof *c);
    if (!c) {
      close(a->fd);
      pthread_mutex_lock(&h->mu);
      a->vnet->conns--;
      settle_vnet(h, a->vnet);
      pthread_mutex_unlock(&h->mu);
    } else {
      c->kind = KIND_CONN;
      c->fd = a->fd;
      c->vnet = a->vnet;
      c->reading = true;
      c->last_active = c->arrival_started = monotonic_ms();
      bool kept = a->len == 0 || buf_append(&c->in, a->bytes, a->len);
      c->next = h->conns;
      if (h->conns) h->conns->prev = c;
      h->conns = c;
      struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP, .data.ptr = c};
      __atomic_fetch_add(&h->adopted, 1, __ATOMIC_RELAXED);
      if (epoll_ctl(h->epfd, EPOLL_CTL_ADD, c->fd, &ev) != 0 || !kept) conn_close(h, c);
      else conn_process(h, c);
    }
    free(a->bytes);
    free(a);
  }
}

static void sweep(hop_t *h, bool closing) {
  int64_t now = monotonic_ms();
  /* While closing, a caller that does not read its last answer is given a little while, not the keep-alive time. */
  int64_t idle_limit = closing && (h->keepalive_ms <= 0 || h->keepalive_ms > 2000) ? 2000 : h->keepalive_ms;
  for (conn_t *c = h->conns, *next; c; c = next) {
    next = c->next;
    if (c->state != CONN_IDLE) continue; /* a call the chain takes long over is not idle */
    bool writing = c->out.len > 0;
    if (closing && !writing) {
      if (c->in.len > 0) conn_hand_back(h, c, false);
      else conn_close(h, c);
    } else if (idle_limit > 0 && now - c->last_active >= idle_limit)
      conn_close(h, c); /* nothing arrived or left for the keep-alive time, as a socket timeout in the service */
    else if (!writing && c->in.len > 0 && now - c->arrival_started > REQUEST_ARRIVAL_MS)
      conn_hand_back(h, c, false); /* a call arriving this slowly is for the service, which times it by its own clocks */
  }
}

static void *hop_main(void *arg) {
  hop_t *h = arg;
  struct epoll_event events[64];
  int64_t last_sweep = monotonic_ms();
  for (;;) {
    int n = epoll_wait(h->epfd, events, 64, 250);
    for (int i = 0; i < n; i++) {
      int kind = *(int *)events[i].data.ptr;
      if (kind == KIND_WAKE) {
        uint64_t count;
        ssize_t r = read(h->evfd, &count, sizeof count);
        (void)r;
        take_adoptions(h);
      } else if (kind == KIND_IPC) {
        vnet_t *v = events[i].data.ptr;
        if (v->ipc_fd < 0) continue;
        if (events[i].events & EPOLLOUT) vnet_flush(h, v);
        if (v->ipc_fd >= 0 && events[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) vnet_read(h, v);
      } else {
        conn_t *c = events[i].data.ptr;
        uint32_t e = events[i].events;
        if (c->dead) continue;
        if (e & EPOLLOUT) {
          if (!conn_flush(h, c)) continue;
          if (!c->write_blocked) conn_process(h, c);
          if (c->dead) continue;
        }
        if (e & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
          if (c->reading) conn_read(h, c);
          else if (e & (EPOLLHUP | EPOLLERR)) conn_close(h, c);
          if (c->dead) continue;
        }
        conn_after_event(h, c);
      }
    }
    while (h->dirty) {
      vnet_t *v = h->dirty;
      h->dirty = v->next_dirty;
      v->dirty = false;
      if (v->ipc_fd >= 0) vnet_flush(h, v);
    }
    pthread_mutex_lock(&h->mu);
    bool closing = h->closing, adopting = h->adoptions != NULL;
    pthread_mutex_unlock(&h->mu);
    /* Connections adopted just before the close are taken (and, closing, handed back) before the thread ends. */
    if (closing && adopting) take_adoptions(h);
    int64_t now = monotonic_ms();
    if (closing || now - last_sweep >= 250) {
      last_sweep = now;
      sweep(h, closing);
    }
    while (h->graveyard) {
      conn_t *c = h->graveyard;
      h->graveyard = c->next;
      free(c);
    }
    if (closing && h->conns == NULL) break;
  }
  event_t *ev = calloc(1, sizeof *ev);
  if (ev) {
    ev->kind = 2;
    post(h, ev);
  }
  return NULL;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Node-API.                                                                                                      */

typedef struct {
  napi_ref on_event;
} js_context_t;

static void call_js(napi_env env, napi_value callback, void *context, void *data) {
  (void)context;
  event_t *ev = data;
  if (env == NULL) {
    if (ev->kind == 0) close(ev->fd);
  } else {
    napi_value global, args[7];
    napi_get_undefined(env, &global);
    napi_create_int32(env, ev->kind, &args[0]);
    if (ev->kind == 0) {
      napi_create_int32(env, ev->fd, &args[1]);
      napi_create_buffer_copy(env, ev->len, ev->bytes ? ev->bytes : "", NULL, &args[2]);
      napi_get_boolean(env, ev->counted, &args[3]);
      napi_create_double(env, (double)ev->rate.limit, &args[4]);
      napi_create_double(env, (double)ev->rate.remaining, &args[5]);
      napi_create_double(env, (double)ev->rate.reset, &args[6]);
    } else if (ev->kind == 1) {
      napi_create_string_utf8(env, ev->vnet_id, NAPI_AUTO_LENGTH, &args[1]);
      napi_create_uint32(env, ev->gen, &args[2]);
      for (int i = 3; i < 7; i++) napi_get_undefined(env, &args[i]);
    } else
      for (int i = 1; i < 7; i++) napi_get_undefined(env, &args[i]);
    napi_call_function(env, global, callback, 7, args, NULL);
  }
  free(ev->bytes);
  free(ev->vnet_id);
  free(ev);
}

static bool drop_vnet(entry_t *e, void *arg) {
  (void)arg;
  vnet_t *v = e->value;
  if (v->ipc_fd >= 0) close(v->ipc_fd);
  buf_free(&v->ipc_out);
  buf_free(&v->ipc_in);
  free(v->calls);
  free(v->free_ids);
  free(v->path);
  free(v->id);
  free(v);
  return true;
}

static bool drop_bucket(entry_t *e, void *arg) {
  (void)arg;
  bucket_t *b = e->value;
  free(b->times);
  free(b->counts);
  free(b);
  return true;
}

static bool drop_nothing_owned(entry_t *e, void *arg) {
  (void)e;
  (void)arg;
  return true;
}

static void hop_free(napi_env env, void *data, void *hint) {
  (void)hint;
  hop_t *h = data;
  if (h->thread_started && !h->disposed) {
    pthread_mutex_lock(&h->mu);
    h->closing = true;
    pthread_mutex_unlock(&h->mu);
    uint64_t one = 1;
    ssize_t r = write(h->evfd, &one, sizeof one);
    (void)r;
    pthread_join(h->thread, NULL);
  }
  for (conn_t *c = h->conns, *next; c; c = next) {
    next = c->next;
    close(c->fd);
    buf_free(&c->in);
    buf_free(&c->out);
    free(c);
  }
  for (conn_t *c = h->graveyard, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  for (adoption_t *a = h->adoptions, *next; a; a = next) {
    next = a->next;
    close(a->fd);
    free(a->bytes);
    free(a);
  }
  map_filter(&h->vnets, drop_vnet, NULL);
  free(h->vnets.slots);
  map_filter(&h->buckets, drop_bucket, NULL);
  free(h->buckets.slots);
  map_filter(&h->routes, drop_nothing_owned, NULL); /* their values are vnets, freed above */
  free(h->routes.slots);
  map_free(&h->verdicts);
  if (h->rate_ref) napi_delete_reference(env, h->rate_ref);
  close(h->epfd);
  close(h->evfd);
  pthread_mutex_destroy(&h->mu);
  free(h);
}

#define CHECK(call)                                                                                                                       \
  do {                                                                                                                                    \
    if ((call) != napi_ok) {                                                                                                              \
      napi_throw_error(env, NULL, "native hop: " #call " failed");                                                                        \
      return NULL;                                                                                                                        \
    }                                                                                                                                     \
  } while (0)

/* A call's `n` arguments, into `argv`, and its hop (the first); NULL, with an error thrown, when they are not given. */
static hop_t *hop_call(napi_env env, napi_callback_info info, size_t n, napi_value *argv) {
  size_t argc = n;
  void *data = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < n || napi_get_value_external(env, argv[0], &data) != napi_ok ||
      data == NULL) {
    napi_throw_type_error(env, NULL, "native hop: called without its hop or its arguments");
    return NULL;
  }
  return data;
}

static char *string_arg(napi_env env, napi_value value, size_t *length) {
  size_t n = 0;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &n) != napi_ok) return NULL;
  char *s = malloc(n + 1);
  if (!s) return NULL;
  napi_get_value_string_utf8(env, value, s, n + 1, &n);
  if (length) *length = n;
  return s;
}

static double number_property(napi_env env, napi_value object, const char *name) {
  napi_value value;
  double number = 0;
  if (napi_get_named_property(env, object, name, &value) == napi_ok) napi_get_value_double(env, value, &number);
  return number;
}

/* start({ keepAliveMs, bodyLimit, windowMs, rpcLimit, rate: Float64Array(3) }, onEvent) -> hop */
static napi_value start(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  hop_t *h = calloc(1, sizeof *h);
  if (!h) {
    napi_throw_error(env, NULL, "native hop: out of memory");
    return NULL;
  }
  h->wake_kind = KIND_WAKE;
  h->keepalive_ms = (int64_t)number_property(env, argv[0], "keepAliveMs");
  h->body_limit = (size_t)number_property(env, argv[0], "bodyLimit");
  h->window_ms = (int64_t)number_property(env, argv[0], "windowMs");
  h->rpc_limit = (int64_t)number_property(env, argv[0], "rpcLimit");
  h->date_second = -1;
  napi_value rate;
  void *rate_data = NULL;
  size_t rate_length = 0;
  napi_typedarray_type rate_type;
  if (napi_get_named_property(env, argv[0], "rate", &rate) != napi_ok ||
      napi_get_typedarray_info(env, rate, &rate_type, &rate_length, &rate_data, NULL, NULL) != napi_ok || rate_type != napi_float64_array ||
      rate_length < 3) {
    free(h);
    napi_throw_type_error(env, NULL, "native hop: rate must be a Float64Array of 3");
    return NULL;
  }
  h->rate_out = rate_data;
  napi_create_reference(env, rate, 1, &h->rate_ref);
  pthread_mutex_init(&h->mu, NULL);
  h->epfd = epoll_create1(EPOLL_CLOEXEC);
  h->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  napi_value name;
  napi_create_string_utf8(env, "chainform native hop", NAPI_AUTO_LENGTH, &name);
  napi_value external;
  bool ok = h->epfd >= 0 && h->evfd >= 0 &&
            napi_create_threadsafe_function(env, argv[1], NULL, name, 0, 1, NULL, NULL, NULL, call_js, &h->tsfn) == napi_ok;
  if (ok) napi_unref_threadsafe_function(env, h->tsfn);
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &h->wake_kind};
  ok = ok && epoll_ctl(h->epfd, EPOLL_CTL_ADD, h->evfd, &ev) == 0;
  ok = ok && napi_create_external(env, h, hop_free, NULL, &external) == napi_ok;
  if (!ok) {
    napi_throw_error(env, NULL, "native hop: could not start");
    return NULL;
  }
  if (pthread_create(&h->thread, NULL, hop_main, h) != 0) {
    napi_throw_error(env, NULL, "native hop: could not start its thread");
    return NULL;
  }
  h->thread_started = true;
  return external;
}

/* take(hop, path, count) -> allowed; the decision's limit, remaining and reset in the rate array */
static napi_value take(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  hop_t *h = hop_call(env, info, 3, argv);
  if (h == NULL) return NULL;
  char stack[1024];
  size_t n = 0;
  char *key = stack;
  if (napi_get_value_string_utf8(env, argv[1], NULL, 0, &n) != napi_ok) {
    napi_throw_type_error(env, NULL, "native hop: take's path must be a string");
    return NULL;
  }
  if (n < sizeof stack) napi_get_value_string_utf8(env, argv[1], stack, sizeof stack, &n);
  else if ((key = string_arg(env, argv[1], &n)) == NULL) {
    napi_throw_error(env, NULL, "native hop: out of memory");
    return NULL;
  }
  bool count = true;
  napi_get_value_bool(env, argv[2], &count);
  pthread_mutex_lock(&h->mu);
  decision_t d = rate_take(h, key, n, count);
  pthread_mutex_unlock(&h->mu);
  if (key != stack) free(key);
  h->rate_out[0] = (double)d.limit;
  h->rate_out[1] = (double)d.remaining;
  h->rate_out[2] = (double)d.reset;
  napi_value result;
  napi_get_boolean(env, d.allowed, &result);
  return result;
}

/* Under the mutex: the vnet of an id, made when new. */
static vnet_t *vnet_of(hop_t *h, const char *id, size_t n) {
  entry_t *e = map_find(&h->vnets, id, n);
  if (e) return e->value;
  vnet_t *v = calloc(1, sizeof *v);
  if (!v) return NULL;
  v->kind = KIND_IPC;
  v->ipc_fd = -1;
  v->next_id = 1;
  v->id = strndup(id, n);
  if (!v->id || !map_add(&h->vnets, id, n, v)) {
    free(v->id);
    free(v);
    return NULL;
  }
  return v;
}

/* adopt(hop, fd, bytes, access, key, vnetId, ipcPath, method) -> the vnet's generation (0 when not taken) */
static napi_value adopt(napi_env env, napi_callback_info info) {
  napi_value argv[8];
  hop_t *h = hop_call(env, info, 8, argv);
  if (h == NULL) return NULL;
  int32_t fd = -1;
  napi_get_value_int32(env, argv[1], &fd);
  void *bytes = NULL;
  size_t len = 0;
  napi_get_buffer_info(env, argv[2], &bytes, &len);
  size_t access_n, key_n, vnet_n, path_n, method_n;
  char *access = string_arg(env, argv[3], &access_n), *key = string_arg(env, argv[4], &key_n);
  char *vnet_id = string_arg(env, argv[5], &vnet_n), *path = string_arg(env, argv[6], &path_n);
  char *method = string_arg(env, argv[7], &method_n);
  uint32_t gen = 0;
  int copy = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
  adoption_t *a = calloc(1, sizeof *a);
  char *route = malloc(key_n + 2), *verdict = malloc(method_n + 2);
  if (copy >= 0 && a && route && verdict && access && key && vnet_id && path && method && key_n <= MAX_KEY_CHARS) {
    a->fd = copy;
    a->len = len;
    a->bytes = len ? malloc(len) : NULL;
    if (len && a->bytes) memcpy(a->bytes, bytes, len);
    route[0] = verdict[0] = access[0] == 'a' ? 'a' : 'p';
    memcpy(route + 1, key, key_n);
    memcpy(verdict + 1, method, method_n);
    pthread_mutex_lock(&h->mu);
    vnet_t *v = vnet_of(h, vnet_id, vnet_n);
    entry_t *r = v ? map_find(&h->routes, route, key_n + 1) : NULL;
    if (r) r->value = v;
    else if (v) r = map_add(&h->routes, route, key_n + 1, v);
    if (r && !map_find(&h->verdicts, verdict, method_n + 1) && h->verdicts.size < MAX_VERDICTS) {
      char *mark = malloc(1);
      if (mark && !map_add(&h->verdicts, verdict, method_n + 1, mark)) free(mark);
    }
    if (r && !h->closing && (len == 0 || a->bytes)) {
      if (!v->path || strcmp(v->path, path) != 0) {
        free(v->path);
        v->path = strdup(path);
        v->path_changed = true;
      }
      if (v->state != VNET_OPEN) v->gen++;
      v->state = VNET_OPEN;
      v->conns++;
      gen = v->gen;
      a->vnet = v;
      a->next = h->adoptions;
      h->adoptions = a;
      a = NULL;
    }
    pthread_mutex_unlock(&h->mu);
    if (gen) {
      uint64_t one = 1;
      ssize_t w = write(h->evfd, &one, sizeof one);
      (void)w;
    }
  }
  if (a) {
    if (copy >= 0) close(copy);
    free(a->bytes);
    free(a);
  }
  free(route);
  free(verdict);
  free(access);
  free(key);
  free(vnet_id);
  free(path);
  free(method);
  napi_value result;
  napi_create_uint32(env, gen, &result);
  return result;
}

/* pause(hop, vnetId) -> the generation closed now (nothing in flight), or 0 when a `drained` event will say it */
static napi_value pause_vnet(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  hop_t *h = hop_call(env, info, 2, argv);
  if (h == NULL) return NULL;
  size_t n;
  char *id = string_arg(env, argv[1], &n);
  uint32_t closed = 0;
  pthread_mutex_lock(&h->mu);
  entry_t *e = id ? map_find(&h->vnets, id, n) : NULL;
  vnet_t *v = e ? e->value : NULL;
  if (v && v->state == VNET_OPEN) {
    if (v->inflight == 0) {
      v->state = VNET_CLOSED;
      closed = v->gen;
    } else
      v->state = VNET_PAUSED;
  } else if (v && v->state == VNET_CLOSED)
    closed = v->gen;
  pthread_mutex_unlock(&h->mu);
  free(id);
  napi_value result;
  napi_create_uint32(env, closed, &result);
  return result;
}

/* close(hop): answers the calls under way, hands back partial ones, ends the rest; a `closed` event follows. */
static napi_value close_hop(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  hop_t *h = hop_call(env, info, 1, argv);
  if (h == NULL) return NULL;
  pthread_mutex_lock(&h->mu);
  h->closing = true;
  pthread_mutex_unlock(&h->mu);
  uint64_t one = 1;
  ssize_t w = write(h->evfd, &one, sizeof one);
  (void)w;
  return NULL;
}

/* dispose(hop), after the `closed` event: the thread has ended; lets go of the event channel. */
static napi_value dispose(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  hop_t *h = hop_call(env, info, 1, argv);
  if (h == NULL) return NULL;
  if (h->thread_started && !h->disposed) {
    h->disposed = true;
    pthread_join(h->thread, NULL);
    napi_release_threadsafe_function(h->tsfn, napi_tsfn_release);
  }
  return NULL;
}

/* stats(hop) -> [adopted, answered, handedBack] */
static napi_value stats(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  hop_t *h = hop_call(env, info, 1, argv);
  if (h == NULL) return NULL;
  uint64_t counts[3] = {__atomic_load_n(&h->adopted, __ATOMIC_RELAXED), __atomic_load_n(&h->answered, __ATOMIC_RELAXED),
                        __atomic_load_n(&h->handed_back, __ATOMIC_RELAXED)};
  napi_value result;
  napi_create_array_with_length(env, 3, &result);
  for (uint32_t i = 0; i < 3; i++) {
    napi_value count;
    napi_create_double(env, (double)counts[i], &count);
    napi_set_element(env, result, i, count);
  }
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"start", NULL, start, NULL, NULL, NULL, napi_default, NULL},
      {"take", NULL, take, NULL, NULL, NULL, napi_default, NULL},
      {"adopt", NULL, adopt, NULL, NULL, NULL, napi_default, NULL},
      {"pause", NULL, pause_vnet, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, close_hop, NULL, NULL, NULL, napi_default, NULL},
      {"dispose", NULL, dispose, NULL, NULL, NULL, napi_default, NULL},
      {"stats", NULL, stats, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof properties / sizeof *properties, properties);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)

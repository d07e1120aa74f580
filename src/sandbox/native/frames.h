/*
 * Frames on the pipes between Crucible's Node process, crucible-slot and box-server: u8 type, u32 little-endian
 * payload length, payload. Whole-buffer reads and writes that retry on EINTR. Header-only (static inline):
 * each program is one statically linked binary. The frame types are documented in crucible-slot.c and
 * box-server.c; the Node side is src/sandbox/slot-box.ts.
 */
#ifndef CRUCIBLE_FRAMES_H
#define CRUCIBLE_FRAMES_H
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/* Read exactly `len` bytes; -1 on end of file or error. */
static inline int read_full(int fd, void *buf, size_t len) {
  char *p = buf;
  while (len > 0) {
    ssize_t got = read(fd, p, len);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return -1;
    p += got;
    len -= (size_t)got;
  }
  return 0;
}

/* Write all `len` bytes; -1 on error. */
static inline int write_full(int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len > 0) {
    ssize_t wrote = write(fd, p, len);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return -1;
    p += wrote;
    len -= (size_t)wrote;
  }
  return 0;
}

static inline uint32_t u32_at(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void put_u32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}

/* One frame read whole; `payload` is malloc'd and NUL-terminated (the caller frees it). */
struct frame {
  unsigned char type;
  uint32_t len;
  unsigned char *payload;
};

/* Read one frame; -1 on end of file, error or allocation failure. */
static inline int read_frame(int fd, struct frame *f) {
  unsigned char header[5];
  if (read_full(fd, header, sizeof header) != 0) return -1;
  f->type = header[0];
  f->len = u32_at(header + 1);
  f->payload = malloc(f->len + 1u);
  if (!f->payload) return -1;
  if (read_full(fd, f->payload, f->len) != 0) { free(f->payload); return -1; }
  f->payload[f->len] = 0;
  return 0;
}

/* Write one frame whose payload is `a` followed by `b` (either may be empty); -1 on error. */
static inline int write_frame(int fd, unsigned char type, const void *a, uint32_t alen, const void *b, uint32_t blen) {
  unsigned char header[5];
  header[0] = type;
  put_u32(header + 1, alen + blen);
  if (write_full(fd, header, sizeof header) != 0) return -1;
  if (alen > 0 && write_full(fd, a, alen) != 0) return -1;
  if (blen > 0 && write_full(fd, b, blen) != 0) return -1;
  return 0;
}
#endif

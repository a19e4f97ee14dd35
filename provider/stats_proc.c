/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#define _POSIX_C_SOURCE 200809L

#include "stats_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "stats_file.h"

/* Reads up to cap - 1 bytes of a small file and NUL-terminates them;
 * returns the length, or -1. */
static long read_small(const char *path, char *buf, size_t cap) {
    int fd;
    do
        fd = open(path, O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return -1;
    size_t len = 0;
    while (len + 1 < cap) {
        ssize_t n = read(fd, buf + len, cap - 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    buf[len] = '\0';
    return (long)len;
}

/* Appends the decimal digits of v at buf[*len]; returns 0 if it does not
 * fit with a NUL after it. */
static int put_u64(char *buf, size_t cap, size_t *len, uint64_t v) {
    char tmp[20];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    if (*len + n + 1 > cap)
        return 0;
    while (n > 0)
        buf[(*len)++] = tmp[--n];
    buf[*len] = '\0';
    return 1;
}

static int put_str(char *buf, size_t cap, size_t *len, const char *s) {
    size_t n = strlen(s);
    if (*len + n + 1 > cap)
        return 0;
    memcpy(buf + *len, s, n + 1);
    *len += n;
    return 1;
}

int quill_stats_read_start_ticks(long pid, uint64_t *ticks) {
    char path[40];
    size_t plen = 0;
    if (!put_str(path, sizeof(path), &plen, "/proc/"))
        return 0;
    if (pid == 0) {
        if (!put_str(path, sizeof(path), &plen, "self"))
            return 0;
    } else if (pid < 0 || !put_u64(path, sizeof(path), &plen, (uint64_t)pid)) {
        return 0;
    }
    if (!put_str(path, sizeof(path), &plen, "/stat"))
        return 0;
    char buf[1024];
    long len = read_small(path, buf, sizeof(buf));
    if (len <= 0)
        return 0;
    /* "pid (comm) state ppid ...": comm may hold spaces and parentheses,
     * so fields are counted from the last ')'.  Field 3 (state) follows
     * it; starttime is field 22. */
    const char *p = strrchr(buf, ')');
    if (p == NULL)
        return 0;
    p++;
    for (int field = 3; field < 22; field++) {
        while (*p == ' ')
            p++;
        while (*p != ' ' && *p != '\0')
            p++;
        if (*p == '\0')
            return 0;
    }
    while (*p == ' ')
        p++;
    if (*p < '0' || *p > '9')
        return 0;
    uint64_t v = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - 9) / 10)
            return 0;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *ticks = v;
    return 1;
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int quill_stats_read_boot_id(uint8_t id[16]) {
    char buf[64];
    memset(id, 0, 16);
    if (read_small("/proc/sys/kernel/random/boot_id", buf, sizeof(buf)) < 32)
        return 0;
    uint8_t out[16];
    size_t nibbles = 0;
    for (const char *p = buf; *p != '\0' && *p != '\n' && nibbles < 32; p++) {
        if (*p == '-')
            continue;
        int h = hex_value(*p);
        if (h < 0)
            return 0;
        if (nibbles % 2 == 0)
            out[nibbles / 2] = (uint8_t)(h << 4);
        else
            out[nibbles / 2] |= (uint8_t)h;
        nibbles++;
    }
    if (nibbles != 32)
        return 0;
    memcpy(id, out, 16);
    return 1;
}

size_t quill_stats_file_name(char *buf, size_t cap, const char *prefix, long pid,
                             uint64_t start_ticks, const uint8_t boot_id[16]) {
    static const char hex[] = "0123456789abcdef";
    size_t len = 0;
    if (cap == 0)
        return 0;
    buf[0] = '\0';
    if (pid < 0 || !put_str(buf, cap, &len, prefix) ||
        !put_str(buf, cap, &len, QUILL_STATS_FILE_PREFIX) ||
        !put_u64(buf, cap, &len, (uint64_t)pid) || !put_str(buf, cap, &len, "-") ||
        !put_u64(buf, cap, &len, start_ticks) || !put_str(buf, cap, &len, "-"))
        return 0;
    if (len + 8 + 1 > cap)
        return 0;
    for (size_t i = 0; i < 4; i++) {
        buf[len++] = hex[boot_id[i] >> 4];
        buf[len++] = hex[boot_id[i] & 15];
    }
    buf[len] = '\0';
    if (!put_str(buf, cap, &len, QUILL_STATS_FILE_SUFFIX))
        return 0;
    return len;
}

/* umad_send_log: an LD_PRELOAD shim that records every MAD a process hands to libibumad's
 * umad_send (wall-clock time, management class, method, attribute ID), so two subnet managers
 * can be counted by one yardstick that neither's own accounting controls.
 *
 *   LD_PRELOAD="umad_send_log.so libumad2sim.so" UMAD_SEND_LOG=FILE program ...
 *
 * Records stay in memory (a send must not wait on a file) and are written to FILE at exit, one
 * line each: "<seconds since the epoch> <class hex> <method hex> <attribute hex> <rc>". A process
 * that ends without exit() (SIGKILL) writes nothing. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <infiniband/umad.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

struct rec {
    int64_t ns;
    uint8_t mclass, method;
    uint16_t attr;
    int32_t rc;
};

enum { kMaxRecs = 1 << 23 };
static struct rec *recs;
static atomic_size_t count;
static int (*next_send)(int, int, void *, int, int, int);

static void __attribute__((constructor)) start(void) {
    next_send = (int (*)(int, int, void *, int, int, int))dlsym(RTLD_NEXT, "umad_send");
    void *m = mmap(NULL, sizeof(struct rec) * (size_t)kMaxRecs, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    recs = m == MAP_FAILED ? NULL : (struct rec *)m;
}

int umad_send(int fd, int agentid, void *umad, int length, int timeout_ms, int retries) {
    const int rc = next_send(fd, agentid, umad, length, timeout_ms, retries);
    const size_t i = atomic_fetch_add(&count, 1);
    if (recs && i < kMaxRecs) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        const uint8_t *mad = (const uint8_t *)umad_get_mad(umad);
        recs[i] = (struct rec){(int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec, mad[1], mad[3],
                               (uint16_t)(mad[16] << 8 | mad[17]), rc};
    }
    return rc;
}

static void __attribute__((destructor)) finish(void) {
    const char *path = getenv("UMAD_SEND_LOG");
    if (!path || !recs) return;
    FILE *f = fopen(path, "w");
    if (!f) return;
    size_t n = atomic_load(&count);
    if (n > kMaxRecs) {
        fprintf(f, "# %zu sends, only the first %d recorded\n", n, kMaxRecs);
        n = kMaxRecs;
    }
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%lld.%09lld %02x %02x %04x %d\n", (long long)(recs[i].ns / 1000000000),
                (long long)(recs[i].ns % 1000000000), recs[i].mclass, recs[i].method, recs[i].attr,
                recs[i].rc);
    fclose(f);
}

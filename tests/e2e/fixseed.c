/*
 * fixseed.c - LD_PRELOAD shim that makes the shuffles of xshisen and
 * kshisen reproducible.
 *
 * The seed comes from the environment variable LINKUP_SEED (decimal,
 * default 1).  If LINKUP_SEED is unset or empty the shim passes
 * everything through to libc, so preloading it is harmless.
 *
 *   xshisen seeds drand48() with srand48(time-ish); we replace the
 *           argument of srand48() (and srand()/srandom() for safety) by
 *           the fixed seed.
 *   kshisen uses QRandomGenerator::global(), which Qt seeds from
 *           getentropy() (when RDRAND is disabled with
 *           QT_NO_CPU_FEATURE=rdrnd).  We serve getentropy()/getrandom()
 *           from a deterministic xorshift stream derived from the seed.
 *
 * LINKUP_TIME (decimal epoch seconds), when set, freezes the on-screen
 * clocks:
 *   xshisen: time() called from code inside the program binary returns
 *           LINKUP_TIME, so the date shown on its start screen
 *           (time()+ctime()) is fixed.  Its in-game "Time: hh:mm:ss" counter
 *           uses gettimeofday(), which must NOT be frozen wholesale (xshisen
 *           also times the connection-line display with it and would hang
 *           with the matched pair highlighted).  So only the call sites
 *           listed in LINKUP_FREEZE_GTOD are frozen; desktop.sh sets the two
 *           behind the "Time:" display for the known xshisen build, and the
 *           counter then stays at 00:00:00.
 *   kshisen: KGameClock is kept stopped at 00:00:00 (see below).
 *
 * Build:  gcc -shared -fPIC -O2 -o fixseed.so fixseed.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <sys/time.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

static int seed_state = -1; /* -1 unknown, 0 disabled, 1 enabled */
static uint64_t seed_value;
static uint64_t stream;

static int have_seed(void)
{
    if (seed_state < 0) {
        const char *s = getenv("LINKUP_SEED");
        if (s && *s) {
            seed_value = strtoull(s, NULL, 10);
            stream = seed_value * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
            if (stream == 0)
                stream = 1;
            seed_state = 1;
        } else {
            seed_state = 0;
        }
    }
    return seed_state;
}

static uint64_t next64(void)
{
    /* xorshift64* */
    stream ^= stream >> 12;
    stream ^= stream << 25;
    stream ^= stream >> 27;
    return stream * 0x2545F4914F6CDD1DULL;
}

static void fill(void *buf, size_t len)
{
    unsigned char *p = buf;
    while (len > 0) {
        uint64_t v = next64();
        size_t n = len < sizeof v ? len : sizeof v;
        memcpy(p, &v, n);
        p += n;
        len -= n;
    }
}

#define REAL(ret, name, args)                                   \
    static ret(*real_##name) args;                              \
    if (!real_##name)                                           \
        real_##name = (ret(*) args)dlsym(RTLD_NEXT, #name)

void srand48(long seedval)
{
    REAL(void, srand48, (long));
    real_srand48(have_seed() ? (long)seed_value : seedval);
}

void srand(unsigned int seedval)
{
    REAL(void, srand, (unsigned int));
    real_srand(have_seed() ? (unsigned int)seed_value : seedval);
}

void srandom(unsigned int seedval)
{
    REAL(void, srandom, (unsigned int));
    real_srandom(have_seed() ? (unsigned int)seed_value : seedval);
}

int getentropy(void *buf, size_t len)
{
    if (have_seed()) {
        if (len > 256) {
            errno = EIO;
            return -1;
        }
        fill(buf, len);
        return 0;
    }
    REAL(int, getentropy, (void *, size_t));
    return real_getentropy(buf, len);
}

ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
    if (have_seed()) {
        fill(buf, len);
        return (ssize_t)len;
    }
    REAL(ssize_t, getrandom, (void *, size_t, unsigned int));
    return real_getrandom(buf, len, flags);
}


/* ---- clock freezing for the main executable ---------------------------- */

static uintptr_t exe_lo, exe_hi; /* address range of the main program */
static uintptr_t exe_base;       /* its load bias (dlpi_addr) */
static int exe_done;

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    exe_base = info->dlpi_addr;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        uintptr_t hi = lo + ph->p_memsz;
        if (exe_lo == 0 || lo < exe_lo)
            exe_lo = lo;
        if (hi > exe_hi)
            exe_hi = hi;
    }
    return 1; /* the first object reported is the main program */
}

static int frozen_time(const void *caller, time_t *out)
{
    const char *s = getenv("LINKUP_TIME");
    if (!s || !*s)
        return 0;
    if (!exe_done) {
        dl_iterate_phdr(first_object, NULL);
        exe_done = 1;
    }
    uintptr_t a = (uintptr_t)caller;
    if (a < exe_lo || a >= exe_hi)
        return 0;
    *out = (time_t)strtoll(s, NULL, 10);
    return 1;
}

/* LINKUP_FREEZE_GTOD: comma-separated return addresses (hex offsets from
 * the program's load base) of gettimeofday() call sites in the main
 * program that should see the frozen LINKUP_TIME.  For xshisen 1.51
 * (Debian amd64) desktop.sh uses the two sites behind the in-game
 * "Time:" display; freezing every site would hang the game. */
static int frozen_site(const void *caller)
{
    const char *s = getenv("LINKUP_FREEZE_GTOD");
    if (!s || !*s)
        return 0;
    uintptr_t off = (uintptr_t)caller - exe_base;
    while (*s) {
        char *end;
        unsigned long long v = strtoull(s, &end, 16);
        if (end == s)
            break;
        if (v == off)
            return 1;
        s = *end ? end + 1 : end;
    }
    return 0;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    time_t v;
    if (frozen_time(__builtin_return_address(0), &v) &&
        frozen_site(__builtin_return_address(0))) {
        struct timeval *volatile p = tv;
        if (p) {
            p->tv_sec = v;
            p->tv_usec = 0;
        }
        return 0;
    }
    REAL(int, gettimeofday, (struct timeval *restrict, void *restrict));
    return real_gettimeofday(tv, tz);
}

time_t time(time_t *t)
{
    time_t v;
    if (frozen_time(__builtin_return_address(0), &v)) {
        if (t)
            *t = v;
        return v;
    }
    REAL(time_t, time, (time_t *));
    return real_time(t);
}

/* ---- kshisen's game clock ------------------------------------------------
 * kshisen shows "Your time: hh:mm:ss", driven by KGameClock (libKF5KDEGames)
 * which counts 1-second QTimer ticks.  With LINKUP_TIME set we keep that
 * clock stopped: restart() still resets it to 00:00:00, then it is paused,
 * and resume() does nothing.  The symbols are the C++ mangled names of
 * KGameClock::restart() and KGameClock::resume(); they are looked up lazily
 * so this shim still loads into programs that do not use KGameClock.
 */
static int clock_frozen(void)
{
    const char *s = getenv("LINKUP_TIME");
    return s && *s;
}

void _ZN10KGameClock7restartEv(void *self)
{
    REAL(void, _ZN10KGameClock7restartEv, (void *));
    static void (*real_pause)(void *);
    if (!real_pause)
        real_pause = (void (*)(void *))dlsym(RTLD_NEXT, "_ZN10KGameClock5pauseEv");
    real__ZN10KGameClock7restartEv(self);
    if (clock_frozen() && real_pause)
        real_pause(self);
}

void _ZN10KGameClock6resumeEv(void *self)
{
    if (clock_frozen())
        return;
    REAL(void, _ZN10KGameClock6resumeEv, (void *));
    real__ZN10KGameClock6resumeEv(self);
}

/*
 * hsa-gpu: the host threads a device's workgroups run on (the
 * compute-threads property). The caller is one of them: a job of n parts
 * runs part 0 itself and hands parts 1..n-1 to the pool's threads, then
 * waits for them, so a job ends before the caller goes on (a slice of a
 * dispatch ends whole: reset, unplug and migration, which wait for the
 * queue processor's pass, never see a workgroup on another thread).
 * Independent of QEMU: plain POSIX threads, with hooks the device uses
 * to register them with RCU.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#ifndef _GNU_SOURCE
#define _GNU_SOURCE                 /* sched_getcpu, CPU sets */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define g_free free
#define g_new0(t, n) ((t *)calloc((n), sizeof(t)))
#else
#include "qemu/osdep.h"
#endif
#include <pthread.h>
#include <time.h>
#ifdef __linux__
#include <sched.h>
#endif
#include "hsagpu-gcn.h"

/*
 * How long a thread polls for what it waits on (the next job; the end of
 * the others' parts) before it sleeps, as busy-polling I/O back ends
 * do: a slice lasts about a third of a millisecond, and waking a thread
 * took about as long on the project's paravirtualised host, so a pool
 * that slept between slices ran half the time. Costs at most this much
 * CPU time per thread at the end of a slice.
 */
#define GCN_POOL_SPIN_NS    200000

static uint64_t gcn_pool_now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/*
 * Poll *@v while it equals @v0 (@same) or differs from it (!@same), and
 * not *@quit: GCN_POOL_SPIN_NS at most
 */
static void gcn_pool_spin(const uint64_t *v, uint64_t v0, bool same,
                          const bool *quit)
{
    uint64_t end = gcn_pool_now() + GCN_POOL_SPIN_NS;

    for (unsigned k = 1;
         (__atomic_load_n(v, __ATOMIC_ACQUIRE) == v0) == same &&
         !__atomic_load_n(quit, __ATOMIC_RELAXED); k++) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if (!(k % 64) && gcn_pool_now() > end) {
            return;
        }
    }
}

typedef struct GcnPoolThread {
    HsaGpuGcnPool *pool;
    unsigned index;                 /* part index it runs: 1.. */
    pthread_t tid;
    int *cpu;                       /* its copy of the pool's */
} GcnPoolThread;

struct HsaGpuGcnPool {
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    unsigned nthreads;              /* besides the caller */
    GcnPoolThread *t;
    uint64_t gen;                   /* a new job */
    unsigned parts;                 /* of the current job */
    uint64_t running;               /* parts not yet done */
    int *cpu;                       /* where each part of the job runs */
    bool quit;
    void (*fn)(void *opaque, unsigned part);
    void *opaque;
    void (*thread_init)(void);
    void (*thread_exit)(void);
};

bool hsagpu_gcn_pool_spread_to(const int *cpu, unsigned parts, unsigned index,
                               const uint64_t *allowed, uint64_t *to)
{
    bool shared = false, any = false;

    for (unsigned i = 0; i < index && cpu[index] >= 0; i++) {
        shared |= cpu[i] == cpu[index];
    }
    if (!shared) {
        return false;
    }
    memcpy(to, allowed, HSAGPU_GCN_CPUS / 8);
    for (unsigned i = 0; i < parts; i++) {
        if (cpu[i] >= 0 && cpu[i] < HSAGPU_GCN_CPUS) {
            to[cpu[i] / 64] &= ~(1ULL << (cpu[i] % 64));
        }
    }
    for (unsigned w = 0; w < HSAGPU_GCN_CPUS / 64; w++) {
        any |= to[w] != 0;
    }
    return any;
}

/* The CPU the calling thread runs on; -1, not known */
static int gcn_this_cpu(void)
{
#ifdef __linux__
    return sched_getcpu();
#else
    return -1;
#endif
}

/*
 * The calling thread is @cpu[@index] of @n threads whose CPUs are in
 * @cpu (its own filled in here): moved (true) as
 * hsagpu_gcn_pool_spread_to() decides, a one-off, its CPU set left as
 * it was
 */
static bool gcn_cpu_move_off(int *cpu, unsigned n, unsigned index)
{
#ifdef __linux__
    uint64_t allowed[HSAGPU_GCN_CPUS / 64] = { 0 }, to[HSAGPU_GCN_CPUS / 64];
    cpu_set_t all, set;

    cpu[index] = sched_getcpu();
    if (sched_getaffinity(0, sizeof(all), &all)) {
        return false;
    }
    for (unsigned c = 0; c < HSAGPU_GCN_CPUS && c < CPU_SETSIZE; c++) {
        allowed[c / 64] |= (uint64_t)!!CPU_ISSET(c, &all) << (c % 64);
    }
    if (!hsagpu_gcn_pool_spread_to(cpu, n, index, allowed, to)) {
        return false;
    }
    CPU_ZERO(&set);
    for (unsigned c = 0; c < HSAGPU_GCN_CPUS && c < CPU_SETSIZE; c++) {
        if (to[c / 64] >> (c % 64) & 1) {
            CPU_SET(c, &set);
        }
    }
    /* there now (the kernel moves a running thread at once), then free */
    if (sched_setaffinity(0, sizeof(set), &set)) {
        return false;
    }
    sched_setaffinity(0, sizeof(all), &all);
    cpu[index] = sched_getcpu();
    return true;
#else
    return false;
#endif
}

/*
 * A part's thread on the same CPU as another part's, while the threads
 * may run on CPUs none of them is on: moved to those (a one-off, not a
 * pin: the thread's CPU set is as it was after). A thread woken by
 * another is put on the waker's CPU by Linux when no cache is shared
 * between the two CPUs (a paravirtualised host that describes none:
 * the project's), and load balancing took tens of milliseconds to part
 * them: two threads ran as one, the other CPU idle.
 */
static void gcn_pool_spread(HsaGpuGcnPool *p, unsigned index, int *cpu)
{
    unsigned parts = p->parts;

    __atomic_store_n(&p->cpu[index], gcn_this_cpu(), __ATOMIC_RELAXED);
    for (unsigned i = 0; i < parts; i++) {
        cpu[i] = __atomic_load_n(&p->cpu[i], __ATOMIC_RELAXED);
    }
    if (gcn_cpu_move_off(cpu, parts, index)) {
        __atomic_store_n(&p->cpu[index], cpu[index], __ATOMIC_RELAXED);
    }
}

static void *gcn_pool_thread(void *arg)
{
    GcnPoolThread *t = arg;
    HsaGpuGcnPool *p = t->pool;
    uint64_t seen = 0;

    if (p->thread_init) {
        p->thread_init();
    }
    pthread_mutex_lock(&p->lock);
    for (;;) {
        if (!p->quit && p->gen == seen) {
            pthread_mutex_unlock(&p->lock);
            gcn_pool_spin(&p->gen, seen, true, &p->quit);
            pthread_mutex_lock(&p->lock);
        }
        while (!p->quit && p->gen == seen) {
            pthread_cond_wait(&p->go, &p->lock);
        }
        if (p->quit) {
            break;
        }
        seen = p->gen;
        if (t->index >= p->parts) {
            continue;               /* not needed for this job */
        }
        pthread_mutex_unlock(&p->lock);
        gcn_pool_spread(p, t->index, t->cpu);
        p->fn(p->opaque, t->index);
        pthread_mutex_lock(&p->lock);
        if (!__atomic_sub_fetch(&p->running, 1, __ATOMIC_RELEASE)) {
            pthread_cond_signal(&p->done);
        }
    }
    pthread_mutex_unlock(&p->lock);
    if (p->thread_exit) {
        p->thread_exit();
    }
    return NULL;
}

HsaGpuGcnPool *hsagpu_gcn_pool_new(unsigned threads, const char *name,
                                   void (*thread_init)(void),
                                   void (*thread_exit)(void))
{
    HsaGpuGcnPool *p;

    if (threads < 2) {
        return NULL;                /* the caller alone: no pool */
    }
    p = g_new0(HsaGpuGcnPool, 1);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    p->thread_init = thread_init;
    p->thread_exit = thread_exit;
    p->t = g_new0(GcnPoolThread, threads - 1);
    p->cpu = g_new0(int, threads);
    for (unsigned i = 0; i < threads - 1; i++) {
        GcnPoolThread *t = &p->t[i];

        t->pool = p;
        t->index = i + 1;
        t->cpu = g_new0(int, threads);
        if (pthread_create(&t->tid, NULL, gcn_pool_thread, t)) {
            g_free(t->cpu);
            break;                  /* fewer threads: still correct */
        }
        p->nthreads++;
#ifdef CONFIG_PTHREAD_SETNAME_NP_W_TID   /* QEMU's: glibc's form */
        if (name) {
            char n[16];

            snprintf(n, sizeof(n), "%s%u", name, i + 1);
            pthread_setname_np(t->tid, n);
        }
#endif
    }
    return p;
}

void hsagpu_gcn_pool_free(HsaGpuGcnPool *p)
{
    if (!p) {
        return;
    }
    pthread_mutex_lock(&p->lock);
    __atomic_store_n(&p->quit, true, __ATOMIC_RELAXED);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->nthreads; i++) {
        pthread_join(p->t[i].tid, NULL);
    }
    for (unsigned i = 0; i < p->nthreads; i++) {
        g_free(p->t[i].cpu);
    }
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    g_free(p->t);
    g_free(p->cpu);
    g_free(p);
}

unsigned hsagpu_gcn_pool_size(const HsaGpuGcnPool *p)
{
    return p ? p->nthreads + 1 : 1;
}

void hsagpu_gcn_pool_run(HsaGpuGcnPool *p, unsigned parts,
                         void (*fn)(void *opaque, unsigned part),
                         void *opaque)
{
    parts = parts < hsagpu_gcn_pool_size(p) ? parts : hsagpu_gcn_pool_size(p);
    if (parts <= 1) {
        if (parts) {
            fn(opaque, 0);
        }
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->opaque = opaque;
    p->parts = parts;
    for (unsigned i = 0; i < parts; i++) {
        p->cpu[i] = -1;             /* not yet known */
    }
    p->cpu[0] = gcn_this_cpu();
    __atomic_store_n(&p->running, parts - 1, __ATOMIC_RELAXED);
    /* (read without the lock by a thread polling for it) */
    __atomic_add_fetch(&p->gen, 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);
    fn(opaque, 0);
    gcn_pool_spin(&p->running, 0, false, &p->quit);
    pthread_mutex_lock(&p->lock);
    while (p->running) {
        pthread_cond_wait(&p->done, &p->lock);
    }
    pthread_mutex_unlock(&p->lock);
}

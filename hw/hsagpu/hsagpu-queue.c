/*
 * hsa-gpu: queue registers and commands, the queue processor thread, the
 * queues' life cycle and migration.
 *
 * Doorbells are ioeventfds (hsagpu-doorbell.c): a guest's 8-byte doorbell
 * write only sets an eventfd, and the processor thread, which runs
 * without the BQL, wakes up and serves the queues (hsagpu-queue.c
 * does the AQL work, reaching the device through hsagpu-ops.c). Queues
 * are served by strict priority, round-robin within a priority level
 * (hsagpu_sched_pass()); a queue that is blocked does not hold up the
 * others.
 *
 * Locking: queue registers and processor state are under qlock. The
 * processor holds qlock while it serves queues, for a bounded pass
 * (HsaGpuBudget), and leaves what needs the BQL (MSI-X, error status,
 * AER, the last reference to a peer) in s->pending for a bottom half:
 * the thread never waits for the BQL, so MMIO handlers (BQL, then qlock)
 * and unrealize (joins it with the BQL held) cannot deadlock with it.
 * When all that waits is completion interrupts to the local APICs and
 * the BQL happens to be free, the thread sends them itself, qlock not
 * held (bql_trylock(), patches/0004): no main-loop wake-up. Queue
 * commands run under qlock, so once DESTROY returns the processor no
 * longer touches the queue's memory.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/bitmap.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/rcu.h"
#include "qemu/timer.h"
#include "hw/pci/msi.h"
#include "hw/pci/msix.h"
#include "migration/vmstate.h"
#include "hsagpu.h"
#include "hw/hsagpu/gcn/hsagpu-gcn.h"
#include "trace.h"

#define HSAGPU_QUANTUM          64          /* packets per queue per pass */
#define HSAGPU_POLL_MIN_NS      (20 * SCALE_US)
#define HSAGPU_POLL_MAX_NS      (2 * SCALE_MS)
#define HSAGPU_SPIN_NS          (50 * SCALE_US) /* doorbell watch after work */
#define HSAGPU_YIELD_SPINS      64  /* sched_yield()s for waiters, per pass */
#define HSAGPU_WATCH_POLL_EVERY 32  /* doorbell watch: eventfd every N peeks */
#define HSAGPU_DB_POLL_NS       (20 * SCALE_US) /* doorbells, between passes */
#define HSAGPU_FETCH_UNSENT     0xff /* fetch_wptr: not in the stream */

/* ------------------------------------------------------------------ */
/* Active list                                                         */
/* ------------------------------------------------------------------ */

/* Keep active[] ordered by priority, highest first, then queue number. */
static void hsagpu_active_add(HsaGpuState *s, unsigned qi)
{
    uint32_t prio = s->queues[qi].priority;
    unsigned pos = 0;

    while (pos < s->nactive &&
           (s->queues[s->active[pos]].priority > prio ||
            (s->queues[s->active[pos]].priority == prio &&
             s->active[pos] < qi))) {
        pos++;
    }
    memmove(&s->active[pos + 1], &s->active[pos],
            (s->nactive - pos) * sizeof(s->active[0]));
    s->active[pos] = qi;
    s->nactive++;
}

static void hsagpu_active_del(HsaGpuState *s, unsigned qi)
{
    for (unsigned i = 0; i < s->nactive; i++) {
        if (s->active[i] == qi) {
            memmove(&s->active[i], &s->active[i + 1],
                    (s->nactive - i - 1) * sizeof(s->active[0]));
            s->nactive--;
            return;
        }
    }
}

/* ------------------------------------------------------------------ */
/* The processor thread                                                */
/* ------------------------------------------------------------------ */

static void hsagpu_pass_failed(void *opaque, unsigned qi)
{
    HsaGpuState *s = opaque;

    hsagpu_queue_failed(s, qi, &s->queues[qi]);
}

/* Someone outside the processor waits for qlock: end the pass. */
static bool hsagpu_pass_yield(void *opaque)
{
    HsaGpuState *s = opaque;

    return qatomic_read(&s->qlock_waiters) != 0;
}

/* The processor's view of the device for a pass (@b) or a drain (NULL) */
static HsaGpuProc hsagpu_queue_proc(HsaGpuState *s, HsaGpuOpsCtx *ctx,
                                    HsaGpuBudget *b)
{
    return (HsaGpuProc) {
        .ops = s->pers->reg_read ? &hsagpu_queue_ops_regs : &hsagpu_queue_ops,
        .opaque = ctx, .ident = &s->ident, .budget = b,
        .gcn_priv = &s->gcn_priv, .gcn_pool = s->gcn_pool,
    };
}

/*
 * One pass (hsagpu_sched_pass), qlock held: strict priority, round-robin
 * in a level, within a global budget. What needs the BQL is left in
 * s->pending; irq_bh delivers it (hsagpu_queues_deliver).
 */
static void hsagpu_queues_pass(HsaGpuState *s, HsaGpuPassResult *pass)
{
    HsaGpuOpsCtx ctx;
    HsaGpuBudget budget = {
        .slices = s->params.pass_slices, .packets = HSAGPU_PASS_PACKETS,
        .yield = hsagpu_pass_yield, .opaque = s,
    };
    HsaGpuProc proc = hsagpu_queue_proc(s, &ctx, &budget);

    memset(pass, 0, sizeof(*pass));
    pass->deadline = UINT64_MAX;
    /* Doorbells rung since the last pass: those queues fetch wptr. */
    for (unsigned i = 0; i < s->nactive; i++) {
        HsaGpuQueue *q = &s->queues[s->active[i]];
        unsigned long mask = BIT_MASK(q->doorbell), *w;

        if (q->doorbell >= HSAGPU_DOORBELL_COUNT) {
            continue;
        }
        w = &s->db_rung[BIT_WORD(q->doorbell)];
        if ((qatomic_read(w) & mask) && (qatomic_fetch_and(w, ~mask) & mask)) {
            hsagpu_queue_doorbell(q);
        }
    }
    if (s->vm_running) {
        hsagpu_ops_begin(&ctx, s, &s->pending);
        hsagpu_sched_pass(s->queues, s->active, s->nactive, s->rr, &proc,
                          HSAGPU_QUANTUM,
                          hsagpu_status(s) & HSAGPU_STATUS_BUS_MASTER,
                          hsagpu_pass_failed, s, pass);
        /* the personality's rings: none reaches memory without mastering */
        if (s->pers->pass &&
            (hsagpu_status(s) & HSAGPU_STATUS_BUS_MASTER)) {
            s->pers->pass(s, &ctx, pass);
        }
        hsagpu_ops_end(&ctx);
    }
    if (pass->progress || pass->ended) {
        trace_hsagpu_queue_pass(pass->progress, pass->completed, pass->slices,
                                pass->ended, pass->deadline);
    }
    if (pass->pm4_ibs) {
        trace_hsagpu_queue_pm4(pass->pm4_ibs, pass->cache_invs);
    }
    /*
     * Code naming VGPRs past its allocation runs as on gfx9; that is
     * almost always a bug in the code, so the developer hears of it once
     */
    if (pass->gcn_vgpr_oor) {
        trace_hsagpu_gcn_vgpr_oor(pass->gcn_vgpr_oor);
        if (!s->gcn_oor_logged) {
            s->gcn_oor_logged = true;
            qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu: a kernel named VGPRs "
                          "past its allocation (COMPUTE_PGM_RSRC1): they read "
                          "v0 and their writes were dropped, as on gfx9 "
                          "(logged once; trace hsagpu_gcn_vgpr_oor counts "
                          "them)\n");
        }
    }
    if (pass->completed) {
        qatomic_add(&s->regs.pkt_cnt[HSAGPU_PKT_CNT_PROCESSED],
                    pass->completed);
    }
    if (pass->gcn_insns || pass->gcn_waves) {
        qatomic_add(&s->regs.gcn_insns, pass->gcn_insns);
        qatomic_add(&s->regs.gcn_lane_ops, pass->gcn_lane_ops);
        qatomic_add(&s->regs.gcn_waves, pass->gcn_waves);
    }
    if (pass->slices > s->pass_max_slices) {
        qatomic_set(&s->pass_max_slices, pass->slices);
    }
    if (pass->gcn_cleared_max > s->gcn_slice_max_cleared) {
        qatomic_set(&s->gcn_slice_max_cleared, pass->gcn_cleared_max);
    }
}

/* qlock held: pending is the processor's until it is swapped out. */
static bool hsagpu_queues_undelivered(HsaGpuState *s)
{
    return hsagpu_deferred_any(&s->pending) ||
           qatomic_read(&s->qerr_pending) || qatomic_read(&s->error_irq_due);
}

/*
 * Main loop, BQL held: deliver what the processor left. Reset clears
 * s->pending under qlock, so nothing of a reset device's past lands on it.
 */
static void hsagpu_queues_deliver(HsaGpuState *s)
{
    HsaGpuDeferred tmp;

    /*
     * A message of this delivery stopped the VM (whose handler delivers):
     * irq_bh sends the rest, not a second swap under the first.
     */
    if (s->in_delivery) {
        qemu_bh_schedule(s->irq_bh);
        return;
    }
    hsagpu_qlock(s);
    tmp = s->delivering;
    s->delivering = s->pending;
    s->pending = tmp;
    qemu_mutex_unlock(&s->qlock);
    s->in_delivery = true;
    hsagpu_ops_deliver(s, &s->delivering);
    s->in_delivery = false;
}

void hsagpu_queues_deliver_later(HsaGpuState *s)
{
    qemu_bh_schedule(s->irq_bh);
}

static void hsagpu_queues_irq_bh(void *opaque)
{
    hsagpu_queues_deliver(opaque);
}

/*
 * qlock held, after a pass: is all that waits for delivery completion
 * interrupts (no AtomicOp report, queue error or reference to drop,
 * which reach AER, root ports and finalizers)?
 */
static bool hsagpu_queues_only_vectors(HsaGpuState *s)
{
    return !s->pending.atomic_st && !s->pending.unrefs->len &&
           !qatomic_read(&s->qerr_pending) &&
           !qatomic_read(&s->error_irq_due);
}

/*
 * BQL held: does every MSI-X message the device may send now go to the
 * local APICs? Only then can the processor thread send them itself:
 * a message the guest aimed elsewhere (a config window, a hot-plug
 * controller) could reset or unplug the device, whose unrealize joins
 * this very thread. A masked vector sends nothing here (its message
 * goes out at the unmasking write, from that vCPU).
 */
static bool hsagpu_msix_to_apic(HsaGpuState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    if (!msix_present(pdev)) {
        /* MSI (the Vega10 personality): its one message */
        return !msi_enabled(pdev) ||
               (msi_get_message(pdev, 0).address >> 20) ==
               (HSAGPU_APIC_MSI_BASE >> 20);
    }
    for (unsigned v = 0; v < s->ident.msix_vectors; v++) {
        if (!msix_is_masked(pdev, v) &&
            (msix_get_message(pdev, v).address >> 20) !=
            (HSAGPU_APIC_MSI_BASE >> 20)) {
            return false;
        }
    }
    return true;
}

/*
 * The processor thread, qlock not held: send the completion interrupts
 * a pass left now if the BQL is free, instead of waking the main loop
 * for them (one host thread wake-up less between a completion and the
 * guest's interrupt). False: irq_bh must do it.
 */
static bool hsagpu_queues_deliver_now(HsaGpuState *s)
{
    bool sent = false;

    if (s->dma_iommu || !bql_trylock()) {
        return false;
    }
    if (!s->qthread_stop && s->vm_running && !s->in_delivery &&
        qdev_is_realized(DEVICE(s)) && hsagpu_msix_to_apic(s)) {
        hsagpu_queues_deliver(s);
        sent = true;
    }
    bql_unlock();
    return sent;
}

/* Processor thread: the next pass unless work remains, how long to wait. */
static int64_t hsagpu_pass_timeout(const HsaGpuPassResult *pass,
                                   int64_t backoff)
{
    int64_t timeout = -1;

    if (pass->deadline != UINT64_MAX) {
        uint64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

        timeout = pass->deadline > now ? pass->deadline - now : 0;
    }
    if (pass->poll) {
        /* Dependencies the CPU may satisfy: poll, backing off. */
        timeout = timeout < 0 ? backoff : MIN(timeout, backoff);
    }
    return timeout;
}

/*
 * The doorbell watch: has a producer moved the write index of an active
 * queue since the processor last read it? Only through the processor's
 * mappings (no resolution, no syscall), and only while they are current
 * (a GPU VM change may have unmapped the queue's memory); a queue not
 * mapped yet still has its doorbell eventfd. A queue whose index moved
 * is fetched as if its doorbell had rung (the doorbell follows anyway).
 */
static bool hsagpu_queues_peek(HsaGpuState *s)
{
    bool moved = false;

    /* Register accesses and deliveries first: they wait on the lock. */
    if (qatomic_read(&s->qlock_waiters) || qemu_mutex_trylock(&s->qlock)) {
        return false;
    }
    if (qatomic_read(&s->bus_map_gen) != s->bus_map_seen) {
        qemu_mutex_unlock(&s->qlock);
        return false;
    }
    for (unsigned i = 0; i < s->nactive && !moved; i++) {
        HsaGpuQueue *q = &s->queues[s->active[i]];
        uint64_t wptr;

        if (q->state != HSAGPU_QSTATE_ACTIVE || q->held ||
            (q->flags & HSAGPU_QF_SDMA) ||
            !hsagpu_bus_map_peek64(s, q->as_vmid, q->wptr_addr, &wptr)) {
            continue;
        }
        moved = wptr != q->seen_wptr;
        if (!moved && q->awaiting_header) {
            /* The slot the last run stopped at: published since? */
            uint64_t slot = q->ring_base + (q->read_index &
                                            (q->ring_size - 1)) *
                            HSAGPU_AQL_PACKET_SIZE;
            uint64_t word;

            moved = hsagpu_bus_map_peek64(s, q->as_vmid, slot, &word) &&
                    ((uint16_t)word & HSAGPU_PKT_HDR_TYPE_MASK) !=
                    HSAGPU_PKT_TYPE_INVALID;
        }
        if (moved) {
            hsagpu_queue_doorbell(q);
        }
    }
    qemu_mutex_unlock(&s->qlock);
    return moved;
}

/*
 * The processor thread. It never waits for the BQL (finding 1 of the
 * reliability review): unrealize joins it with the BQL held, and the
 * vCPUs, which take qlock with the BQL held, can always wait for it.
 */
/*
 * qlock held: the thread's poll set, the shared notifier (commands,
 * kicks, the BAR2 handler) and each listening queue's doorbell. A queue
 * enabled later is fetched at its start anyway (and ENABLE kicks).
 */
static void hsagpu_queues_poll_set(HsaGpuState *s)
{
    unsigned n = 0;

    s->qpfd[n++] = (GPollFD) {
        .fd = event_notifier_get_fd(&s->qnotifier), .events = G_IO_IN,
    };
    for (unsigned qi = 0; qi < s->params.num_queues; qi++) {
        /* an eventfd (KVM); under TCG the handler serves the doorbell */
        if (s->qdb_listen[qi] && s->qdb_ok[qi]) {
            s->qpfd_doorbell[n] = s->qdb_listen[qi] - 1;
            s->qpfd[n++] = (GPollFD) {
                .fd = event_notifier_get_fd(&s->qdb[qi]), .events = G_IO_IN,
            };
        }
    }
    s->nqpfd = n;
}

/*
 * Poll the doorbells and the notifier for up to @timeout ns (-1: for
 * ever); the doorbells found rung are marked in db_rung for the next
 * pass. True if anything woke the processor.
 */
static bool hsagpu_queues_poll(HsaGpuState *s, int64_t timeout)
{
    unsigned n = s->nqpfd;

    for (unsigned i = 0; i < n; i++) {
        s->qpfd[i].revents = 0;
    }
    if (qemu_poll_ns(s->qpfd, n, timeout) <= 0) {
        return false;
    }
    for (unsigned i = 1; i < n; i++) {
        if (s->qpfd[i].revents & G_IO_IN) {
            EventNotifier e;

            /* Only the fd is needed to clear it. */
            event_notifier_init_fd(&e, s->qpfd[i].fd);
            event_notifier_test_and_clear(&e);
            set_bit_atomic(s->qpfd_doorbell[i], s->db_rung);
        }
    }
    if (s->qpfd[0].revents & G_IO_IN) {
        event_notifier_test_and_clear(&s->qnotifier);
    }
    return true;
}

static void *hsagpu_queue_thread(void *opaque)
{
    HsaGpuState *s = opaque;
    int64_t backoff = HSAGPU_POLL_MIN_NS, last_work = 0, last_poll = 0;
    bool peeked = false;

    rcu_register_thread();
    for (;;) {
        HsaGpuPassResult pass;
        bool deliver, vectors;
        int64_t timeout;

        /*
         * Awake from here until the sleep below, which looks at
         * kick_pending first: a kick meanwhile (a doorbell as a pass
         * ends) needs no eventfd, whose write is a system call in the
         * vCPU's doorbell write
         */
        qatomic_set(&s->qthread_watching, 1);
        /*
         * Let MMIO and commands in first, but not for ever: register
         * readers on several vCPUs can keep a waiter queued all the time
         * (review of dev, finding 3). Then the thread queues for qlock
         * too, and its pass does a packet or slice before it yields.
         */
        for (unsigned n = 0; n < HSAGPU_YIELD_SPINS &&
             qatomic_read(&s->qlock_waiters); n++) {
            sched_yield();
        }
        /*
         * Busy: doorbells of other queues are picked up between passes
         * (an idle queue's write index is read only after its doorbell).
         * Only the eventfds' need it (KVM): the handler's are in db_rung
         * already, and a system call here delays the pass.
         */
        if (s->nqpfd > 1 && get_clock() - last_poll > HSAGPU_DB_POLL_NS) {
            hsagpu_queues_poll(s, 0);
            last_poll = get_clock();
        }
        qemu_mutex_lock(&s->qlock);
        if (s->qthread_stop) {
            qemu_mutex_unlock(&s->qlock);
            break;
        }
        /*
         * The pass serves every kick so far (their doorbells are in
         * db_rung): only a later one should bring the watch back here
         */
        qatomic_xchg(&s->kick_pending, 0);
        hsagpu_queues_pass(s, &pass);
        hsagpu_queues_poll_set(s);
        /* A stopped VM's messages wait for it (hsagpu_vm_change()). */
        deliver = s->vm_running && hsagpu_queues_undelivered(s);
        vectors = deliver && hsagpu_queues_only_vectors(s);
        qemu_mutex_unlock(&s->qlock);
        if (deliver && !(vectors && hsagpu_queues_deliver_now(s))) {
            qemu_bh_schedule(s->irq_bh);
        }

        if (pass.progress || pass.ended) {
            backoff = HSAGPU_POLL_MIN_NS;
            last_work = get_clock();
            continue;
        }
        /*
         * Right after work, the next doorbell tends to follow soon: watch
         * the write indices and, now and then, the eventfd for a moment
         * before paying for a sleep and wake-up.
         */
        qatomic_set(&s->qthread_watching, 1);
        smp_mb();   /* a kick from now on may skip the eventfd */
        for (unsigned n = 1; get_clock() - last_work < HSAGPU_SPIN_NS &&
             !qatomic_read(&s->qthread_stop); n++) {
            if (qatomic_read(&s->kick_pending)) {
                /* a doorbell through the handler, or a command */
                qatomic_set(&s->kick_pending, 0);
                qatomic_inc(&s->regs.pkt_cnt[HSAGPU_PKT_CNT_DOORBELLS]);
                peeked = true;
                break;
            }
            if (qatomic_read(&s->qlock_waiters)) {
                /*
                 * The main loop (interrupts to deliver) or a vCPU wants
                 * the lock: on a small host, give it this CPU too.
                 */
                sched_yield();
                continue;
            }
            if (hsagpu_queues_peek(s)) {
                peeked = true;
                break;
            }
            /* the doorbells' eventfds (KVM), a system call: now and then */
            if (s->nqpfd > 1 && !(n % HSAGPU_WATCH_POLL_EVERY) &&
                hsagpu_queues_poll(s, 0)) {
                /* Consumed: the pass right away. */
                qatomic_inc(&s->regs.pkt_cnt[HSAGPU_PKT_CNT_DOORBELLS]);
                peeked = true;
                break;
            }
            cpu_relax();
        }
        qatomic_set(&s->qthread_watching, 0);
        smp_mb();   /* pairs with hsagpu_queues_kick()'s */
        if (qatomic_read(&s->kick_pending)) {
            /* kicked as the watch ended: the kick did not wake us */
            qatomic_set(&s->kick_pending, 0);
            peeked = true;
        }
        if (peeked) {
            /* The doorbell's eventfd is consumed at the next sleep. */
            peeked = false;
            continue;
        }
        timeout = hsagpu_pass_timeout(&pass, backoff);
        if (pass.poll) {
            backoff = MIN(backoff * 2, HSAGPU_POLL_MAX_NS);
        }
        if (timeout != 0 && hsagpu_queues_poll(s, timeout)) {
            qatomic_inc(&s->regs.pkt_cnt[HSAGPU_PKT_CNT_DOORBELLS]);
            backoff = HSAGPU_POLL_MIN_NS;
        }
        last_poll = get_clock();
    }
    rcu_unregister_thread();
    return NULL;
}

/*
 * The main-loop processor (x-processor=mainloop, and behind a vIOMMU,
 * whose translations may need the BQL): one budgeted pass per run, run
 * again while work remains, else at the next busy-kernel end or polling
 * time in virtual time. Everything happens in main-loop iterations, so
 * qtest and fuzzing see the same order of events every time.
 */
static void hsagpu_proc_bh(void *opaque)
{
    HsaGpuState *s = opaque;
    HsaGpuPassResult pass;
    uint32_t gen = s->gen;
    int64_t timeout;
    bool changed;

    /* Woken by a doorbell or command (kicks before a run count once). */
    if (qatomic_xchg(&s->proc_kicked, false)) {
        qatomic_inc(&s->regs.pkt_cnt[HSAGPU_PKT_CNT_DOORBELLS]);
    }
    hsagpu_qlock(s);
    hsagpu_queues_pass(s, &pass);
    qemu_mutex_unlock(&s->qlock);
    /* The delivery may unplug the device: keep s until we know. */
    object_ref(OBJECT(s));
    hsagpu_queues_deliver(s);
    changed = s->gen != gen;
    object_unref(OBJECT(s));
    if (changed) {
        /* Reset (nothing left to serve) or unrealized (no BH, no timer). */
        return;
    }
    if (pass.progress || pass.ended) {
        s->proc_backoff = HSAGPU_POLL_MIN_NS;
        qemu_bh_schedule(s->proc_bh);
        return;
    }
    timeout = hsagpu_pass_timeout(&pass, s->proc_backoff);
    if (pass.poll) {
        s->proc_backoff = MIN(s->proc_backoff * 2, HSAGPU_POLL_MAX_NS);
    }
    if (timeout >= 0) {
        timer_mod(s->proc_timer,
                  qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + timeout);
    }
}

static void hsagpu_proc_timer(void *opaque)
{
    HsaGpuState *s = opaque;

    qemu_bh_schedule(s->proc_bh);
}

/* ------------------------------------------------------------------ */
/* Commands and registers (BQL held)                                   */
/* ------------------------------------------------------------------ */

static unsigned hsagpu_queue_enable(HsaGpuState *s, unsigned qi,
                                    HsaGpuQueue *q)
{
    uint64_t ring = hsagpu_reg64(q->ring_lo, q->ring_hi);
    uint64_t rptr = hsagpu_reg64(q->rptr_lo, q->rptr_hi);
    uint64_t wptr = hsagpu_reg64(q->wptr_lo, q->wptr_hi);
    uint64_t read_index;
    unsigned res = hsagpu_queue_check(q, &s->ident, s->queues,
                                      s->params.num_queues);
    HsaGpuBusCtx c;
    bool ok;

    if (res != HSAGPU_QRES_OK) {
        return res;
    }
    if (hsagpu_fault_is_fatal(s)) {
        return HSAGPU_QRES_DEVICE_FATAL;
    }
    if (!(hsagpu_status(s) & HSAGPU_STATUS_BUS_MASTER)) {
        return HSAGPU_QRES_NO_BUS_MASTER;
    }
    /* The queue's memory, as the queue will reach it. */
    hsagpu_bus_ctx_init(&c, s, qi);
    c.vmid = q->vmid;
    c.client = HSAGPU_VM_CLIENT_PACKET;
    ok = hsagpu_bus_is_memory(&c, ring, hsagpu_queue_ring_bytes(q), true) &&
         hsagpu_bus_is_memory(&c, rptr, 8, true) &&
         hsagpu_bus_is_memory(&c, wptr, 8, false) &&
         !hsagpu_bus_rw(&c, rptr, &read_index, 8, false);
    hsagpu_bus_ctx_end(&c);
    if (!ok) {
        return HSAGPU_QRES_BAD_ADDRESS;
    }
    /* An SDMA ring's read pointer counts bytes of whole dwords. */
    if ((q->flags & HSAGPU_QF_SDMA) && (read_index & 3)) {
        return HSAGPU_QRES_BAD_POINTER;
    }
    hsagpu_queue_start(q, read_index);
    hsagpu_doorbell_listen(s, qi, q->doorbell, true);
    hsagpu_active_add(s, qi);
    return HSAGPU_QRES_OK;
}

static void hsagpu_queue_destroy(HsaGpuState *s, unsigned qi, HsaGpuQueue *q)
{
    hsagpu_doorbell_listen(s, qi, q->doorbell, false);
    hsagpu_active_del(s, qi);
    hsagpu_queue_clear(q);
}

/*
 * A queue a personality runs for rings of its own (hsa-gpu-vega10's SDMA
 * rings and its MEC's AQL queues), qlock held: registered and started as
 * the ENABLE command does, minus hsa-gpu's doorbells (the personality
 * routes its own and calls hsagpu_queue_own_ring()). Its queue registers
 * are not the driver's.
 */
void hsagpu_queue_own_stop(HsaGpuState *s, unsigned qi)
{
    HsaGpuQueue *q;

    if (qi >= s->params.num_queues ||
        s->queues[qi].state == HSAGPU_QSTATE_DISABLED) {
        return;
    }
    q = &s->queues[qi];
    /*
     * A running AQL queue is drained as gfx9's CP drains one it preempts:
     * without it, packets consumed but not yet published would be found
     * invalid where the queue maps again, and busy ones never complete
     */
    if (!(q->flags & HSAGPU_QF_SDMA) && q->state == HSAGPU_QSTATE_ACTIVE &&
        s->vm_running && (hsagpu_status(s) & HSAGPU_STATUS_BUS_MASTER) &&
        (q->ninflight || q->rptr_unpublished)) {
        HsaGpuOpsCtx ctx = { .d = &s->pending };
        HsaGpuProc proc = hsagpu_queue_proc(s, &ctx, NULL);
        HsaGpuRunResult res;
        unsigned err;

        /*
         * no mapping cache: this may run inside a pass, which has one;
         * the queue's own address space (its VMID), not the kernel's
         */
        hsagpu_bus_ctx_init(&ctx.bus, s, -1);
        hsagpu_bus_ctx_select(&ctx.bus, qi);
        err = hsagpu_queue_quiesce(q, &proc, &res);
        hsagpu_bus_ctx_end(&ctx.bus);
        if (err) {
            qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu: queue %u drained with "
                          "error %u (its read index or a signal)\n", qi, err);
        }
        if (hsagpu_deferred_any(&s->pending)) {
            qemu_bh_schedule(s->irq_bh);
        }
    }
    hsagpu_queue_destroy(s, qi, q);
}

/* @reg: the ring, pointers, flags and VMID; @read_index: where it starts */
unsigned hsagpu_queue_own_start(HsaGpuState *s, unsigned qi,
                                const HsaGpuQueue *reg, uint64_t read_index)
{
    HsaGpuQueue *q;
    unsigned res;

    if (qi >= s->params.num_queues) {
        return HSAGPU_QRES_BAD_STATE;
    }
    q = &s->queues[qi];
    if (q->state != HSAGPU_QSTATE_DISABLED) {
        hsagpu_queue_own_stop(s, qi);
    }
    q->ring_lo = reg->ring_lo;
    q->ring_hi = reg->ring_hi;
    q->ring_size = reg->ring_size;
    q->rptr_lo = reg->rptr_lo;
    q->rptr_hi = reg->rptr_hi;
    q->wptr_lo = reg->wptr_lo;
    q->wptr_hi = reg->wptr_hi;
    q->flags = reg->flags | HSAGPU_QF_OWN;
    q->vmid = reg->vmid;
    q->num_gws = reg->num_gws;
    q->priority = reg->priority;
    q->vector = 0;
    q->doorbell = HSAGPU_DOORBELL_NONE;
    res = hsagpu_queue_check_registration(q, &s->ident, s->queues,
                                          s->params.num_queues);
    /*
     * an SDMA ring's read pointer is in bytes, dword aligned; an AQL
     * queue's read index counts packets and may be any number
     */
    if (res == HSAGPU_QRES_OK && (q->flags & HSAGPU_QF_SDMA) &&
        (read_index & 3)) {
        res = HSAGPU_QRES_BAD_POINTER;
    }
    if (res != HSAGPU_QRES_OK) {
        return res;
    }
    hsagpu_queue_start(q, read_index);
    hsagpu_active_add(s, qi);
    return HSAGPU_QRES_OK;
}

/* Its doorbell: the write pointer is fetched at the next pass */
void hsagpu_queue_own_ring(HsaGpuState *s, unsigned qi)
{
    if (qi < s->params.num_queues &&
        s->queues[qi].state != HSAGPU_QSTATE_DISABLED) {
        hsagpu_queue_doorbell(&s->queues[qi]);
    }
}

/*
 * A queue with HSAGPU_QF_OWN_WPTR: its new write index (a doorbell's
 * value), served from the next pass. One an SDMA ring cannot take (not
 * whole dwords, behind the read index or a ring ahead of it) fails the
 * queue now, as its run would: a queue never holds a write index it
 * refuses (a migration would find it inconsistent).
 */
void hsagpu_queue_own_wptr(HsaGpuState *s, unsigned qi, uint64_t wptr)
{
    HsaGpuQueue *q;

    if (qi >= s->params.num_queues) {
        return;
    }
    q = &s->queues[qi];
    if (!(q->flags & HSAGPU_QF_OWN_WPTR) ||
        q->state == HSAGPU_QSTATE_DISABLED ||
        q->state == HSAGPU_QSTATE_ERROR) {
        return;
    }
    if ((q->flags & HSAGPU_QF_SDMA) &&
        ((wptr & 3) || wptr - q->read_index > q->ring_size)) {
        hsagpu_queue_fail(q, HSAGPU_QERR_RING_OVERRUN, q->read_index);
        hsagpu_queue_failed(s, qi, q);
        return;
    }
    q->seen_wptr = wptr;
}

/* Where it is: its read index (bytes for an SDMA ring), 0 when off */
uint64_t hsagpu_queue_own_rptr(HsaGpuState *s, unsigned qi)
{
    if (qi < s->params.num_queues &&
        s->queues[qi].state != HSAGPU_QSTATE_DISABLED) {
        return s->queues[qi].read_index;
    }
    return 0;
}

static unsigned hsagpu_queue_command(HsaGpuState *s, unsigned qi,
                                     uint32_t cmd)
{
    HsaGpuQueue *q = &s->queues[qi];

    switch (cmd) {
    case HSAGPU_QCMD_ENABLE:
        return hsagpu_queue_enable(s, qi, q);
    case HSAGPU_QCMD_SUSPEND:
        if (q->state != HSAGPU_QSTATE_ACTIVE &&
            q->state != HSAGPU_QSTATE_DRAINING) {
            return HSAGPU_QRES_BAD_STATE;
        }
        q->state = HSAGPU_QSTATE_SUSPENDED;
        return HSAGPU_QRES_OK;
    case HSAGPU_QCMD_RESUME:
        if (q->state != HSAGPU_QSTATE_SUSPENDED) {
            return HSAGPU_QRES_BAD_STATE;
        }
        q->state = HSAGPU_QSTATE_ACTIVE;
        /* Like a restarted CP: one fetch picks up what came meanwhile. */
        hsagpu_queue_doorbell(q);
        return HSAGPU_QRES_OK;
    case HSAGPU_QCMD_DRAIN:
        if (q->state != HSAGPU_QSTATE_ACTIVE &&
            q->state != HSAGPU_QSTATE_SUSPENDED) {
            return HSAGPU_QRES_BAD_STATE;
        }
        q->state = HSAGPU_QSTATE_DRAINING;
        return HSAGPU_QRES_OK;
    case HSAGPU_QCMD_DESTROY:
        if (q->state == HSAGPU_QSTATE_DISABLED) {
            return HSAGPU_QRES_BAD_STATE;
        }
        hsagpu_queue_destroy(s, qi, q);
        return HSAGPU_QRES_OK;
    default:
        return HSAGPU_QRES_BAD_COMMAND;
    }
}

bool hsagpu_queue_mmio(HsaGpuState *s, uint32_t offset)
{
    return (offset >= HSAGPU_REG_QUEUE_BASE &&
            offset < HSAGPU_REG_QUEUE(s->params.num_queues)) ||
           (offset >= HSAGPU_REG_QUEUE_X_BASE &&
            offset < HSAGPU_REG_QUEUE_X(s->params.num_queues)) ||
           (offset >= HSAGPU_REG_QUEUE_GWS_BASE &&
            offset < HSAGPU_REG_QUEUE_GWS(s->params.num_queues));
}

/* Queue registers are 32-bit only. */
static unsigned hsagpu_queue_mmio_check(uint32_t offset, unsigned size)
{
    if (size != 4) {
        return HSAGPU_BAD_REASON_SIZE;
    }
    return offset & 3 ? HSAGPU_BAD_REASON_ALIGN : 0;
}

unsigned hsagpu_queue_mmio_read(HsaGpuState *s, uint32_t offset, unsigned size,
                                uint64_t *val)
{
    unsigned qi = (offset - HSAGPU_REG_QUEUE_BASE) / HSAGPU_QUEUE_REG_STRIDE;
    uint32_t v;
    unsigned bad = hsagpu_queue_mmio_check(offset, size);

    *val = 0;
    if (bad) {
        return bad;
    }
    hsagpu_qlock(s);
    if (offset >= HSAGPU_REG_QUEUE_GWS_BASE) {
        qi = (offset - HSAGPU_REG_QUEUE_GWS_BASE) / HSAGPU_QUEUE_GWS_STRIDE;
        v = s->queues[qi].num_gws;
    } else if (offset >= HSAGPU_REG_QUEUE_X_BASE) {
        qi = (offset - HSAGPU_REG_QUEUE_X_BASE) / HSAGPU_QUEUE_X_STRIDE;
        bad = hsagpu_queue_xreg_read(&s->queues[qi],
                                     offset % HSAGPU_QUEUE_X_STRIDE, &v);
    } else {
        bad = hsagpu_queue_reg_read(&s->queues[qi],
                                    offset % HSAGPU_QUEUE_REG_STRIDE, &v);
    }
    qemu_mutex_unlock(&s->qlock);
    *val = v;
    return bad;
}

/*
 * QUEUE_GWS: taken by each dispatch as it starts (hsagpu-gcn-dispatch.c).
 * A count the device does not have changes nothing. Under qlock. Not
 * inlined: scripts/fuzz's seeds must be seen reaching it.
 */
static G_GNUC_NO_INLINE unsigned hsagpu_queue_gws_write(HsaGpuQueue *q,
                                                        uint64_t val)
{
    if (val > HSAGPU_GWS_MAX) {
        return HSAGPU_BAD_REASON_VALUE;
    }
    q->num_gws = val;
    return 0;
}

unsigned hsagpu_queue_mmio_write(HsaGpuState *s, uint32_t offset,
                                 unsigned size, uint64_t val)
{
    unsigned qi = (offset - HSAGPU_REG_QUEUE_BASE) / HSAGPU_QUEUE_REG_STRIDE;
    uint32_t reg = offset % HSAGPU_QUEUE_REG_STRIDE;
    unsigned bad = hsagpu_queue_mmio_check(offset, size);

    if (bad) {
        return bad;
    }
    hsagpu_qlock(s);
    if (offset >= HSAGPU_REG_QUEUE_GWS_BASE) {
        qi = (offset - HSAGPU_REG_QUEUE_GWS_BASE) / HSAGPU_QUEUE_GWS_STRIDE;
        bad = hsagpu_queue_gws_write(&s->queues[qi], val);
        qemu_mutex_unlock(&s->qlock);
        return bad;
    }
    if (offset >= HSAGPU_REG_QUEUE_X_BASE) {
        qi = (offset - HSAGPU_REG_QUEUE_X_BASE) / HSAGPU_QUEUE_X_STRIDE;
        bad = hsagpu_queue_xreg_write(&s->queues[qi],
                                      offset % HSAGPU_QUEUE_X_STRIDE, val);
        qemu_mutex_unlock(&s->qlock);
        return bad;
    }
    bad = hsagpu_queue_reg_write(&s->queues[qi], reg, val);
    if (!bad && reg == HSAGPU_QREG_CMD) {
        HsaGpuQueue *q = &s->queues[qi];

        q->cmd_result = hsagpu_queue_command(s, qi, val);
        trace_hsagpu_queue_cmd(qi, val, q->cmd_result, q->state);
    }
    qemu_mutex_unlock(&s->qlock);
    if (!bad && reg == HSAGPU_QREG_CMD) {
        hsagpu_queues_kick(s);
    }
    return bad;
}

void hsagpu_queue_hold(HsaGpuState *s, int qi)
{
    hsagpu_qlock(s);
    for (unsigned i = 0; i < s->params.num_queues; i++) {
        s->queues[i].held = (int)i == qi;
    }
    qemu_mutex_unlock(&s->qlock);
    /* Doorbells rung meanwhile were accepted: serve the queue again. */
    hsagpu_queues_kick(s);
}

int hsagpu_queue_held(HsaGpuState *s)
{
    int held = -1;

    hsagpu_qlock(s);
    for (unsigned i = 0; i < s->params.num_queues && held < 0; i++) {
        held = s->queues[i].held ? (int)i : -1;
    }
    qemu_mutex_unlock(&s->qlock);
    return held;
}

void hsagpu_queues_fatal(HsaGpuState *s)
{
    bool due;

    hsagpu_qlock(s);
    for (unsigned i = 0; i < s->nactive; i++) {
        unsigned qi = s->active[i];
        HsaGpuQueue *q = &s->queues[qi];

        if (q->state != HSAGPU_QSTATE_ERROR) {
            hsagpu_queue_fail(q, HSAGPU_QERR_DEVICE_FATAL, q->read_index);
            hsagpu_queue_failed(s, qi, q);
        }
    }
    qemu_mutex_unlock(&s->qlock);
    /* One interrupt for both bits: a message may reset or unplug us. */
    due = hsagpu_queue_fold_errors(s);
    due |= hsagpu_regs_raise_error(&s->regs, HSAGPU_ERR_FATAL);
    due |= qatomic_xchg(&s->error_irq_due, 0);
    if (due) {
        hsagpu_error_irq(s);
    }
}

uint32_t hsagpu_queue_error_first(HsaGpuState *s)
{
    uint32_t first = UINT32_MAX;

    hsagpu_qlock(s);
    for (unsigned i = 0; i < s->nactive; i++) {
        if (s->queues[s->active[i]].state == HSAGPU_QSTATE_ERROR) {
            first = MIN(first, s->active[i]);
        }
    }
    qemu_mutex_unlock(&s->qlock);
    return first;
}

/* ------------------------------------------------------------------ */
/* Life cycle                                                          */
/* ------------------------------------------------------------------ */

static void hsagpu_vm_change(void *opaque, bool running, RunState state)
{
    HsaGpuState *s = opaque;
    bool undelivered;

    /* Taking qlock waits for the processor to finish its pass. */
    hsagpu_qlock(s);
    s->vm_running = running;
    undelivered = hsagpu_queues_undelivered(s);
    qemu_mutex_unlock(&s->qlock);
    trace_hsagpu_queue_vm_change(running, undelivered);
    if (running) {
        /* Also what a migration brought: the destination raises it now. */
        if (undelivered) {
            qemu_bh_schedule(s->irq_bh);
        }
        hsagpu_queues_kick(s);
    } else {
        /*
         * The last pass's AtomicOp report and queue errors go into the
         * registers before the device state is saved; its messages stay
         * pending (hsagpu_irq_msix()) and migrate.
         */
        hsagpu_queues_deliver(s);
    }
}

/*
 * What the processor leaves for the main loop, and qlock, live as long
 * as the object, not the realized device: a delivery that unplugged the
 * device goes on over them (review of dev, finding 1).
 */
void hsagpu_queues_instance_init(HsaGpuState *s)
{
    qemu_mutex_init(&s->qlock);
    s->pending.unrefs = g_ptr_array_new();
    s->delivering.unrefs = g_ptr_array_new();
}

static void hsagpu_deferred_alloc(HsaGpuDeferred *d, unsigned nvec)
{
    if (!d->vectors) {
        d->vectors = bitmap_new(nvec);
    }
}

static void hsagpu_deferred_free(HsaGpuDeferred *d)
{
    g_free(d->vectors);
    /* Unrealize dropped the references (hsagpu_queues_reset). */
    g_ptr_array_free(d->unrefs, true);
}

void hsagpu_queues_finalize(HsaGpuState *s)
{
    hsagpu_deferred_free(&s->pending);
    hsagpu_deferred_free(&s->delivering);
    qemu_mutex_destroy(&s->qlock);
}

/* x-processor: where the queues are served. */
static bool hsagpu_processor_mode(HsaGpuState *s, Error **errp)
{
    const char *mode = s->params.processor ? s->params.processor : "auto";

    s->dma_iommu = pci_device_iommu_address_space(PCI_DEVICE(s)) !=
                   &address_space_memory;
    if (!strcmp(mode, "auto")) {
        s->mainloop = s->dma_iommu;
    } else if (!strcmp(mode, "mainloop")) {
        s->mainloop = true;
    } else if (!strcmp(mode, "thread")) {
        if (s->dma_iommu) {
            /* IOMMU translations may need the BQL; the thread has none. */
            error_setg(errp, "hsa-gpu: x-processor=thread is not possible "
                       "behind a vIOMMU (use auto or mainloop)");
            return false;
        }
        s->mainloop = false;
    } else {
        error_setg(errp, "hsa-gpu: x-processor must be auto, thread or "
                   "mainloop (got '%s')", mode);
        return false;
    }
    trace_hsagpu_queue_processor(s->mainloop, s->dma_iommu);
    /* Reads back as what auto chose. */
    g_free(s->params.processor);
    s->params.processor = g_strdup(s->mainloop ? "mainloop" : "thread");
    return true;
}

/*
 * compute-threads: the pool a dispatch's workgroups run on (the
 * processor's thread is one of them). The main-loop processor stays on
 * one thread: it is the deterministic mode, and it runs behind a vIOMMU,
 * whose translations may need the BQL.
 */
static void hsagpu_compute_threads(HsaGpuState *s)
{
    unsigned n = s->params.compute_threads;

    if (!n) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);

        n = MIN(cpus > 0 ? (unsigned long)cpus : 1, s->params.compute_units);
    }
    if (s->mainloop && n > 1) {
        if (s->params.compute_threads) {
            warn_report("hsa-gpu: compute-threads=%u: the main-loop "
                        "processor runs workgroups on one thread", n);
        }
        n = 1;
    }
    s->gcn_pool = hsagpu_gcn_pool_new(n, "hsa-gpu-cu", rcu_register_thread,
                                      rcu_unregister_thread);
    s->params.compute_threads = hsagpu_gcn_pool_size(s->gcn_pool);
    trace_hsagpu_compute_threads(s->params.compute_threads);
}

bool hsagpu_queues_init(HsaGpuState *s, Error **errp)
{
    DeviceState *dev = DEVICE(s);
    int ret;

    if (!hsagpu_processor_mode(s, errp)) {
        return false;
    }
    if (!s->params.pass_slices) {
        error_setg(errp, "hsa-gpu: x-pass-slices must be at least 1");
        return false;
    }
    ret = event_notifier_init(&s->qnotifier, 0);
    if (ret < 0) {
        error_setg_errno(errp, -ret, "hsa-gpu: cannot create the queue "
                         "processor's notifier");
        return false;
    }
    s->qnotifier_ok = true;
    s->queues = g_new0(HsaGpuQueue, s->params.num_queues);
    s->nqueues_migrated = s->params.num_queues;
    s->active = g_new0(uint16_t, s->params.num_queues);
    s->db_listening = bitmap_new(HSAGPU_DOORBELL_COUNT);
    s->db_rung = bitmap_new(HSAGPU_DOORBELL_COUNT);
    s->qdb = g_new0(EventNotifier, s->params.num_queues);
    s->qdb_ok = g_new0(bool, s->params.num_queues);
    s->qdb_listen = g_new0(uint32_t, s->params.num_queues);
    s->qpfd = g_new0(GPollFD, s->params.num_queues + 1);
    s->qpfd_doorbell = g_new0(uint32_t, s->params.num_queues + 1);
    s->msix_nr = s->ident.msix_vectors;
    hsagpu_deferred_alloc(&s->pending, s->msix_nr);
    hsagpu_deferred_alloc(&s->delivering, s->msix_nr);
    s->irq_bh = qemu_bh_new_guarded(hsagpu_queues_irq_bh, s,
                                    &dev->mem_reentrancy_guard);
    s->vm_running = runstate_is_running();
    s->vm_change = qemu_add_vm_change_state_handler(hsagpu_vm_change, s);
    hsagpu_bus_maps_init(s);
    hsagpu_compute_threads(s);
    if (s->mainloop) {
        s->proc_bh = qemu_bh_new_guarded(hsagpu_proc_bh, s,
                                         &dev->mem_reentrancy_guard);
        s->proc_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, hsagpu_proc_timer,
                                     s);
        s->proc_backoff = HSAGPU_POLL_MIN_NS;
    } else {
        qemu_thread_create(&s->qthread, "hsa-gpu-queues",
                           hsagpu_queue_thread, s, QEMU_THREAD_JOINABLE);
        s->qthread_started = true;
    }
    return true;
}

void hsagpu_queues_reset(HsaGpuState *s)
{
    g_autoptr(GPtrArray) unrefs = g_ptr_array_new();

    hsagpu_qlock(s);
    while (s->nactive) {
        unsigned qi = s->active[0];

        hsagpu_queue_destroy(s, qi, &s->queues[qi]);
    }
    for (unsigned qi = 0; qi < s->params.num_queues; qi++) {
        hsagpu_queue_gcn_free(&s->queues[qi]);
    }
    memset(s->queues, 0, s->params.num_queues * sizeof(*s->queues));
    memset(s->rr, 0, sizeof(s->rr));
    bitmap_zero(s->db_rung, HSAGPU_DOORBELL_COUNT);
    hsagpu_bus_maps_flush(s);
    qatomic_set(&s->qerr_pending, 0);
    qatomic_set(&s->error_irq_due, 0);
    /*
     * Interrupts and an AtomicOp report of the old state are not the new
     * state's (review finding 11); references are dropped all the same.
     */
    bitmap_zero(s->pending.vectors, s->msix_nr);
    s->pending.any_vector = false;
    s->pending.atomic_st = 0;
    g_ptr_array_extend_and_steal(unrefs, s->pending.unrefs);
    s->pending.unrefs = g_ptr_array_new();
    qemu_mutex_unlock(&s->qlock);
    for (unsigned i = 0; i < unrefs->len; i++) {
        object_unref(g_ptr_array_index(unrefs, i));
    }
}

void hsagpu_queues_exit(HsaGpuState *s)
{
    if (!s->queues) {
        return;
    }
    if (s->qthread_started) {
        hsagpu_qlock(s);
        s->qthread_stop = true;
        qemu_mutex_unlock(&s->qlock);
        hsagpu_queues_kick(s);
        /* The thread never waits for the BQL: join it holding the BQL. */
        qemu_thread_join(&s->qthread);
        s->qthread_started = false;
    }
    if (s->mainloop) {
        timer_free(s->proc_timer);
        qemu_bh_delete(s->proc_bh);
        s->proc_timer = NULL;
        s->proc_bh = NULL;
    }
    hsagpu_queues_reset(s);
    /* idle: the processor, the only one to give them work, has stopped */
    hsagpu_gcn_pool_free(s->gcn_pool);
    s->gcn_pool = NULL;
    hsagpu_bus_maps_exit(s);
    hsagpu_doorbell_unlisten_all(s);
    qemu_del_vm_change_state_handler(s->vm_change);
    qemu_bh_delete(s->irq_bh);
    event_notifier_cleanup(&s->qnotifier);
    s->qnotifier_ok = false;
    for (unsigned qi = 0; qi < s->params.num_queues; qi++) {
        if (s->qdb_ok[qi]) {
            event_notifier_cleanup(&s->qdb[qi]);
        }
    }
    g_free(s->qdb);
    g_free(s->qdb_ok);
    g_free(s->qdb_listen);
    g_free(s->qpfd);
    g_free(s->qpfd_doorbell);
    g_free(s->db_rung);
    g_free(s->db_listening);
    g_free(s->queues);
    g_free(s->active);
    s->queues = NULL;
}

/*
 * Before the device state is saved (VM stopped): a queue failure not yet
 * in ERROR_STATUS goes in now; its interrupt is left pending (the VM is
 * stopped), so the pending subsection carries it to the destination.
 */
void hsagpu_queues_pre_save(HsaGpuState *s)
{
    hsagpu_queue_flush_errors(s);
    hsagpu_qlock(s);
    for (unsigned qi = 0; qi < s->params.num_queues; qi++) {
        hsagpu_queue_gcn_save(&s->queues[qi]);
    }
    qemu_mutex_unlock(&s->qlock);
}

/*
 * Rebuild what is derived from the migrated queue state. Loading may
 * happen over a device that was running (COLO, xen-load-devices-state):
 * the doorbells registered for the old state go first.
 */
int hsagpu_queues_post_load(HsaGpuState *s)
{
    bool undelivered;

    hsagpu_qlock(s);
    hsagpu_doorbell_unlisten_all(s);
    hsagpu_bus_maps_flush(s);
    s->nactive = 0;
    for (unsigned qi = 0; qi < s->params.num_queues; qi++) {
        HsaGpuQueue *q = &s->queues[qi];

        if (q->fetch_wptr == HSAGPU_FETCH_UNSENT) {
            /* Not in the stream: fetch once, from where the queue is. */
            q->seen_wptr = q->read_index;
            q->fetch_wptr = q->state != HSAGPU_QSTATE_DISABLED;
        }
        q->awaiting_header = false;
    }
    for (unsigned qi = 0; qi < s->params.num_queues; qi++) {
        /*
         * A migrated queue in use must be one the device could have made:
         * its fields index arrays and bitmaps (priority, vector) and pick
         * doorbell eventfds, so a corrupt stream must fail, not crash.
         */
        if ((s->queues[qi].state != HSAGPU_QSTATE_DISABLED &&
             !hsagpu_queue_loaded_ok(&s->queues[qi], &s->ident, s->queues,
                                     s->params.num_queues)) ||
            !hsagpu_queue_gcn_load(&s->queues[qi])) {
            qemu_mutex_unlock(&s->qlock);
            error_report("hsa-gpu: migrated queue %u is inconsistent", qi);
            return -EINVAL;
        }
    }
    for (unsigned qi = 0; qi < s->params.num_queues; qi++) {
        HsaGpuQueue *q = &s->queues[qi];

        if (q->state != HSAGPU_QSTATE_DISABLED) {
            hsagpu_doorbell_listen(s, qi, q->doorbell, true);
            hsagpu_active_add(s, qi);
        }
    }
    undelivered = hsagpu_queues_undelivered(s);
    trace_hsagpu_queue_post_load(s->nactive, undelivered);
    qemu_mutex_unlock(&s->qlock);
    if (undelivered && runstate_is_running()) {
        qemu_bh_schedule(s->irq_bh);
    }
    hsagpu_queues_kick(s);
    return 0;
}

static bool hsagpu_pending_needed(void *opaque)
{
    HsaGpuState *s = opaque;

    return s->pending.any_vector || s->pending.atomic_st;
}

static int hsagpu_pending_post_load(void *opaque, int version_id)
{
    HsaGpuState *s = opaque;

    if (s->pending.atomic_st >= HSAGPU_ATOMIC_ST_COUNT) {
        error_report("hsa-gpu: migrated AtomicOp status %u is invalid",
                     s->pending.atomic_st);
        return -EINVAL;
    }
    s->pending.any_vector = !bitmap_empty(s->pending.vectors, s->msix_nr);
    return 0;
}

/*
 * Interrupts and an AtomicOp report the processor left that were not
 * delivered yet: the destination delivers them when it runs.
 */
const VMStateDescription vmstate_hsagpu_pending = {
    .name = "hsa-gpu/pending",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = hsagpu_pending_needed,
    .post_load = hsagpu_pending_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_BITMAP(pending.vectors, HsaGpuState, 1, msix_nr),
        VMSTATE_UINT32(pending.atomic_st, HsaGpuState),
        VMSTATE_UINT64(pending.atomic_addr, HsaGpuState),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_hsagpu_inflight = {
    .name = "hsa-gpu/inflight",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(start_ns, HsaGpuInflight),
        VMSTATE_UINT64(end_ns, HsaGpuInflight),
        VMSTATE_UINT64(signal, HsaGpuInflight),
        VMSTATE_UINT64(dispatch_id, HsaGpuInflight),
        VMSTATE_END_OF_LIST()
    }
};

static bool hsagpu_queue_kernel_needed(void *opaque)
{
    HsaGpuQueue *q = opaque;

    return q->kern_active;
}

/*
 * A kernel dispatch partly done (it runs in slices). A subsection, so
 * that streams without one load on older versions and the other way.
 */
static const VMStateDescription vmstate_hsagpu_queue_kernel = {
    .name = "hsa-gpu/queue/kernel",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = hsagpu_queue_kernel_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(kern_active, HsaGpuQueue),
        VMSTATE_UINT64(kern_wg, HsaGpuQueue),
        VMSTATE_UINT64(kern_start_ns, HsaGpuQueue),
        VMSTATE_END_OF_LIST()
    }
};

static bool hsagpu_queue_blit_needed(void *opaque)
{
    HsaGpuQueue *q = opaque;

    return q->kern_active && q->blit_off;
}

/*
 * The byte cursor of a blit kernel (ROCr's copy and fill) partly done. A
 * stream without it resumes such a blit from its first byte: its ranges
 * do not overlap (checked at its first slice), so copying again is safe.
 */
static const VMStateDescription vmstate_hsagpu_queue_blit = {
    .name = "hsa-gpu/queue/blit",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = hsagpu_queue_blit_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(blit_off, HsaGpuQueue),
        VMSTATE_END_OF_LIST()
    }
};

static bool hsagpu_queue_gcn_needed(void *opaque)
{
    HsaGpuQueue *q = opaque;

    return q->gcn_blob != NULL;
}

/* No larger than the largest workgroup the interpreter makes */
static bool hsagpu_queue_gcn_len_ok(void *opaque, int version_id)
{
    HsaGpuQueue *q = opaque;

    /* several with a GWS dispatch's waiting workgroups (checked on load) */
    return q->gcn_blob_len <= 256 * 1024 * 1024;
}

/*
 * A code object's workgroup in flight (its waves' registers and its LDS),
 * as bytes hsagpu_gcn_run_save() makes; checked when loaded.
 */
static const VMStateDescription vmstate_hsagpu_queue_gcn = {
    .name = "hsa-gpu/queue/gcn-workgroup",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = hsagpu_queue_gcn_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(gcn_blob_len, HsaGpuQueue),
        VMSTATE_VALIDATE("gcn workgroup size", hsagpu_queue_gcn_len_ok),
        VMSTATE_VBUFFER_ALLOC_UINT32(gcn_blob, HsaGpuQueue, 0, NULL,
                                     gcn_blob_len),
        VMSTATE_END_OF_LIST()
    }
};

static bool hsagpu_queue_gws_needed(void *opaque)
{
    HsaGpuQueue *q = opaque;

    return q->num_gws || q->gws;
}

static int hsagpu_queue_gws_pre_save(void *opaque)
{
    HsaGpuQueue *q = opaque;

    /* resources given, not used yet: their counters are all 0 */
    if (!q->gws) {
        q->gws = g_new0(HsaGpuGcnGws, 1);
    }
    return 0;
}

static int hsagpu_queue_gws_pre_load(void *opaque)
{
    HsaGpuQueue *q = opaque;

    if (!q->gws) {
        q->gws = g_new0(HsaGpuGcnGws, 1);
    }
    return 0;
}

static bool hsagpu_queue_gws_ok(void *opaque, int version_id)
{
    HsaGpuQueue *q = opaque;

    /* what the QUEUE_GWS register can hold, and the interpreter's */
    return q->gws->num <= HSAGPU_GCN_GWS_MAX && q->num_gws <= HSAGPU_GWS_MAX;
}

const VMStateDescription vmstate_hsagpu_gcn_gws = {
    .name = "hsa-gpu/queue/gws-state",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(num, HsaGpuGcnGws),
        VMSTATE_UINT32_ARRAY(counter, HsaGpuGcnGws, HSAGPU_GCN_GWS_MAX),
        VMSTATE_UINT32_ARRAY(gen, HsaGpuGcnGws, HSAGPU_GCN_GWS_MAX),
        VMSTATE_UINT32_ARRAY(waiting, HsaGpuGcnGws, HSAGPU_GCN_GWS_MAX),
        VMSTATE_END_OF_LIST()
    }
};

/*
 * The queue's global wave sync: how many resources it has and their
 * counters (a barrier's count, set by ds_gws_init in an earlier dispatch)
 */
static const VMStateDescription vmstate_hsagpu_queue_gws = {
    .name = "hsa-gpu/queue/gws",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = hsagpu_queue_gws_needed,
    .pre_save = hsagpu_queue_gws_pre_save,
    .pre_load = hsagpu_queue_gws_pre_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(num_gws, HsaGpuQueue),
        VMSTATE_STRUCT_POINTER(gws, HsaGpuQueue, vmstate_hsagpu_gcn_gws,
                               HsaGpuGcnGws),
        VMSTATE_VALIDATE("gws resources", hsagpu_queue_gws_ok),
        VMSTATE_END_OF_LIST()
    }
};

static bool hsagpu_queue_dma_needed(void *opaque)
{
    HsaGpuQueue *q = opaque;

    return q->dma_active;
}

/*
 * The DMA packet a cursor belongs to, as the device fetched it. Streams
 * without it (older versions) resume with the ring's packet if the
 * cursor fits it (hsagpu_dma_exec). Version 2: the op byte became
 * format + op (ABI minor 4); a version 1 packet would not load as one.
 */
static const VMStateDescription vmstate_hsagpu_queue_dma = {
    .name = "hsa-gpu/queue/dma-packet",
    .version_id = 2,
    .minimum_version_id = 2,
    .needed = hsagpu_queue_dma_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16(dma_pkt.header, HsaGpuQueue),
        VMSTATE_UINT8(dma_pkt.format, HsaGpuQueue),
        VMSTATE_UINT8(dma_pkt.op, HsaGpuQueue),
        VMSTATE_UINT32(dma_pkt.flags, HsaGpuQueue),
        VMSTATE_UINT64(dma_pkt.src, HsaGpuQueue),
        VMSTATE_UINT64(dma_pkt.dst, HsaGpuQueue),
        VMSTATE_UINT64(dma_pkt.size, HsaGpuQueue),
        VMSTATE_UINT64(dma_pkt.pattern, HsaGpuQueue),
        VMSTATE_UINT64_ARRAY(dma_pkt.reserved, HsaGpuQueue, 2),
        VMSTATE_UINT64(dma_pkt.completion_signal, HsaGpuQueue),
        VMSTATE_END_OF_LIST()
    }
};

static bool hsagpu_queue_vm_needed(void *opaque)
{
    HsaGpuQueue *q = opaque;

    return q->vmid || q->as_vmid || q->vm_fault_info;
}

/* GPU virtual memory: the queue's VMID and its fault. */
static const VMStateDescription vmstate_hsagpu_queue_vm = {
    .name = "hsa-gpu/queue/vm",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = hsagpu_queue_vm_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(vmid, HsaGpuQueue),
        VMSTATE_UINT32(as_vmid, HsaGpuQueue),
        VMSTATE_UINT64(vm_fault_addr, HsaGpuQueue),
        VMSTATE_UINT32(vm_fault_info, HsaGpuQueue),
        VMSTATE_END_OF_LIST()
    }
};

static bool hsagpu_queue_sdma_needed(void *opaque)
{
    HsaGpuQueue *q = opaque;

    return q->sdma_active;
}

/*
 * An SDMA COPY_LINEAR_RECT partly done: the packet as the device fetched
 * it and the next row. The rest of an SDMA ring's state (read_index in
 * bytes, the latched pointers) is in the main section.
 */
static const VMStateDescription vmstate_hsagpu_queue_sdma = {
    .name = "hsa-gpu/queue/sdma",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = hsagpu_queue_sdma_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(sdma_active, HsaGpuQueue),
        VMSTATE_UINT32_ARRAY(sdma_pkt, HsaGpuQueue, HSAGPU_SDMA_PKT_MAX_DW),
        VMSTATE_UINT64(sdma_row, HsaGpuQueue),
        VMSTATE_END_OF_LIST()
    }
};

static bool hsagpu_queue_sdma_ib_needed(void *opaque)
{
    HsaGpuQueue *q = opaque;

    return q->sdma_ib_active;
}

/*
 * The IB an SDMA INDIRECT runs (amdgpu's kernel rings): as latched from
 * the packet, and its next dword; the INDIRECT stays at read_index until
 * the IB ends. Only while one runs, so streams without it load (no IB
 * running) and ones with it are checked (hsagpu_sdma_cursor_ok).
 */
static const VMStateDescription vmstate_hsagpu_queue_sdma_ib = {
    .name = "hsa-gpu/queue/sdma-ib",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = hsagpu_queue_sdma_ib_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(sdma_ib_active, HsaGpuQueue),
        VMSTATE_UINT32(sdma_ib_vmid, HsaGpuQueue),
        VMSTATE_UINT64(sdma_ib_base, HsaGpuQueue),
        VMSTATE_UINT32(sdma_ib_size, HsaGpuQueue),
        VMSTATE_UINT32(sdma_ib_pos, HsaGpuQueue),
        VMSTATE_END_OF_LIST()
    }
};

/*
 * The write index the device last fetched and whether a doorbell asks for
 * the next fetch (hsagpu_queue_wptr()): sent for every queue in use. A
 * stream without it (an older source, which read every queue's write
 * index on every pass) gets one fetch (HSAGPU_FETCH_UNSENT, fixed up in
 * hsagpu_queues_post_load()).
 */

static bool hsagpu_queue_fetch_needed(void *opaque)
{
    HsaGpuQueue *q = opaque;

    return q->state != HSAGPU_QSTATE_DISABLED;
}

static const VMStateDescription vmstate_hsagpu_queue_fetch = {
    .name = "hsa-gpu/queue/fetch",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = hsagpu_queue_fetch_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(seen_wptr, HsaGpuQueue),
        VMSTATE_UINT8(fetch_wptr, HsaGpuQueue),
        VMSTATE_END_OF_LIST()
    }
};

static int hsagpu_queue_pre_load(void *opaque)
{
    HsaGpuQueue *q = opaque;

    q->fetch_wptr = HSAGPU_FETCH_UNSENT;
    /* sent only while an IB runs; the poll's request is not sent */
    q->sdma_ib_active = 0;
    q->sdma_poll_written = 0;
    return 0;
}

const VMStateDescription vmstate_hsagpu_queue = {
    .name = "hsa-gpu/queue",
    .version_id = 2,
    .minimum_version_id = 1,
    .pre_load = hsagpu_queue_pre_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(ring_lo, HsaGpuQueue),
        VMSTATE_UINT32(ring_hi, HsaGpuQueue),
        VMSTATE_UINT32(ring_size, HsaGpuQueue),
        VMSTATE_UINT32(doorbell, HsaGpuQueue),
        VMSTATE_UINT32(rptr_lo, HsaGpuQueue),
        VMSTATE_UINT32(rptr_hi, HsaGpuQueue),
        VMSTATE_UINT32(wptr_lo, HsaGpuQueue),
        VMSTATE_UINT32(wptr_hi, HsaGpuQueue),
        VMSTATE_UINT32(priority, HsaGpuQueue),
        VMSTATE_UINT32(vector, HsaGpuQueue),
        VMSTATE_UINT32(flags, HsaGpuQueue),
        VMSTATE_UINT32(cmd_result, HsaGpuQueue),
        VMSTATE_UINT32(state, HsaGpuQueue),
        VMSTATE_UINT32(error, HsaGpuQueue),
        VMSTATE_UINT64(error_id, HsaGpuQueue),
        VMSTATE_UINT32(retired, HsaGpuQueue),
        VMSTATE_UINT64(ring_base, HsaGpuQueue),
        VMSTATE_UINT64(rptr_addr, HsaGpuQueue),
        VMSTATE_UINT64(wptr_addr, HsaGpuQueue),
        VMSTATE_UINT64(read_index, HsaGpuQueue),
        VMSTATE_UINT64(rptr_unpublished, HsaGpuQueue),
        VMSTATE_UINT32(ninflight, HsaGpuQueue),
        VMSTATE_STRUCT_ARRAY(inflight, HsaGpuQueue,
                             HSAGPU_QUEUE_INFLIGHT_MAX, 1,
                             vmstate_hsagpu_inflight, HsaGpuInflight),
        VMSTATE_UINT32_V(dma_active, HsaGpuQueue, 2),
        VMSTATE_UINT32_V(dma_desc, HsaGpuQueue, 2),
        VMSTATE_UINT64_V(dma_off, HsaGpuQueue, 2),
        VMSTATE_UINT64_V(dma_start_ns, HsaGpuQueue, 2),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_hsagpu_queue_kernel,
        &vmstate_hsagpu_queue_blit,
        &vmstate_hsagpu_queue_dma,
        &vmstate_hsagpu_queue_gcn,
        &vmstate_hsagpu_queue_gws,
        &vmstate_hsagpu_queue_vm,
        &vmstate_hsagpu_queue_sdma,
        &vmstate_hsagpu_queue_fetch,
        &vmstate_hsagpu_queue_sdma_ib,
        NULL
    }
};

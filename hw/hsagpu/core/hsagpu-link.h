/*
 * hsa-gpu: PCIe link timing model, independent of QEMU (docs/link-model.md).
 *
 * A transfer is a flow of wire bytes (payload plus per-TLP framing and
 * header) along a path of link channels (one direction of one link).
 * Concurrent flows share each channel max-min fairly, each flow may be
 * capped by its requester or completer (read requests in flight, a root
 * complex's posted-write pace), and a flow's data arrives a fixed path
 * latency (ports, switches, the last TLP's serialization on later links)
 * after it left the first link. The model advances lazily on the virtual
 * clock: whoever asks brings it to the time they ask at.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_CORE_LINK_H
#define HW_HSAGPU_CORE_LINK_H

#include <stdbool.h>
#include <stdint.h>

#define HSAGPU_LINK_PATH_MAX    16      /* channels on one path */
/*
 * Transfers timed at once, machine-wide (two per busy queue); beyond
 * them a transfer goes untimed. Small, because the rate computation is
 * quadratic in them and runs under one lock.
 */
#define HSAGPU_LINK_CHANS_MAX   64
#define HSAGPU_LINK_FLOWS_MAX   64
#define HSAGPU_LINK_MARKS_MAX   16      /* one per in-flight packet */

/* TLP overheads in bytes: framing, sequence number, LCRC, header */
#define HSAGPU_LINK_TLP_FRAMING 8
#define HSAGPU_LINK_HDR_3DW     12      /* addresses below 4 GiB, completions */
#define HSAGPU_LINK_HDR_4DW     16

/* Data rate of one lane after line encoding, bytes per ns; 0: unknown. */
double hsagpu_link_lane_rate(unsigned gts_x10);

/* Overhead of one TLP carrying data to @addr (3DW or 4DW header). */
unsigned hsagpu_link_tlp_overhead(uint64_t addr);
#define HSAGPU_LINK_CPL_OVERHEAD (HSAGPU_LINK_TLP_FRAMING + HSAGPU_LINK_HDR_3DW)

/*
 * Wire bytes of @len bytes at @addr cut into TLPs of at most @max bytes
 * that do not cross a @max boundary, each with @overhead; *@last gets the
 * wire bytes of the last TLP.
 */
double hsagpu_link_wire(uint64_t addr, uint64_t len, uint32_t max,
                        unsigned overhead, double *last);

typedef struct HsaGpuLinkHop {
    uintptr_t key;              /* the link and the direction */
    double rate;                /* wire bytes per ns it carries */
} HsaGpuLinkHop;

typedef struct HsaGpuLinkPath {
    unsigned nhops;
    HsaGpuLinkHop hop[HSAGPU_LINK_PATH_MAX];
    double latency;             /* ns: ports, switches, completer */
    double cap;                 /* wire bytes per ns at most; 0: none */
} HsaGpuLinkPath;

typedef struct HsaGpuLinkMark {
    uint64_t id;                /* 0: free */
    double pos;                 /* drained wire bytes that complete it */
    double tail;                /* ns after that: latency, last TLP */
    double done;                /* when pos was drained, if crossed */
    bool crossed;
} HsaGpuLinkMark;

typedef struct HsaGpuLinkFlow {
    uint32_t id;                /* 0: free */
    const void *owner;          /* for dropping a device's flows */
    bool released;              /* no more bytes: free when finished */
    bool frozen;                /* rate computation scratch */
    unsigned nch;
    uint16_t ch[HSAGPU_LINK_PATH_MAX];
    double latency, cap;
    double ser_tail;            /* ns per wire byte on links after the first */
    double queued, drained;     /* wire bytes */
    double rate;                /* wire bytes per ns now */
    HsaGpuLinkMark mark[HSAGPU_LINK_MARKS_MAX];
} HsaGpuLinkFlow;

typedef struct HsaGpuLinkChan {
    uintptr_t key;
    double rate;
    unsigned users;             /* flows on it; 0: free */
    double load;                /* rate computation scratch */
    unsigned open;
} HsaGpuLinkChan;

typedef struct HsaGpuLinkModel {
    double now;                 /* ns of the virtual clock reached */
    bool stale;                 /* flows changed: rates to compute again */
    uint32_t next_id;
    uint32_t next_mark;
    HsaGpuLinkChan ch[HSAGPU_LINK_CHANS_MAX];
    HsaGpuLinkFlow fl[HSAGPU_LINK_FLOWS_MAX];
} HsaGpuLinkModel;

/* Drain every flow up to @now_ns (never backwards). */
void hsagpu_link_advance(HsaGpuLinkModel *m, uint64_t now_ns);

/* A flow along @p from @start_ns: its id, 0 when the model is full. */
uint32_t hsagpu_link_flow_new(HsaGpuLinkModel *m, const HsaGpuLinkPath *p,
                              const void *owner, uint64_t start_ns);
/* @wire more bytes to send (available since the model's time). */
void hsagpu_link_flow_add(HsaGpuLinkModel *m, uint32_t id, double wire);
/*
 * A packet's data ends where the flow's bytes end now; its last TLP
 * has @last_tlp wire bytes. The mark's handle, 0 if there is no flow.
 */
uint64_t hsagpu_link_mark(HsaGpuLinkModel *m, uint32_t id, double last_tlp);
/*
 * Advance to @now_ns; true with *@when the arrival of the mark's data
 * (the mark is then forgotten), or false with *@when its projection.
 * An unknown mark (dropped, or from before a migration): true, *@when 0.
 */
bool hsagpu_link_mark_when(HsaGpuLinkModel *m, uint64_t mark,
                           uint64_t now_ns, uint64_t *when);
/* Take back what was not sent yet, but what earlier marks wait for. */
void hsagpu_link_flow_cancel(HsaGpuLinkModel *m, uint32_t id);
/* The owner adds nothing more: freed once drained and its marks told. */
void hsagpu_link_flow_release(HsaGpuLinkModel *m, uint32_t id);
/* Forget every flow of @owner now (reset, unplug). */
void hsagpu_link_drop_owner(HsaGpuLinkModel *m, const void *owner);
/* Rate of the flow after the last advance, wire bytes per ns (tests). */
double hsagpu_link_flow_rate(HsaGpuLinkModel *m, uint32_t id);

#endif

/*
 * hsa-gpu: the context save record, what the device writes into a
 * compute queue's context save area when it is preempted with its work
 * in flight (gfx9's compute wave save/restore, CWSR; docs/vega10.md
 * "Preemption"), and reads back when the queue is mapped again.
 *
 * A gfx9 CP saves the waves through the trap handler amdkfd installs, in
 * a layout that handler defines. This device saves its own interpreter's
 * state instead, in this layout, at the same place: the area's workgroup
 * data, which starts cntl_stack_size bytes into the area
 * (CP_HQD_CTX_SAVE_BASE_ADDR + CP_HQD_CNTL_STACK_SIZE), its end in
 * CP_HQD_WG_STATE_OFFSET as on the hardware. The area is the process's
 * memory: everything read back is checked as untrusted input.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HSAGPU_CTX_H
#define HSAGPU_CTX_H

#define HSAGPU_CTX_MAGIC        0x53574348u     /* "HCWS" */
#define HSAGPU_CTX_VERSION      1u
/* What the record holds (flags) */
#define HSAGPU_CTX_DISPATCH     1u  /* the dispatch at read_index, part-done */
#define HSAGPU_CTX_GWS          2u  /* the queue's GWS counters */
#define HSAGPU_CTX_GWS_MAX      64u
/* The largest record the device reads back */
#define HSAGPU_CTX_MAX_BYTES    (64u << 20)

struct hsagpu_ctx_record {
    uint32_t magic;
    uint32_t version;
    uint32_t length;            /* bytes: this header and the state */
    uint32_t flags;
    /* HSAGPU_CTX_DISPATCH: the packet, as it was, and where it got to */
    uint64_t read_index;
    uint64_t kern_wg;           /* next workgroup to start */
    uint64_t blit_off;
    uint64_t kern_start_ns;
    uint8_t packet[64];
    /* HSAGPU_CTX_GWS: each resource's counter, generation, waiters */
    uint32_t gws_num;
    uint32_t gws_counter[HSAGPU_CTX_GWS_MAX];
    uint32_t gws_gen[HSAGPU_CTX_GWS_MAX];
    uint32_t gws_waiting[HSAGPU_CTX_GWS_MAX];
    /* then state_len bytes: the workgroups in flight (interpreter's) */
    uint32_t state_len;
    uint32_t reserved;
};

#endif

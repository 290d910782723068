/*
 * hsa-gpu: AMD's PM4_IB vendor AQL packet, independent of QEMU.
 *
 * ROCr (AqlQueue::ExecutePM4, gfx9 and later) puts a PM4 INDIRECT_BUFFER
 * packet into an AQL packet of format 1 and points it at a small buffer
 * of PM4 commands; the only commands it sends are cache actions
 * (ACQUIRE_MEM, from GpuAgent::InvalidateCodeCaches). This device has
 * no caches that could hold stale lines, so an ACQUIRE_MEM has nothing
 * to do but is checked and counted. Anything else a real command
 * processor would run (type-0 register writes, type-2 fillers, other
 * opcodes) fails the queue with a code that says what was wrong, so
 * that a runtime that relies on more than this fails loudly instead of
 * silently getting nothing done.
 *
 * The buffer is read through the queue's address space, like every
 * other access of the queue.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-cp.h"

_Static_assert(sizeof(struct hsagpu_pm4_ib_packet) == HSAGPU_AQL_PACKET_SIZE,
               "PM4_IB packet size");
_Static_assert(offsetof(struct hsagpu_pm4_ib_packet, ib_jump_cmd) == 4,
               "PM4_IB ib_jump_cmd");
_Static_assert(offsetof(struct hsagpu_pm4_ib_packet, completion_signal) ==
               56, "PM4_IB completion_signal");

static unsigned hsagpu_pm4_type(uint32_t h)
{
    return h >> HSAGPU_PM4_TYPE_SHIFT;
}

static unsigned hsagpu_pm4_opcode(uint32_t h)
{
    return (h >> HSAGPU_PM4_OPCODE_SHIFT) & HSAGPU_PM4_OPCODE_MASK;
}

/* Dwords of a type-3 packet, header included. */
static uint32_t hsagpu_pm4_len(uint32_t h)
{
    return ((h >> HSAGPU_PM4_COUNT_SHIFT) & HSAGPU_PM4_COUNT_MASK) + 2;
}

unsigned hsagpu_pm4_ib_decode(const struct hsagpu_pm4_ib_packet *pk,
                              uint64_t *base, uint32_t *ndw)
{
    const uint32_t *j = pk->ib_jump_cmd;

    if (hsagpu_pm4_type(j[0]) != HSAGPU_PM4_TYPE3 ||
        hsagpu_pm4_opcode(j[0]) != HSAGPU_PM4_OP_INDIRECT_BUFFER ||
        hsagpu_pm4_len(j[0]) != 4) {
        return HSAGPU_QERR_PM4_IB;
    }
    /* The base is dword aligned: bits 1:0 of dw1 are not address bits. */
    if ((j[1] & 3) || (j[2] & ~HSAGPU_PM4_IB_BASE_HI_MASK) ||
        !(j[3] & HSAGPU_PM4_IB_VALID)) {
        return HSAGPU_QERR_PM4_IB;
    }
    *base = (uint64_t)j[2] << 32 | j[1];
    *ndw = j[3] & HSAGPU_PM4_IB_SIZE_MASK;
    if (!*base || !*ndw || *ndw > HSAGPU_PM4_IB_MAX_DW) {
        return HSAGPU_QERR_PM4_IB;
    }
    return 0;
}

unsigned hsagpu_pm4_exec(const struct hsagpu_pm4_ib_packet *pk,
                         const HsaGpuProc *p, unsigned *cache_invs)
{
    /* On the stack: each device has its own processor thread. */
    uint32_t ib[HSAGPU_PM4_IB_MAX_DW];
    uint64_t base;
    uint32_t ndw, i, len;
    unsigned err, invs = 0;

    *cache_invs = 0;
    err = hsagpu_pm4_ib_decode(pk, &base, &ndw);
    if (err) {
        return err;
    }
    err = hsagpu_read_data(p, HSAGPU_VM_CLIENT_PACKET, base, ib,
                           (uint64_t)ndw * sizeof(ib[0]));
    if (err) {
        return err;
    }
    /* Check the whole buffer before acting on any of it. */
    for (i = 0; i < ndw; i += len) {
        uint32_t h = ib[i];

        if (hsagpu_pm4_type(h) != HSAGPU_PM4_TYPE3) {
            return HSAGPU_QERR_PM4_PACKET;
        }
        len = hsagpu_pm4_len(h);
        if (len > ndw - i) {
            return HSAGPU_QERR_PM4_PACKET;
        }
        switch (hsagpu_pm4_opcode(h)) {
        case HSAGPU_PM4_OP_NOP:
            break;
        case HSAGPU_PM4_OP_ACQUIRE_MEM:
            /* gfx9's form; gfx10's is 8 dwords with other fields. */
            if (len != HSAGPU_PM4_ACQUIRE_MEM_DW) {
                return HSAGPU_QERR_PM4_PACKET;
            }
            /*
             * Caches: none to invalidate or write back, since every
             * access of the device goes straight to memory.
             */
            invs++;
            break;
        default:
            return HSAGPU_QERR_PM4_PACKET;
        }
    }
    *cache_invs = invs;
    return 0;
}

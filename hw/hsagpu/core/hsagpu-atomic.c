/*
 * hsa-gpu: PCIe AtomicOp rules and execution, independent of QEMU.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-core.h"

unsigned hsagpu_atomic_size(uint32_t ctrl)
{
    switch (ctrl & HSAGPU_ATOMIC_SIZE_MASK) {
    case HSAGPU_ATOMIC_SIZE_32:
        return 4;
    case HSAGPU_ATOMIC_SIZE_64:
        return 8;
    case HSAGPU_ATOMIC_SIZE_128:
        /* 128-bit operands exist only for CAS. */
        return (ctrl & HSAGPU_ATOMIC_OP_MASK) == HSAGPU_ATOMIC_OP_CAS ? 16 : 0;
    }
    return 0;
}

unsigned hsagpu_atomic_check(uint64_t addr, uint32_t ctrl)
{
    unsigned size = hsagpu_atomic_size(ctrl);

    if ((ctrl & HSAGPU_ATOMIC_OP_MASK) > HSAGPU_ATOMIC_OP_CAS || !size ||
        (addr & (size - 1))) {
        return HSAGPU_ATOMIC_ST_MALFORMED;
    }
    return 0;
}

unsigned hsagpu_atomic_route(const HsaGpuPathHop *hops, int nhops,
                             uint32_t completer_devcap2, unsigned size)
{
    uint32_t need = size == 4 ? HSAGPU_DEVCAP2_ATOMIC_COMP32 :
                    size == 8 ? HSAGPU_DEVCAP2_ATOMIC_COMP64 :
                                HSAGPU_DEVCAP2_ATOMIC_COMP128;

    for (int i = 0; i < nhops; i++) {
        const HsaGpuPathHop *h = &hops[i];

        if (h->routes && !(h->devcap2 & HSAGPU_DEVCAP2_ATOMIC_ROUTE)) {
            return HSAGPU_ATOMIC_ST_UR;
        }
        if (h->egress && (h->devctl2 & HSAGPU_DEVCTL2_ATOMIC_EGRESS_BLOCK)) {
            return HSAGPU_ATOMIC_ST_UR;
        }
    }
    return (completer_devcap2 & need) ? 0 : HSAGPU_ATOMIC_ST_UR;
}

/*
 * 128-bit CAS must be one host instruction to be atomic against vCPUs
 * running guest cmpxchg16b; elsewhere rely on the compiler's builtin.
 */
#if defined(__x86_64__)
static unsigned __int128 cas128(unsigned __int128 *p, unsigned __int128 cmp,
                                unsigned __int128 val)
{
    uint64_t lo = (uint64_t)cmp, hi = (uint64_t)(cmp >> 64);

    __asm__ __volatile__("lock cmpxchg16b %0"
                         : "+m"(*p), "+a"(lo), "+d"(hi)
                         : "b"((uint64_t)val), "c"((uint64_t)(val >> 64))
                         : "memory", "cc");
    return ((unsigned __int128)hi << 64) | lo;
}
#else
static unsigned __int128 cas128(unsigned __int128 *p, unsigned __int128 cmp,
                                unsigned __int128 val)
{
    __atomic_compare_exchange_n(p, &cmp, val, 0, __ATOMIC_SEQ_CST,
                                __ATOMIC_SEQ_CST);
    return cmp;
}
#endif

/* FetchAdd, Swap and CAS on 32- and 64-bit operands; returns the old value */
#define HSAGPU_DEFINE_ATOMIC(bits, type)                                    \
static uint64_t hsagpu_atomic##bits(void *ptr, unsigned op, uint64_t a64,   \
                                    uint64_t b64)                           \
{                                                                           \
    type *p = ptr;                                                          \
    type a = a64, b = b64;                                                  \
                                                                            \
    if (op == HSAGPU_ATOMIC_OP_FETCHADD) {                                  \
        return __atomic_fetch_add(p, a, __ATOMIC_SEQ_CST);                  \
    }                                                                       \
    if (op == HSAGPU_ATOMIC_OP_SWAP) {                                      \
        return __atomic_exchange_n(p, a, __ATOMIC_SEQ_CST);                 \
    }                                                                       \
    __atomic_compare_exchange_n(p, &a, b, 0, __ATOMIC_SEQ_CST,              \
                                __ATOMIC_SEQ_CST);                          \
    return a;                                                               \
}

HSAGPU_DEFINE_ATOMIC(32, uint32_t)
HSAGPU_DEFINE_ATOMIC(64, uint64_t)

void hsagpu_atomic_exec(void *ptr, uint32_t ctrl, const uint64_t src0[2],
                        const uint64_t src1[2], uint64_t result[2])
{
    unsigned op = ctrl & HSAGPU_ATOMIC_OP_MASK;
    unsigned size = hsagpu_atomic_size(ctrl);

    result[1] = 0;
    if (size == 4) {
        result[0] = hsagpu_atomic32(ptr, op, src0[0], src1[0]);
    } else if (size == 8) {
        result[0] = hsagpu_atomic64(ptr, op, src0[0], src1[0]);
    } else {
        unsigned __int128 cmp = ((unsigned __int128)src0[1] << 64) | src0[0];
        unsigned __int128 val = ((unsigned __int128)src1[1] << 64) | src1[0];
        unsigned __int128 old = cas128(ptr, cmp, val);

        result[0] = (uint64_t)old;
        result[1] = (uint64_t)(old >> 64);
    }
}

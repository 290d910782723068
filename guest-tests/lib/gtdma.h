/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the DMA engine tests and benchmark (t-dma, t-p2p,
 * bench-dma): DMA packets, the traffic counters, data patterns. PCI
 * config space, BARs and IOMMU groups are gtpci.h's.
 * Compiled into the gt library (lib/gtdma.c).
 */
#ifndef HSAGPU_GTDMA_H
#define HSAGPU_GTDMA_H

#include <fcntl.h>
#include <stdlib.h>

#include "gtpci.h"
#include "gtq.h"

#define GTD_NONE ((hsagpu_signal_t){ 0 })
#define GTD_DMA_HDR(barrier) GTQ_HDR(HSAGPU_PKT_TYPE_VENDOR_SPECIFIC, (barrier))

/* Boot parameters from the harness (hsagpu_test.p2p / .iommu). */
const char *gtd_p2p_mode(void);

int gtd_iommu_expected(void);

/* Submit a fully built DMA packet; returns its dispatch id. */
int64_t gtd_submit(hsagpu_queue_t *q,
		   const struct hsagpu_dma_packet *pkt,
		   int barrier);

int64_t gtd_copy(hsagpu_queue_t *q, uint64_t dst, uint64_t src,
		 uint64_t size, hsagpu_signal_t sig);

int64_t gtd_fill(hsagpu_queue_t *q, uint64_t dst,
		 uint32_t pattern, uint64_t size,
		 hsagpu_signal_t sig);

/* Run one packet to completion (signal created, waited on, destroyed). */
int gtd_run_copy(struct gtq_dev *d, hsagpu_queue_t *q,
		 uint64_t dst, uint64_t src, uint64_t size,
		 unsigned int ms);

/* Queue state after an expected failure: polls up to 3 s for ERROR. */
int gtd_wait_error(hsagpu_queue_t *q, uint32_t *err,
		   uint64_t *eid);

/* Traffic counters --------------------------------------------------- */

#define GTD_NCNT (HSAGPU_DMA_CLASS_COUNT * 4)

struct gtd_cnt {
	uint64_t v[GTD_NCNT];
};

uint64_t gtd_reg64(struct gtq_dev *d, uint32_t off);

void gtd_counters(struct gtq_dev *d, struct gtd_cnt *c);

extern const char *const gtd_cnt_name[GTD_NCNT];

/*
 * Check that the counters moved by exactly @want since @before; returns
 * the number of mismatches (each one a failed check).
 */
int gtd_check_delta(struct gtq_dev *d, const struct gtd_cnt *before,
		    const uint64_t want[GTD_NCNT], const char *what);

/* TLPs for @len bytes at @addr when none may cross a @max boundary. */
uint64_t gtd_tlps(uint64_t addr, uint64_t len, uint32_t max);

/* Data --------------------------------------------------------------- */

uint64_t gtd_mix(uint64_t x);

/* Pseudo-random bytes, a different stream per @seed. */
void gtd_pattern(void *p, size_t n, uint64_t seed);

/* Index of the first byte != @v in [p, p + n), or n. */
size_t gtd_find_not(const volatile void *p, size_t n, uint8_t v);

/* Index of the first differing byte, or n. */
size_t gtd_diff(const volatile void *a, const volatile void *b,
		size_t n);

/*
 * Does [p, p + n) hold the fill pattern (byte k = byte k % 4 of
 * @pattern)? Returns the first wrong index, or n.
 */
size_t gtd_check_fill(const volatile void *p, size_t n,
		      uint32_t pattern);

#endif

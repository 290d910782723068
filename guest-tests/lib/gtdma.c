// SPDX-License-Identifier: GPL-2.0-or-later
/* DMA helpers of the guest tests: see gtdma.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gtdma.h"

const char *gtd_p2p_mode(void)
{
	static char mode[16];
	const char *s = gt_param("p2p");   /* gt_param's buffer is reused */

	snprintf(mode, sizeof(mode), "%s", s ? s : "none");
	return mode;
}

int gtd_iommu_expected(void)
{
	const char *s = gt_param("iommu");

	return s && s[0] == '1';
}

int64_t gtd_submit(hsagpu_queue_t *q,
		   const struct hsagpu_dma_packet *pkt,
		   int barrier)
{
	int64_t id = hsagpu_queue_submit(q, pkt, GTD_DMA_HDR(barrier));

	CHECK(id >= 0, "submit DMA op %u: %lld", pkt->op, (long long)id);
	return id;
}

int64_t gtd_copy(hsagpu_queue_t *q, uint64_t dst, uint64_t src,
		 uint64_t size, hsagpu_signal_t sig)
{
	struct hsagpu_dma_packet pkt;

	memset(&pkt, 0, sizeof(pkt));
	hsagpu_packet_dma_copy(&pkt, dst, src, size, sig);
	return gtd_submit(q, &pkt, 0);
}

int64_t gtd_fill(hsagpu_queue_t *q, uint64_t dst,
		 uint32_t pattern, uint64_t size,
		 hsagpu_signal_t sig)
{
	struct hsagpu_dma_packet pkt;

	memset(&pkt, 0, sizeof(pkt));
	hsagpu_packet_dma_fill(&pkt, dst, pattern, size, sig);
	return gtd_submit(q, &pkt, 0);
}

int gtd_run_copy(struct gtq_dev *d, hsagpu_queue_t *q,
		 uint64_t dst, uint64_t src, uint64_t size,
		 unsigned int ms)
{
	hsagpu_signal_t s = gtq_signal(d, 1);
	int ok;

	gtd_copy(q, dst, src, size, s);
	ok = gtq_wait_eq(s, 0, ms);
	CHECK(ok, "copy 0x%llx -> 0x%llx, %llu bytes: signal %lld after %u ms",
	      (unsigned long long)src, (unsigned long long)dst,
	      (unsigned long long)size, (long long)gtq_value(s), ms);
	hsagpu_signal_destroy(s);
	return ok;
}

int gtd_wait_error(hsagpu_queue_t *q, uint32_t *err,
		   uint64_t *eid)
{
	int state = -1;

	for (int i = 0; i < 300; i++) {
		state = hsagpu_queue_state(q, err, eid);
		if (state == HSAGPU_QSTATE_ERROR)
			break;
		gtq_sleep_ms(10);
	}
	return state;
}

uint64_t gtd_reg64(struct gtq_dev *d, uint32_t off)
{
	if (!d->regs)
		return 0;
	return *(volatile uint64_t *)((volatile uint8_t *)d->regs + off);
}

void gtd_counters(struct gtq_dev *d, struct gtd_cnt *c)
{
	for (unsigned int cls = 0; cls < HSAGPU_DMA_CLASS_COUNT; cls++)
		for (unsigned int n = 0; n < 4; n++)
			c->v[cls * 4 + n] = gtd_reg64(d, HSAGPU_REG_DMA_CNT(cls, n));
}

const char *const gtd_cnt_name[GTD_NCNT] = {
	"SYSTEM rd_reqs", "SYSTEM rd_bytes", "SYSTEM wr_tlps", "SYSTEM wr_bytes",
	"PEER rd_reqs", "PEER rd_bytes", "PEER wr_tlps", "PEER wr_bytes",
	"LOCAL rd_reqs", "LOCAL rd_bytes", "LOCAL wr_tlps", "LOCAL wr_bytes",
};

int gtd_check_delta(struct gtq_dev *d, const struct gtd_cnt *before,
		    const uint64_t want[GTD_NCNT], const char *what)
{
	struct gtd_cnt now;
	int bad = 0;

	gtd_counters(d, &now);
	for (int i = 0; i < GTD_NCNT; i++) {
		uint64_t got = now.v[i] - before->v[i];

		if (got != want[i]) {
			bad++;
			CHECK(got == want[i], "%s: %s %s advanced by %llu, expected %llu",
			      d->pci, what, gtd_cnt_name[i],
			      (unsigned long long)got, (unsigned long long)want[i]);
		}
	}
	return bad;
}

uint64_t gtd_tlps(uint64_t addr, uint64_t len, uint32_t max)
{
	return len ? (addr + len - 1) / max - addr / max + 1 : 0;
}

uint64_t gtd_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void gtd_pattern(void *p, size_t n, uint64_t seed)
{
	uint8_t *b = p;
	uint64_t x = gtd_mix(seed), w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w = x;
		memcpy(b + i, &w, 8);
	}
	for (; i < n; i++)
		b[i] = (uint8_t)gtd_mix(seed + i);
}

size_t gtd_find_not(const volatile void *p, size_t n, uint8_t v)
{
	const volatile uint8_t *b = p;
	uint64_t w = 0x0101010101010101ULL * v;
	size_t i = 0;

	while (i < n && ((uintptr_t)(b + i) & 7))
		if (b[i++] != v)
			return i - 1;
	for (; i + 8 <= n; i += 8)
		if (*(const volatile uint64_t *)(b + i) != w)
			break;
	for (; i < n; i++)
		if (b[i] != v)
			return i;
	return n;
}

size_t gtd_diff(const volatile void *a, const volatile void *b,
		size_t n)
{
	const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;
	size_t i = 0, step = 4096;

	while (i < n) {
		size_t m = n - i < step ? n - i : step;

		if (memcmp(x + i, y + i, m)) {
			for (size_t k = 0; k < m; k++)
				if (x[i + k] != y[i + k])
					return i + k;
		}
		i += m;
	}
	return n;
}

size_t gtd_check_fill(const volatile void *p, size_t n,
		      uint32_t pattern)
{
	static uint8_t ref[4096];
	static uint32_t ref_pattern;
	static int ref_ok;
	const uint8_t *b = (const uint8_t *)p;
	size_t i = 0;

	if (!ref_ok || ref_pattern != pattern) {
		for (int k = 0; k < 4096; k++)
			ref[k] = pattern >> (8 * (k % 4));
		ref_pattern = pattern;
		ref_ok = 1;
	}
	while (i < n) {
		size_t m = n - i < 4096 ? n - i : 4096;

		if (memcmp(b + i, ref, m)) {
			for (size_t k = 0; k < m; k++)
				if (b[i + k] != ref[k])
					return i + k;
		}
		i += m;
	}
	return n;
}

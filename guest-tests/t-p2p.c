// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Peer-to-peer DMA between hsa-gpus (boots with two or more devices):
 * PEER_ACCESS gives the route the topology dictates (hsagpu_test.p2p:
 * "switch" = the peer's BAR0 through a common switch, "root" = through
 * the root complex, translated when an IOMMU is on); VRAM -> peer VRAM,
 * system -> peer VRAM, peer VRAM -> system and VRAM (guards checked, the
 * PEER counters equal the MPS/MRRS arithmetic plus the flush read);
 * a chain host -> dev0 -> dev1 -> ... -> devN-1 -> host, each hop a DMA
 * on the receiving device's queue behind a BARRIER_AND on the previous
 * hop's completion signal, everything submitted before a gate opens,
 * final data == source; flag-after-data ordering over many iterations;
 * on "limit" boots P2P_STATUS is not OK and P2P packets fail with
 * QERR_P2P_LIMIT while local DMA works; on IOMMU boots DMA is translated
 * (dma_flags) and, through the root complex, an untranslated peer BAR
 * address is refused. Skips with fewer than two devices with queues.
 *
 * With GPU virtual memory own memory is named by plain pointers; a
 * peer's VRAM is not this device's memory at the CPU address the peer's
 * file mapped it at, but in the window PEER_ACCESS put in this file's
 * space: hsagpu_addr() gives that (the identity for every other
 * pointer). A raw peer BAR address is then only an unmapped number: a
 * VM fault at that address.
 */
#include "gtdma.h"
#include "gtioctl.h"

#define G 4096
#define BUF (8 << 20)                   /* VRAM and system buffer per device */
#define CHAIN_BYTES ((5 << 20) + 123)   /* more than one 4 MiB slice */
#define FLAG_ITERS 200
#define MS 20000

struct pdev {
	struct gtq_dev d;
	int ok;
	hsagpu_queue_t *q;
	volatile uint8_t *vram;         /* BUF + 2 G of VRAM */
	uint8_t *sys;                   /* BUF + 2 G of system memory */
	uint8_t *pat;                   /* BUF of pattern, system memory */
	hsagpu_dma_list_t *list[2];
	uint64_t bar0, bar0_size;
	int group;                      /* IOMMU group or -1 */
};

static struct pdev devs[GT_MAX_DEVS];
static int ndev;
static const char *mode;
static int iommu;

static int peer_access(struct pdev *a, struct pdev *b,
		       struct hsagpu_peer_access *pa)
{
	return -gti_peer_access(hsagpu_agent_fd(a->d.agent),
				hsagpu_agent_fd(b->d.agent), pa);
}

/* PEER_ACCESS and hsagpu_agent_enable_peer for a -> b; 1 when usable. */
static int enable(struct pdev *a, struct pdev *b)
{
	struct hsagpu_peer_access pa, again;
	uint32_t flags = 0;
	int ret = peer_access(a, b, &pa), ret2;

	CHECK(ret == 0, "%s -> %s: PEER_ACCESS %d", a->d.pci, b->d.pci, ret);
	if (ret)
		return 0;
	CHECK(pa.vram_size == b->d.info->vram_size, "%s -> %s: vram_size %llu",
	      a->d.pci, b->d.pci, (unsigned long long)pa.vram_size);
	CHECK(pa.peer_bar_addr == b->bar0, "%s -> %s: peer_bar_addr 0x%llx, BAR0 0x%llx",
	      a->d.pci, b->d.pci, (unsigned long long)pa.peer_bar_addr,
	      (unsigned long long)b->bar0);
	CHECK(pa.peer_p2p_status == gtq_reg(&b->d, HSAGPU_REG_P2P_STATUS),
	      "%s -> %s: peer_p2p_status 0x%x, register 0x%x", a->d.pci, b->d.pci,
	      pa.peer_p2p_status, gtq_reg(&b->d, HSAGPU_REG_P2P_STATUS));
	if (!strcmp(mode, "switch") || !strcmp(mode, "limit")) {
		CHECK(pa.flags == HSAGPU_PEER_VIA_SWITCH,
		      "%s -> %s: flags 0x%x, expected VIA_SWITCH only", a->d.pci,
		      b->d.pci, pa.flags);
		CHECK(a->d.vm || pa.vram_addr == b->bar0,
		      "%s -> %s: via a switch at 0x%llx, not BAR0 0x%llx",
		      a->d.pci, b->d.pci, (unsigned long long)pa.vram_addr,
		      (unsigned long long)b->bar0);
	} else if (!strcmp(mode, "root")) {
		uint32_t want = HSAGPU_PEER_VIA_ROOT | (iommu ? HSAGPU_PEER_IOMMU : 0);

		CHECK(pa.flags == want, "%s -> %s: flags 0x%x, expected 0x%x", a->d.pci,
		      b->d.pci, pa.flags, want);
		if (!iommu && !a->d.vm)
			CHECK(pa.vram_addr == b->bar0,
			      "%s -> %s: untranslated at 0x%llx, not BAR0 0x%llx", a->d.pci,
			      b->d.pci, (unsigned long long)pa.vram_addr,
			      (unsigned long long)b->bar0);
	}
	/* GPU VM: the window, in the driver aperture */
	if (a->d.vm)
		CHECK(pa.vram_addr >= HSAGPU_VM_APERTURE_BASE &&
		      pa.vram_addr + pa.vram_size - 1 <= HSAGPU_VM_APERTURE_END,
		      "%s -> %s: window 0x%llx outside the aperture", a->d.pci,
		      b->d.pci, (unsigned long long)pa.vram_addr);
	ret = peer_access(a, b, &again);
	CHECK(ret == 0 && again.vram_addr == pa.vram_addr && again.flags == pa.flags,
	      "%s -> %s: asking again gave %d, 0x%llx flags 0x%x", a->d.pci, b->d.pci,
	      ret, (unsigned long long)again.vram_addr, again.flags);
	ret2 = hsagpu_agent_enable_peer(a->d.agent, b->d.agent, &flags);
	CHECK(ret2 == 0 && flags == pa.flags, "%s -> %s: enable_peer %d flags 0x%x",
	      a->d.pci, b->d.pci, ret2, flags);
	return ret2 == 0;
}

/* Run @pkt-style copy via the runtime on a's queue, wait. */
static int copy_on(struct pdev *a, void *dst, const void *src, size_t n,
		   int list)
{
	hsagpu_signal_t s = gtq_signal(&a->d, 1);
	int64_t id = hsagpu_dma_copy(a->q, a->list[list], dst, src, n, s);
	int ok = id >= 0 && gtq_wait_eq(s, 0, MS);

	if (!ok) {
		uint32_t err = 0;
		uint64_t eid = 0;
		int st = hsagpu_queue_state(a->q, &err, &eid);

		CHECK(ok, "%s: copy of %zu bytes: id %lld, signal %lld, queue state %d error %u",
		      a->d.pci, n, (long long)id, (long long)gtq_value(s), st, err);
	}
	hsagpu_signal_destroy(s);
	return ok;
}

/*
 * One copy on @a's queue, destination poisoned with guards around it;
 * data, guards and @a's counters checked.
 */
static void pcopy(struct pdev *a, const char *what, volatile uint8_t *dst,
		  const uint8_t *src, size_t n, int peer_write, int src_cls,
		  int dst_cls)
{
	struct gtd_cnt c0;
	uint64_t want[GTD_NCNT] = { 0 };
	uint32_t mps = gtq_reg(&a->d, HSAGPU_REG_LINK_MPS);
	uint32_t mrrs = gtq_reg(&a->d, HSAGPU_REG_LINK_MRRS);
	/* either may be the peer's VRAM: its window address */
	uint64_t sbus = hsagpu_addr(a->d.agent, src);
	uint64_t dbus = hsagpu_addr(a->d.agent, (const void *)dst);
	uint32_t pk0, pk1;
	size_t k;

	CHECK(sbus && dbus, "%s: no bus address (src 0x%llx, dst 0x%llx)", what,
	      (unsigned long long)sbus, (unsigned long long)dbus);
	if (!sbus || !dbus)
		return;
	memset((void *)(dst - G), 0xa5, n + 2 * G);
	__sync_synchronize();
	gtd_counters(&a->d, &c0);
	pk0 = gtq_reg(&a->d, HSAGPU_REG_DMA_PACKETS);
	if (!copy_on(a, (void *)dst, src, n, 0))
		return;
	pk1 = gtq_reg(&a->d, HSAGPU_REG_DMA_PACKETS);
	k = gtd_diff(dst, src, n);
	CHECK(k == n, "%s: byte %zu of %zu differs (DMA_PACKETS +%u at the signal)", what,
	      k, n, pk1 - pk0);
	if (k != n) {
		/* late data means the completion signal came before it */
		gtq_sleep_ms(500);
		DIAG("%s: 500 ms later: first difference at %zu, DMA_PACKETS +%u", what,
		     gtd_diff(dst, src, n), gtq_reg(&a->d, HSAGPU_REG_DMA_PACKETS) - pk0);
		return;
	}
	CHECK(gtd_find_not(dst - G, G, 0xa5) == G && gtd_find_not(dst + n, G, 0xa5) == G,
	      "%s: guard bytes overwritten", what);
	/* counters: exact for one contiguous range below a slice */
	if (n >= (4 << 20) ||
	    hsagpu_addr(a->d.agent, src + n - 1) != sbus + n - 1 ||
	    hsagpu_addr(a->d.agent, (const void *)(dst + n - 1)) != dbus + n - 1)
		return;
	if (src_cls != HSAGPU_DMA_CLASS_LOCAL)
		want[src_cls * 4 + HSAGPU_DMA_CNT_RD_REQS] = gtd_tlps(sbus, n, mrrs);
	want[src_cls * 4 + HSAGPU_DMA_CNT_RD_BYTES] = n;
	if (dst_cls != HSAGPU_DMA_CLASS_LOCAL)
		want[dst_cls * 4 + HSAGPU_DMA_CNT_WR_TLPS] = gtd_tlps(dbus, n, mps);
	want[dst_cls * 4 + HSAGPU_DMA_CNT_WR_BYTES] = n;
	if (peer_write)         /* the flush: one zero-length read */
		want[HSAGPU_DMA_CLASS_PEER * 4 + HSAGPU_DMA_CNT_RD_REQS]++;
	gtd_check_delta(&a->d, &c0, want, what);
}

#define SYS HSAGPU_DMA_CLASS_SYSTEM
#define PEER HSAGPU_DMA_CLASS_PEER
#define LOCAL HSAGPU_DMA_CLASS_LOCAL

static void test_pair(struct pdev *a, struct pdev *b, int big)
{
	char what[96];
	size_t n = (1 << 20) + 3;

	if (!enable(a, b))
		return;
	snprintf(what, sizeof(what), "%s vram -> %s vram", a->d.pci, b->d.pci);
	pcopy(a, what, b->vram + G + 1, (uint8_t *)a->vram + G + 7, n, 1, LOCAL, PEER);
	snprintf(what, sizeof(what), "%s sys -> %s vram", a->d.pci, b->d.pci);
	pcopy(a, what, b->vram + G + 4093, a->pat + 5, n, 1, SYS, PEER);
	snprintf(what, sizeof(what), "%s: %s vram -> sys", a->d.pci, b->d.pci);
	pcopy(a, what, a->sys + G + 3, (uint8_t *)b->vram + G + 4093, n, 0, PEER, SYS);
	snprintf(what, sizeof(what), "%s: %s vram -> own vram", a->d.pci, b->d.pci);
	pcopy(a, what, a->vram + G, (uint8_t *)b->vram + G + 1, 65536 + 1, 0, PEER,
	      LOCAL);
	snprintf(what, sizeof(what), "%s vram -> %s vram, 64 bytes", a->d.pci, b->d.pci);
	pcopy(a, what, b->vram + G + 17, (uint8_t *)a->vram + G + 1, 64, 1, LOCAL, PEER);
	if (big) {
		snprintf(what, sizeof(what), "%s vram -> %s vram, %d MiB", a->d.pci,
			 b->d.pci, BUF >> 20);
		pcopy(a, what, b->vram + G, (uint8_t *)a->vram + G, BUF, 1, LOCAL, PEER);
	}
	DIAG("%s <-> %s: peer copies checked", a->d.pci, b->d.pci);
}

/* Can device @b read a signal that device @a's agent allocated? */
static int signal_reachable(struct pdev *a, struct pdev *b)
{
	return !iommu || (a->group >= 0 && a->group == b->group);
}

/*
 * host -> dev0 -> dev1 -> ... -> devN-1 -> host. Hop k (k < N) runs on
 * device k (it pulls from device k-1), the last hop on device 0 (it
 * pulls from device N-1 into system memory). Each hop waits for the
 * previous with a BARRIER_AND where the device can read the previous
 * hop's signal (no IOMMU, or one IOMMU group), else the CPU waits.
 */
static void test_chain(void)
{
	int hops = ndev + 1;
	hsagpu_signal_t sig[GT_MAX_DEVS + 1], gate;
	struct pdev *dev0 = &devs[0];
	uint8_t *src = dev0->pat + 11, *dst = dev0->sys + G + 1;
	size_t n = CHAIN_BYTES;
	int gate_open = 0, cpu_hops = 0, bad = 0;

	for (int k = 1; k < ndev; k++)
		if (!enable(&devs[k], &devs[k - 1]))
			return;
	if (!enable(dev0, &devs[ndev - 1]))
		return;
	gate = gtq_signal(&dev0->d, 1);
	memset((void *)(dst - G), 0xa5, n + 2 * G);
	for (int k = 0; k < ndev; k++)
		memset((void *)devs[k].vram, 0x5a, n + 2 * G);
	__sync_synchronize();
	for (int k = 0; k < hops; k++) {
		struct pdev *p = k < ndev ? &devs[k] : dev0;
		struct pdev *prev = k ? &devs[k - 1] : dev0;
		void *to = k < ndev ? (void *)(p->vram + G + k * 3) : dst;
		const void *from = k ? (const void *)(prev->vram + G + (k - 1) * 3) : src;
		hsagpu_signal_t dep = k ? sig[k - 1] : gate;
		int64_t id;

		sig[k] = gtq_signal(&p->d, 1);
		if (k && !signal_reachable(prev, p)) {
			/* the CPU stands in for the barrier */
			if (!gate_open) {
				hsagpu_signal_store_release(gate, 0);
				gate_open = 1;
			}
			CHECK(gtq_wait_eq(sig[k - 1], 0, MS), "chain hop %d did not finish",
			      k - 1);
			cpu_hops++;
		} else {
			gtq_barrier(p->q, HSAGPU_PKT_TYPE_BARRIER_AND, &dep, 1, GTD_NONE, 0);
		}
		id = hsagpu_dma_copy(p->q, p->list[k == ndev], to, from, n, sig[k]);
		CHECK(id >= 0, "chain hop %d on %s: %lld", k, p->d.pci, (long long)id);
	}
	if (!gate_open) {
		/* nothing may run before the gate opens */
		gtq_sleep_ms(100);
		for (int k = 0; k < hops; k++)
			CHECK(gtq_value(sig[k]) == 1, "chain hop %d ran before its barrier", k);
		CHECK(gtd_find_not(dst, n, 0xa5) == n, "chain: data arrived before the gate");
		hsagpu_signal_store_release(gate, 0);
	}
	CHECK(gtq_wait_eq(sig[hops - 1], 0, MS * 2), "chain: last hop signal %lld",
	      (long long)gtq_value(sig[hops - 1]));
	for (int k = 0; k < ndev; k++) {
		size_t i = gtd_diff(devs[k].vram + G + k * 3, src, n);

		if (i != n && bad++ < 3)
			CHECK(0, "chain: %s VRAM differs from the source at byte %zu",
			      devs[k].d.pci, i);
	}
	CHECK(gtd_diff(dst, src, n) == n, "chain: final data differs from the source at %zu",
	      gtd_diff(dst, src, n));
	CHECK(gtd_find_not(dst - G, G, 0xa5) == G && gtd_find_not(dst + n, G, 0xa5) == G,
	      "chain: guards around the final data overwritten");
	DIAG("chain host -> %d devices -> host: %d hops of %zu bytes, %d behind device barriers, %d CPU-ordered (IOMMU groups differ)",
	     ndev, hops, n, hops - cpu_hops, cpu_hops);
	for (int k = 0; k < hops; k++)
		hsagpu_signal_destroy(sig[k]);
	hsagpu_signal_destroy(gate);
}

/*
 * Device a writes data into b's VRAM, then a flag after it (two packets
 * of one queue); the CPU waits for the flag, checks the data, then lets
 * the next iteration go (a BARRIER_AND on an ack signal).
 */
static void test_flag_after_data(struct pdev *a, struct pdev *b)
{
	volatile uint8_t *data = b->vram + G;
	volatile uint32_t *flag = (volatile uint32_t *)(b->vram + BUF + G - 64);
	hsagpu_queue_t *q = gtq_queue(&a->d, 1024, 0);
	hsagpu_signal_t ack[2] = { gtq_signal(&a->d, 1), gtq_signal(&a->d, 1) };
	/* b's VRAM, in a's window onto it */
	uint64_t fbus = hsagpu_addr(a->d.agent, (const void *)flag);
	uint64_t dbus = hsagpu_addr(a->d.agent, (const void *)data);
	int bad = 0, it;

	if (!q || !fbus || !dbus)
		return;
	*flag = 0;
	__sync_synchronize();
	/* everything goes in up front; acks pace it */
	for (it = 0; it < FLAG_ITERS; it++) {
		size_t n = it % 10 == 9 ? (4 << 20) + 4099 : (128 << 10) + (it * 37) % 4096;
		const uint8_t *src = it & 1 ? (const uint8_t *)a->vram + G + (it % 7) :
				     a->pat + (it % 13) * 4096;

		if (it)
			gtq_barrier(q, HSAGPU_PKT_TYPE_BARRIER_AND, &ack[(it - 1) % 2], 1,
				    GTD_NONE, 0);
		gtd_copy(q, dbus, (uintptr_t)src, n, GTD_NONE);
		gtd_fill(q, fbus, it + 1, 4, GTD_NONE);
	}
	for (it = 0; it < FLAG_ITERS && bad < 3; it++) {
		size_t n = it % 10 == 9 ? (4 << 20) + 4099 : (128 << 10) + (it * 37) % 4096;
		const uint8_t *src = it & 1 ? (const uint8_t *)a->vram + G + (it % 7) :
				     a->pat + (it % 13) * 4096;
		uint64_t end = gtq_now_ns() + MS * GTQ_MS;
		size_t k;

		while (*flag != (uint32_t)it + 1 && gtq_now_ns() < end)
			;
		__sync_synchronize();
		if (*flag != (uint32_t)it + 1) {
			uint32_t err = 0;
			uint64_t eid = 0;
			int st = hsagpu_queue_state(q, &err, &eid);

			CHECK(0, "%s -> %s: flag %u never came (flag %u, queue state %d error %u)",
			      a->d.pci, b->d.pci, it + 1, *flag, st, err);
			bad = 99;
			break;
		}
		k = gtd_diff(data, src, n);
		if (k != n) {
			bad++;
			CHECK(0, "%s -> %s: iteration %d: flag seen but data byte %zu of %zu not there",
			      a->d.pci, b->d.pci, it, k, n);
		}
		hsagpu_signal_store_release(ack[(it + 1) % 2], 1);
		hsagpu_signal_store_release(ack[it % 2], 0);
	}
	if (bad == 99) {
		/* stuck: release everything so that destroy is clean */
		hsagpu_signal_store_release(ack[0], 0);
		hsagpu_signal_store_release(ack[1], 0);
	}
	CHECK(gtq_wait_idle(q, MS), "%s: flag queue not idle", a->d.pci);
	DIAG("%s -> %s: %d flag-after-data iterations %s", a->d.pci, b->d.pci,
	     FLAG_ITERS, bad ? "FAILED" : "in order");
	/* the queue first: its barriers may still read the acks */
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy flag queue");
	hsagpu_signal_destroy(ack[0]);
	hsagpu_signal_destroy(ack[1]);
}

/* One raw packet expected to fail with @want; on a fresh queue. */
static void expect_error(struct pdev *a, uint64_t dst, uint64_t src, size_t n,
			 unsigned int want, const char *what)
{
	hsagpu_queue_t *q = gtq_queue(&a->d, 16, 0);
	hsagpu_signal_t s = gtq_signal(&a->d, 1);
	uint32_t err = 0;
	uint64_t eid = 0;
	int64_t id;
	int st;

	if (!q)
		return;
	id = gtd_copy(q, dst, src, n, s);
	st = gtd_wait_error(q, &err, &eid);
	DIAG("%s: %s -> state %d error %u", a->d.pci, what, st, err);
	if (want == HSAGPU_QERR_VM_FAULT) {
		struct hsagpu_queue_status qs;

		CHECK(gtq_status(q, &qs) == 0, "QUEUE_STATUS");
		gtq_check_fault(what, &qs, q->id, dst & ~4095ULL,
				(dst & ~4095ULL) + 4096, HSAGPU_VM_CLIENT_DMA,
				HSAGPU_VM_ACCESS_WRITE,
				HSAGPU_VM_REASON_NOT_PRESENT);
	}
	CHECK(st == HSAGPU_QSTATE_ERROR && err == want && eid == (uint64_t)id,
	      "%s: %s: state %d error %u id %llu, expected error %u id %lld", a->d.pci,
	      what, st, err, (unsigned long long)eid, want, (long long)id);
	CHECK(gtq_value(s) == 1, "%s: %s: signal completed", a->d.pci, what);
	hsagpu_signal_destroy(s);
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
}

/* p2p-addr-bits below the BARs: P2P refused, local DMA fine. */
static void test_limit(struct pdev *a, struct pdev *b)
{
	uint64_t bits = 44;
	uint32_t st = gtq_reg(&a->d, HSAGPU_REG_P2P_STATUS);
	struct hsagpu_peer_access pa;
	uint8_t *sys = a->sys + G;
	int ret;

	gt_param_u64("p2pbits", 0, &bits);
	CHECK(bits < 64 && b->bar0 + b->bar0_size > (1ULL << bits),
	      "p2p-limit: %s BAR0 0x%llx is below 2^%llu: the preset did not push the BARs up",
	      b->d.pci, (unsigned long long)b->bar0, (unsigned long long)bits);
	CHECK(!(st & HSAGPU_P2P_OK) && !(st & HSAGPU_P2P_VRAM_OK),
	      "%s: P2P_STATUS 0x%x with BAR0 at 0x%llx above %llu bits", a->d.pci, st,
	      (unsigned long long)a->bar0, (unsigned long long)bits);
	CHECK(!(a->d.info->p2p_status & HSAGPU_P2P_OK), "%s: GET_INFO p2p_status 0x%x",
	      a->d.pci, a->d.info->p2p_status);
	ret = peer_access(a, b, &pa);
	DIAG("%s -> %s: PEER_ACCESS %d, flags 0x%x, peer P2P_STATUS 0x%x", a->d.pci,
	     b->d.pci, ret, pa.flags, pa.peer_p2p_status);
	if (!ret)
		CHECK(!(pa.peer_p2p_status & HSAGPU_P2P_OK),
		      "%s -> %s: PEER_ACCESS says the peer is reachable (0x%x)", a->d.pci,
		      b->d.pci, pa.peer_p2p_status);
	/*
	 * Writes to and reads from the peer BAR are refused, through the
	 * address PEER_ACCESS gave (the BAR itself without GPU VM and IOMMU,
	 * a window onto it with GPU VM)
	 */
	if (!ret) {
		expect_error(a, pa.vram_addr + 4096, (uintptr_t)sys, 4096,
			     HSAGPU_QERR_P2P_LIMIT, "write to the peer's VRAM");
		expect_error(a, (uintptr_t)sys, pa.vram_addr + 4096, 4096,
			     HSAGPU_QERR_P2P_LIMIT, "read from the peer's VRAM");
	}
	if (a->d.vm)
		expect_error(a, b->bar0 + 4096, (uintptr_t)sys, 4096,
			     HSAGPU_QERR_VM_FAULT,
			     "the peer's raw BAR address with GPU VM");
	/* local VRAM above the limit is no peer: that works */
	gtd_pattern(sys, 65536, 99);
	memset((void *)(a->vram + G), 0, 65536);
	__sync_synchronize();
	CHECK(gtd_run_copy(&a->d, a->q, (uintptr_t)(a->vram + G), (uintptr_t)sys,
			   65536, MS),
	      "%s: copy into its own VRAM above the limit failed", a->d.pci);
	CHECK(gtd_diff(a->vram + G, sys, 65536) == 65536, "%s: own VRAM copy wrong",
	      a->d.pci);
}

static void test_iommu(struct pdev *a, struct pdev *b)
{
	CHECK(a->d.info->dma_flags & HSAGPU_DMA_INFO_IOMMU,
	      "%s: IOMMU boot, dma_flags 0x%x", a->d.pci, a->d.info->dma_flags);
	CHECK(a->group >= 0, "%s: no IOMMU group", a->d.pci);
	if (!strcmp(mode, "root")) {
		/*
		 * Through the root complex the device's addresses are IOVAs:
		 * the peer's raw BAR address is not mapped for it.
		 */
		CHECK(a->group != b->group, "%s and %s share IOMMU group %d behind root ports",
		      a->d.pci, b->d.pci, a->group);
		expect_error(a, b->bar0 + 8192, (uintptr_t)a->pat, 4096,
			     a->d.vm ? HSAGPU_QERR_VM_FAULT : HSAGPU_QERR_ADDRESS,
			     "untranslated peer BAR address");
	}
}

int main(void)
{
	int n = hsagpu_agent_count(), usable = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);      /* lines survive a crash */
	mode = gtd_p2p_mode();
	iommu = gtd_iommu_expected();
	if (n > GT_MAX_DEVS)
		n = GT_MAX_DEVS;
	for (int i = 0; i < n; i++) {
		struct pdev *p = &devs[i];

		p->ok = gtq_open(i, &p->d) == 1;
		if (!p->ok)
			continue;
		if (!(p->d.info->caps & HSAGPU_CAP_DMA)) {
			DIAG("%s: no DMA engine", p->d.pci);
			p->ok = 0;
			continue;
		}
		usable++;
	}
	if (usable < 2 || usable != n) {
		DIAG("%d devices, %d with queues and DMA: peer-to-peer needs two or more: skip",
		     n, usable);
		for (int i = 0; i < n; i++)
			gtq_close(&devs[i].d);
		return gt_failures ? gt_result() : 77;
	}
	ndev = n;
	DIAG("%d devices, p2p mode '%s', IOMMU %s", ndev, mode, iommu ? "on" : "off");
	for (int i = 0; i < ndev; i++) {
		struct pdev *p = &devs[i];

		p->q = gtq_queue(&p->d, 256, 0);
		p->vram = gtq_alloc(&p->d, BUF + 2 * G, HSAGPU_RT_MEM_VRAM);
		p->sys = gtq_alloc(&p->d, BUF + 2 * G, HSAGPU_RT_MEM_SYSTEM);
		p->pat = gtq_alloc(&p->d, BUF, HSAGPU_RT_MEM_SYSTEM);
		for (int k = 0; k < 2; k++)
			CHECK(hsagpu_dma_list_create(p->d.agent, 4096, &p->list[k]) == 0,
			      "%s: list", p->d.pci);
		CHECK(gtpci_bar(p->d.pci, HSAGPU_BAR_VRAM, &p->bar0, &p->bar0_size) == 0,
		      "%s: BAR0 from sysfs", p->d.pci);
		p->group = gtpci_iommu_group(p->d.pci);
		if (!p->q || !p->vram || !p->sys || !p->pat || !p->list[0] || !p->list[1])
			goto out;
		gtd_pattern(p->pat, BUF, 1000 + i);
		gtd_pattern((void *)p->vram, BUF + 2 * G, 2000 + i);
	}
	__sync_synchronize();

	if (iommu)
		for (int i = 0; i < ndev; i++)
			test_iommu(&devs[i], &devs[(i + 1) % ndev]);
	if (!strcmp(mode, "limit")) {
		test_limit(&devs[0], &devs[1]);
		test_limit(&devs[1], &devs[0]);
		goto out;
	}
	/* neighbours both ways, the first pair with a big copy, and far pairs */
	for (int i = 0; i < ndev; i++)
		test_pair(&devs[i], &devs[(i + 1) % ndev], i == 0);
	if (ndev > 2) {
		test_pair(&devs[1], &devs[0], 0);
		test_pair(&devs[0], &devs[ndev - 1], 0);
		test_pair(&devs[ndev - 1], &devs[ndev / 2 - 1], 0);
	}
	test_chain();
	test_flag_after_data(&devs[0], &devs[1]);
	if (ndev > 2)
		test_flag_after_data(&devs[ndev - 1], &devs[0]);
out:
	for (int i = 0; i < ndev; i++) {
		for (int k = 0; k < 2; k++)
			if (devs[i].list[k])
				hsagpu_dma_list_destroy(devs[i].list[k]);
		gtq_close(&devs[i].d);
	}
	return gt_result();
}

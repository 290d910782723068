// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A peer that goes away takes its IOMMU mapping with it (review finding
 * D3). Device A gets PEER_ACCESS to device B's VRAM through the root
 * complex and an IOMMU (an IOVA mapped for A onto B's BAR0) and copies
 * into it; then B's file is closed and B is removed from the PCI tree
 * (echo 1 > .../remove). A's file is still open: the mapping must be
 * gone all the same, so the same copy now fails with a queue error
 * instead of reaching whatever owns B's old BAR range. PEER_ACCESS to a
 * removed peer is ENODEV. A rescan brings B back and a fresh
 * PEER_ACCESS works again. With GPU virtual memory the window leaves A's
 * address space too: the copy is a VM fault at the window address (a
 * page table entry left pointing at the freed IOVA would reach whatever
 * gets that IOVA next).
 *
 * Only behind an IOMMU with peers through the root complex (rp2-iommu):
 * without one the device uses bus addresses that no driver can revoke.
 */
#define _GNU_SOURCE
#include <string.h>

#include "gtdev.h"
#include "gtdma.h"
#include "gtioctl.h"

#define MS 3000

/* Copy 4 KiB of @src to @dst on @q; the queue state and error code. */
static int copy_outcome(struct gtq_dev *d, hsagpu_queue_t *q, uint64_t dst,
			uint64_t src, uint32_t *err)
{
	hsagpu_signal_t s = gtq_signal(d, 1);
	uint64_t eid = 0;
	int st;

	*err = 0;
	gtd_copy(q, dst, src, 4096, s);
	if (gtq_wait_eq(s, 0, MS))
		st = hsagpu_queue_state(q, err, &eid);
	else
		st = gtd_wait_error(q, err, &eid);
	hsagpu_signal_destroy(s);
	return st;
}

int main(void)
{
	int n = hsagpu_agent_count(), st, ret;
	struct hsagpu_peer_access pa, pa2;
	struct gtq_dev a, b;
	hsagpu_queue_t *q;
	uint8_t *sys;
	uint32_t err;
	char bpci[16];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (n < 2)
		return gt_skip("needs two devices");
	if (!gtd_iommu_expected() || strcmp(gtd_p2p_mode(), "root"))
		return gt_skip("peers are not IOMMU-mapped in this topology");
	if (gtq_open(0, &a) != 1 || gtq_open(1, &b) != 1) {
		gtq_close(&a);
		gtq_close(&b);
		return gtq_result(0, 1);
	}
	snprintf(bpci, sizeof(bpci), "%s", b.pci);
	ret = gti_peer_access(hsagpu_agent_fd(a.agent), hsagpu_agent_fd(b.agent),
			      &pa);
	CHECK(ret == 0 && (pa.flags & HSAGPU_PEER_IOMMU),
	      "PEER_ACCESS %s -> %s: errno %d flags 0x%x", a.pci, bpci, ret,
	      pa.flags);
	q = gtq_queue(&a, 16, 0);
	sys = gtq_alloc(&a, 65536, HSAGPU_RT_MEM_SYSTEM);
	if (ret || !q || !sys) {
		gtq_close(&b);
		gtq_close(&a);
		return gt_result();
	}
	gtd_pattern(sys, 4096, 7);

	st = copy_outcome(&a, q, pa.vram_addr + 4096, (uintptr_t)sys,
			  &err);
	DIAG("%s -> %s VRAM at IOVA 0x%llx (BAR 0x%llx): state %d error %u",
	     a.pci, bpci, (unsigned long long)pa.vram_addr + 4096,
	     (unsigned long long)pa.peer_bar_addr, st, err);
	CHECK(st == HSAGPU_QSTATE_ACTIVE && !err,
	      "copy into the peer before its removal: state %d error %u", st, err);

	/* Only A's peer entry refers to B from now on. */
	gtq_close(&b);
	CHECK(gtd_remove(bpci) == 0, "remove %s", bpci);

	st = copy_outcome(&a, q, pa.vram_addr + 4096, (uintptr_t)sys,
			  &err);
	DIAG("%s -> removed %s at the old IOVA: state %d error %u", a.pci, bpci,
	     st, err);
	{
		struct hsagpu_queue_status qs;

		CHECK(gtq_status(q, &qs) == 0, "QUEUE_STATUS");
		gtq_check_fault("copy to a removed peer's window", &qs, q->id,
				pa.vram_addr + 4096, pa.vram_addr + 8192,
				HSAGPU_VM_CLIENT_DMA, HSAGPU_VM_ACCESS_WRITE,
				HSAGPU_VM_REASON_NOT_PRESENT);
	}
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");

	/* B comes back: a new PEER_ACCESS works. */
	CHECK(gtd_rescan(bpci, 20000) == 0, "rescan did not bring %s back", bpci);
	if (gtq_open(1, &b) == 1) {
		ret = gti_peer_access(hsagpu_agent_fd(a.agent),
				      hsagpu_agent_fd(b.agent), &pa2);
		CHECK(ret == 0, "PEER_ACCESS to the rescanned peer: errno %d", ret);
		q = gtq_queue(&a, 16, 0);
		if (!ret && q) {
			st = copy_outcome(&a, q, pa2.vram_addr + 4096,
					  (uintptr_t)sys, &err);
			CHECK(st == HSAGPU_QSTATE_ACTIVE && !err,
			      "copy into the rescanned peer: state %d error %u",
			      st, err);
			hsagpu_queue_destroy(q);
		}
		gtq_close(&b);
	} else {
		CHECK(0, "%s not usable after rescan", bpci);
	}
	gtq_close(&a);
	return gt_result();
}

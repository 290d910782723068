// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AMD's vendor AQL packets through the driver, on GPU virtual memory:
 * PM4_IB as ROCr 5.2.3 sends it (an INDIRECT_BUFFER to an ACQUIRE_MEM,
 * the read index advancing, the completion signal), PM4 the device does
 * not run (error 22, nothing behind it runs), BARRIER_VALUE holding its
 * queue on a masked condition while another queue runs, and a vendor
 * format nobody defined (error 20).
 */
#include "gtdma.h"

#define MS 3000

static const uint32_t acquire_mem[7] = {
	HSAGPU_PM4_HDR(HSAGPU_PM4_OP_ACQUIRE_MEM, 7), 0x28840000,
	0xffffffff, 0xff, 0, 0, 0,
};

static int64_t submit_pm4(hsagpu_queue_t *q, const uint32_t *ib, uint32_t ndw,
			  hsagpu_signal_t sig)
{
	struct hsagpu_pm4_ib_packet p;
	uint64_t va = (uintptr_t)ib;

	memset(&p, 0, sizeof(p));
	p.format = HSAGPU_VENDOR_FORMAT_PM4_IB;
	p.ib_jump_cmd[0] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4);
	p.ib_jump_cmd[1] = (uint32_t)va & ~3U;
	p.ib_jump_cmd[2] = (uint32_t)(va >> 32) & 0xffff;
	p.ib_jump_cmd[3] = ndw | HSAGPU_PM4_IB_VALID;
	p.dw_cnt_remain = 0xa;
	p.completion_signal = sig.handle;
	/* ROCr's header: no fences */
	return hsagpu_queue_submit(q, &p,
				   hsagpu_packet_header(HSAGPU_PKT_TYPE_VENDOR_SPECIFIC,
							0, HSAGPU_FENCE_SCOPE_NONE,
							HSAGPU_FENCE_SCOPE_NONE));
}

static void expect_error(hsagpu_queue_t *q, const char *what, uint32_t err,
			 int64_t id)
{
	struct hsagpu_queue_status st;

	CHECK(gtq_wait_error_status(q, MS, &st) == 0, "%s: no queue error", what);
	CHECK(st.error == err && st.error_dispatch_id == (uint64_t)id,
	      "%s: error %u id %llu, expected %u id %lld", what, st.error,
	      (unsigned long long)st.error_dispatch_id, err, (long long)id);
}

static void test_pm4(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 16, 0), *bad = gtq_queue(d, 16, 0);
	uint32_t *ib = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	volatile uint64_t *slot = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t s = gtq_signal(d, 1), w = gtq_signal(d, 1);
	int64_t id;

	if (!q || !bad || !ib || !slot)
		return;
	memcpy(ib, acquire_mem, sizeof(acquire_mem));
	/* ROCr waits on the read index: no signal, then one with a signal */
	id = submit_pm4(q, ib, 7, (hsagpu_signal_t){ 0 });
	CHECK(id >= 0, "submit PM4_IB: %lld", (long long)id);
	CHECK(gtq_wait_idle(q, MS), "PM4_IB without a signal not consumed");
	CHECK(submit_pm4(q, ib, 7, s) >= 0, "submit PM4_IB");
	GTQ_WAIT(s, 0, MS);

	/* RELEASE_MEM: not run; the packet behind it neither */
	ib[64] = HSAGPU_PM4_HDR(0x49, 7);
	id = submit_pm4(bad, &ib[64], 7, s);
	gtq_write(bad, &slot[0], 0x77, w, 0);
	expect_error(bad, "RELEASE_MEM in the IB", HSAGPU_QERR_PM4_PACKET, id);
	CHECK(slot[0] == 0 && gtq_value(w) == 1,
	      "packet behind a failed PM4_IB ran");
	/* the other queue is fine */
	hsagpu_signal_store_release(s, 1);
	CHECK(submit_pm4(q, ib, 7, s) >= 0, "submit PM4_IB again");
	GTQ_WAIT(s, 0, MS);
	hsagpu_signal_destroy(s);
	hsagpu_signal_destroy(w);
	CHECK(hsagpu_queue_destroy(bad) == 0, "destroy");
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
}

static void test_barrier_value(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 16, 0), *q2 = gtq_queue(d, 16, 0);
	volatile uint64_t *slot = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t dep = gtq_signal(d, 0x305), b = gtq_signal(d, 1);
	hsagpu_signal_t w = gtq_signal(d, 1), w2 = gtq_signal(d, 1);
	struct hsagpu_barrier_value_packet p;

	if (!q || !q2 || !slot)
		return;
	memset(&p, 0, sizeof(p));
	p.format = HSAGPU_VENDOR_FORMAT_BARRIER_VALUE;
	p.signal = dep.handle;
	p.value = 0x2;
	p.mask = 0xff;
	p.cond = HSAGPU_SIGNAL_COND_LT;
	p.completion_signal = b.handle;
	CHECK(hsagpu_queue_submit(q, &p,
				  GTQ_HDR(HSAGPU_PKT_TYPE_VENDOR_SPECIFIC, 1)) >= 0,
	      "submit BARRIER_VALUE");
	gtq_write(q, &slot[0], 0x1234, w, 0);
	/* another queue keeps running */
	gtq_write(q2, &slot[1], 0x99, w2, 0);
	GTQ_WAIT(w2, 0, MS);
	gtq_sleep_ms(50);
	CHECK(gtq_value(b) == 1 && slot[0] == 0,
	      "BARRIER_VALUE let (0x305 & 0xff) < 2 through");
	/* 0x204: the masked value is 4, still not below 2 */
	hsagpu_signal_store_release(dep, 0x204);
	gtq_sleep_ms(50);
	CHECK(gtq_value(b) == 1 && slot[0] == 0, "BARRIER_VALUE let 4 < 2 through");
	hsagpu_signal_store_release(dep, 0x7701);
	GTQ_WAIT(w, 0, MS);
	CHECK(gtq_value(b) == 0 && slot[0] == 0x1234,
	      "after BARRIER_VALUE: signal %lld slot 0x%llx",
	      (long long)gtq_value(b), (unsigned long long)slot[0]);
	CHECK(gtq_value(dep) == 0x7701, "BARRIER_VALUE changed its signal");
	hsagpu_signal_destroy(dep);
	hsagpu_signal_destroy(b);
	hsagpu_signal_destroy(w);
	hsagpu_signal_destroy(w2);
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
	CHECK(hsagpu_queue_destroy(q2) == 0, "destroy");
}

static void test_unknown_format(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	volatile uint64_t *buf = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	struct hsagpu_dma_packet p;
	int64_t id;

	if (!q || !buf)
		return;
	buf[0] = 0x1111;
	/* a DMA copy but for its format byte */
	hsagpu_packet_dma_copy(&p, (uintptr_t)&buf[8], (uintptr_t)&buf[0], 8,
			       (hsagpu_signal_t){ 0 });
	p.format = 0x7f;
	id = gtd_submit(q, &p, 0);
	expect_error(q, "format 0x7f", HSAGPU_QERR_VENDOR_FORMAT, id);
	CHECK(buf[8] == 0, "a packet of no known format copied");
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
}

int main(void)
{
	int n = hsagpu_agent_count(), ok = 0;
	struct gtq_dev d;

	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	if (n > 0 && gtq_open(0, &d) == 1) {
		ok = 1;
		test_pm4(&d);
		test_barrier_value(&d);
		test_unknown_format(&d);
	}
	if (n > 0)
		gtq_close(&d);
	return gtq_result(ok, 1);
}

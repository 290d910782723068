// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for the Vega10 personality's hardware scheduler
 * (hw/hsagpu/vega10/vega10-hws.c), driven the way amdkfd's packet
 * manager drives it (kfd_packet_manager_v9.c): the KIQ maps the HIQ,
 * the HIQ gets SET_RESOURCES, runlists, UNMAP_QUEUES and QUERY_STATUS.
 * Checks what each process and queue gets (VMID, page directory,
 * SH_MEM, the PASID tables, the HQD), what unmapping writes back, and
 * that malformed runlists stop the HIQ instead of mapping garbage.
 * TAP output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/vega10/vega10.h"

#include "tap.h"
#include "v10-fakemem.h"

#define VRAM (64u << 20)

static bool fake_vram_rw(void *opaque, uint64_t off, uint32_t *val,
			 bool write)
{
	return false;
}

static HsaGpuV10 *dev(void)
{
	static HsaGpuV10 *v;
	HsaGpuV10Ops ops = { .vram_rw = fake_vram_rw, .mem = g_mem };

	if (!v)
		v = calloc(1, sizeof(*v));
	hsagpu_v10_init(v, VRAM, 0x3, &ops);
	return v;
}

#define RD(v, r) hsagpu_v10_read(v, r)
#define WR(v, r, x) hsagpu_v10_write(v, r, x)

static HsaGpuV10CpOps cp_ops = {
	.read = g_read, .write = g_write, .reg_read = g_reg_read,
	.reg_write = g_reg_write, .stopped = g_stopped,
	.hiq_packet = hsagpu_v10_hws_packet,
	.hiq_rotate = hsagpu_v10_hws_rotate,
};

static void cp_pass(HsaGpuV10 *v)
{
	uint64_t ran = 0;

	cp_ops.opaque = v;
	for (int i = 0; i < 4; i++)
		hsagpu_v10_cp_pass(v, &cp_ops, 64, &ran);
}

#define KIQ_RING        0x10000
#define HIQ_RING        0x11000
#define RPTRS           0x12000         /* KIQ +0, HIQ +0x10 */
#define HIQ_MQD         0x13000
#define FENCE           0x14000
#define IB              0x15000
#define MQD(i)          (0x20000 + (i) * 0x1000)
#define AQL_RING(i)     (0x40000 + (i) * 0x1000)
#define READ_INDEX(i)   (0x60000 + (i) * 0x100)

#define KIQ_DB          0
#define HIQ_DB          2
#define HQD(m, r)       (m)[V10_MQD_HQD_DW + (r) - V10_HQD_FIRST]

static uint32_t kiq_w, hiq_w;
/* the HIQ's HQD (the KIQ is ME2 pipe 1 queue 7, as amdgpu has it) */
static const unsigned hiq = V10_HQD_INDEX(1, 0, 2);

static void kiq_put(uint32_t val)
{
	g32(KIQ_RING)[kiq_w++] = val;
}

static void hiq_put(uint32_t val)
{
	g32(HIQ_RING)[hiq_w++] = val;
}

static void hiq_go(HsaGpuV10 *v)
{
	hsagpu_v10_cp_doorbell(v, HIQ_DB, hiq_w);
	cp_pass(v);
}

/*
 * amdgpu's KIQ, then amdkfd's HIQ mapped through it
 * (kgd_gfx_v9_hiq_mqd_load), then SET_RESOURCES on the HIQ
 * (pm_set_resources_v9): VMIDs 8-15, the queues of ME1 but the HIQ
 */
static HsaGpuV10 *boot(uint32_t vmid_mask)
{
	HsaGpuV10 *v = dev();
	uint32_t *m = g32(HIQ_MQD);

	memset(gmem, 0, sizeof(gmem));
	n_stopped = 0;
	kiq_w = hiq_w = 0;
	WR(v, V10_RLC_CP_SCHEDULERS, 2 << 5 | 1 << 3 | 7 | 0x80);
	WR(v, V10_GRBM_GFX_CNTL, 1 | 2 << 2 | 7 << 8);      /* ME2 pipe 1 queue 7 */
	WR(v, V10_CP_HQD_PQ_BASE, KIQ_RING >> 8);
	WR(v, V10_CP_HQD_PQ_CONTROL, 9);
	WR(v, V10_CP_HQD_PQ_RPTR_REPORT_ADDR, RPTRS);
	WR(v, V10_CP_HQD_PQ_DOORBELL_CONTROL, KIQ_DB << 2 | V10_DOORBELL_EN);
	WR(v, V10_CP_HQD_ACTIVE, 1);
	WR(v, V10_GRBM_GFX_CNTL, 0);

	HQD(m, V10_CP_HQD_PQ_BASE) = HIQ_RING >> 8;
	HQD(m, V10_CP_HQD_PQ_CONTROL) = 9;
	HQD(m, V10_CP_HQD_PQ_RPTR_REPORT_ADDR) = RPTRS + 0x10;
	kiq_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7));
	kiq_put(2 << 13 | 0 << 16 | 0 << 18 | HSAGPU_PM4_ENGINE_HIQ << 26 |
		1u << 29);
	kiq_put(HIQ_DB << 2);
	kiq_put(HIQ_MQD);
	kiq_put(0);
	kiq_put(0);
	kiq_put(0);
	hsagpu_v10_cp_doorbell(v, KIQ_DB, kiq_w);
	cp_pass(v);

	hiq_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_RESOURCES, 8));
	hiq_put(vmid_mask | 1u << 29);
	hiq_put(0xffffffffu & ~(1u << hiq));
	hiq_put(0);
	for (int i = 0; i < 4; i++)
		hiq_put(0);
	hiq_go(v);
	return v;
}

/* An AQL queue's MQD, as amdkfd's init_mqd/update_mqd (v9) leave it */
static void aql_mqd(unsigned i)
{
	uint32_t *m = g32(MQD(i));

	memset(m, 0, 512 * 4);
	HQD(m, V10_CP_MQD_BASE_ADDR) = MQD(i);
	HQD(m, V10_CP_HQD_PQ_BASE) = AQL_RING(i) >> 8;
	HQD(m, V10_CP_HQD_PQ_CONTROL) = 9;      /* 2^10 dwords: 64 packets */
	HQD(m, V10_CP_HQD_PQ_RPTR_REPORT_ADDR) = READ_INDEX(i);
	HQD(m, V10_CP_HQD_AQL_CONTROL) = 1;
}

static uint32_t ib_w;

static void ib_put(uint32_t val)
{
	g32(IB)[ib_w++] = val;
}

/* pm_map_process_v9 */
static void ib_process(uint32_t pasid, uint64_t pd, unsigned nq)
{
	ib_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_PROCESS, 16));
	ib_put(pasid | 10u << 25);
	ib_put(pd);
	ib_put(pd >> 32);
	ib_put(0x00020001 + pasid);     /* SH_MEM_BASES */
	ib_put(0x1000 + pasid);         /* SH_MEM_CONFIG */
	for (int i = 0; i < 7; i++)
		ib_put(0);
	ib_put(nq << 22 | 1 << 7);
	ib_put(0);
	ib_put(0);
}

/* pm_map_queues_v9: a queue the scheduler places */
static void ib_queue(unsigned engine, uint64_t mqd, uint32_t doorbell,
		     unsigned type)
{
	ib_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7));
	ib_put(1 << 4 | type << 21 | engine << 26 | 1u << 29);
	ib_put(doorbell << 2);
	ib_put(mqd);
	ib_put(mqd >> 32);
	/* the write pointer (user VA) */
	ib_put((uint32_t)(USER_BASE + 0x7000 + doorbell * 8));
	ib_put((USER_BASE + 0x7000 + doorbell * 8) >> 32);
}

static void hiq_run_list(uint32_t size)
{
	hiq_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RUN_LIST, 4));
	hiq_put(IB);
	hiq_put(0);
	hiq_put(size | HSAGPU_PM4_RL_VALID | 2u << 24);
}

static void hiq_query(uint32_t seq)
{
	hiq_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_QUERY_STATUS, 7));
	hiq_put(2u << 30);
	hiq_put(0);
	hiq_put(FENCE);
	hiq_put(0);
	hiq_put(seq);
	hiq_put(0);
}

static void hiq_unmap(unsigned action, unsigned sel, uint32_t arg)
{
	hiq_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_UNMAP_QUEUES, 6));
	hiq_put(action | sel << 4 | 1u << 29);
	hiq_put(sel == HSAGPU_PM4_UQ_BY_DOORBELL ? arg << 2 : arg);
	hiq_put(0);
	hiq_put(0);
	hiq_put(0);
}

/* The HQD the scheduler put the queue with @doorbell on, or -1 */
static int hqd_of(HsaGpuV10 *v, uint32_t doorbell)
{
	for (unsigned ri = 0; ri < V10_NUM_HQD; ri++)
		if (v->ring[ri].active && v->ring[ri].doorbell == doorbell)
			return ri;
	return -1;
}

static unsigned vmid_of(HsaGpuV10 *v, int ri)
{
	return v->hqd[ri][V10_CP_HQD_VMID - V10_HQD_FIRST];
}

#define PD(i)   (0x0000008000001001ULL + ((uint64_t)(i) << 12))

/* A runlist of one process (PASID 0x8001) with one compute queue, run */
static void run_one(HsaGpuV10 *v, uint64_t mqd, uint32_t doorbell)
{
	ib_w = 0;
	ib_process(0x8001, PD(1), 1);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, mqd, doorbell, 0);
	hiq_run_list(ib_w);
	hiq_go(v);
}

static void test_hiq_mapped(void)
{
	HsaGpuV10 *v = boot(0xff00);

	T(v->hws.hiq_ring == hiq && v->ring[hiq].active);
	T(v->hws.vmid_mask == 0xff00);
	T(v->hws.queue_mask == (0xffffffffu & ~(1u << hiq)));
	T(n_stopped == 0);
	/* a HIQ packet on the KIQ, and a MAP_PROCESS on the HIQ: refused */
	hiq_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_PROCESS, 16));
	for (int i = 0; i < 15; i++)
		hiq_put(0);
	hiq_go(v);
	T(n_stopped == 1 && stop_err == HSAGPU_PM4_ERR_OPCODE);
	T(v->hws.maps == 0);
	kiq_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RUN_LIST, 4));
	kiq_put(IB);
	kiq_put(0);
	kiq_put(HSAGPU_PM4_RL_VALID);
	hsagpu_v10_cp_doorbell(v, KIQ_DB, kiq_w);
	cp_pass(v);
	T(n_stopped == 2 && stop_err == HSAGPU_PM4_ERR_OPCODE);
	T(v->hws.runlists == 0);
}

/* Two processes, three queues: each process its own VMID */
static void test_runlist(void)
{
	HsaGpuV10 *v = boot(0xff00);
	int q0, q1, q2;

	for (unsigned i = 0; i < 3; i++)
		aql_mqd(i);
	ib_w = 0;
	ib_process(0x8001, PD(1), 2);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(0), 0x400, 0);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(1), 0x402, 2);
	ib_process(0x8002, PD(2), 1);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(2), 0x404, 0);
	hiq_run_list(ib_w);
	hiq_query(41);
	hiq_go(v);
	T(n_stopped == 0);
	T(*g32(FENCE) == 41);
	T(v->hws.runlists == 1 && v->hws.maps == 3 && v->hws.refused == 0);
	q0 = hqd_of(v, 0x400);
	q1 = hqd_of(v, 0x402);
	q2 = hqd_of(v, 0x404);
	T(q0 >= 0 && q1 >= 0 && q2 >= 0);
	if (q0 < 0 || q1 < 0 || q2 < 0)
		return;
	/* on the queues SET_RESOURCES gave, not the KIQ's or the HIQ's */
	T(q0 != hiq && q1 != hiq && q2 != hiq && q0 != q1 && q1 != q2);
	T((v->hws.queue_mask >> q0 & 1) && (v->hws.queue_mask >> q2 & 1));
	/* AQL queues, for the queue processor, in their process's VMID */
	T(v->ring[q0].aql && v->ring[q2].aql && v->aql_dirty);
	T(vmid_of(v, q0) == 8 && vmid_of(v, q1) == 8 && vmid_of(v, q2) == 9);
	T(v->ring[q0].pm4.vmid == 8 && v->ring[q2].pm4.vmid == 9);
	T(v->ring[q0].pm4.base == AQL_RING(0));
	T(v->ring[q2].wptr_addr == USER_BASE + 0x7000 + 0x404 * 8);
	T(v->ring[q0].rptr_addr == READ_INDEX(0));
	/* each VMID: the process's page directory on both hubs ... */
	T(RD(v, V10_GFXHUB_CONTEXT0_BASE_LO32 + 8 * 2) == (uint32_t)PD(1));
	T(RD(v, V10_GFXHUB_CONTEXT0_BASE_HI32 + 8 * 2) == PD(1) >> 32);
	T(RD(v, V10_GFXHUB_CONTEXT0_BASE_LO32 + 9 * 2) == (uint32_t)PD(2));
	T(RD(v, V10_GFXHUB_CONTEXT0_BASE_LO32 + V10_MMHUB_VM_DIST + 9 * 2) ==
	  (uint32_t)PD(2));
	/* ... its apertures, and its PASID where interrupts and ATS look */
	T(v->sh_mem_config[8] == 0x1000 + 0x8001);
	T(v->sh_mem_bases[9] == 0x00020001 + 0x8002);
	T(RD(v, V10_IH_VMID_0_LUT + 8) == 0x8001);
	T(RD(v, V10_IH_VMID_0_LUT_MM + 9) == 0x8002);
	T(RD(v, V10_ATC_VMID0_PASID_MAPPING + 9) ==
	  (0x8002 | V10_ATC_PASID_MAPPING_VALID));
	T(RD(v, V10_IH_VMID_0_LUT + 10) == 0);

	/* preempting process 1: its queues go, their state into the MQDs */
	v->hqd[q0][V10_CP_HQD_PQ_RPTR - V10_HQD_FIRST] = 0x33;
	hiq_unmap(HSAGPU_PM4_UQ_PREEMPT, HSAGPU_PM4_UQ_BY_PASID, 0x8001);
	hiq_query(42);
	hiq_go(v);
	T(n_stopped == 0 && *g32(FENCE) == 42);
	T(!v->ring[q0].active && !v->ring[q1].active && v->ring[q2].active);
	T(HQD(g32(MQD(0)), V10_CP_HQD_VMID) == 8);
	T(HQD(g32(MQD(0)), V10_CP_HQD_PQ_RPTR) == 0x33);
	T((HQD(g32(MQD(1)), V10_CP_HQD_PQ_DOORBELL_CONTROL) >> 2 & 0x3ffffff) ==
	  0x402);
	T(!(HQD(g32(MQD(0)), V10_CP_HQD_ACTIVE) & 1));
	/* its VMID is free again, and no longer names it */
	T(RD(v, V10_IH_VMID_0_LUT + 8) == 0);
	T(RD(v, V10_ATC_VMID0_PASID_MAPPING + 8) == 0);
	T(v->hws.pasid[8] == 0 && v->hws.pasid[9] == 0x8002);

	/* the static queue stays through an unmap of dynamic queues */
	ib_w = 0;
	ib_process(0x8001, PD(1), 2);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(0), 0x400, 0);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(1), 0x402, 2);
	hiq_run_list(ib_w);
	hsagpu_v10_cp_doorbell(v, HIQ_DB, hiq_w);
	cp_pass(v);
	/* (a new runlist replaced the old: process 2 is off now) */
	T(hqd_of(v, 0x404) < 0 && hqd_of(v, 0x400) >= 0);
	T(v->hws.pasid[8] == 0x8001 && v->hws.pasid[9] == 0);
	/* the saved read pointer came back with the MQD */
	q0 = hqd_of(v, 0x400);
	T(q0 >= 0 && v->hqd[q0][V10_CP_HQD_PQ_RPTR - V10_HQD_FIRST] == 0x33);
	hiq_unmap(HSAGPU_PM4_UQ_PREEMPT, HSAGPU_PM4_UQ_ALL_DYNAMIC, 0);
	hiq_go(v);
	T(hqd_of(v, 0x400) < 0 && hqd_of(v, 0x402) >= 0);
	T(v->hws.pasid[8] == 0x8001);
	/* by another doorbell: it stays */
	hiq_unmap(HSAGPU_PM4_UQ_PREEMPT, HSAGPU_PM4_UQ_BY_DOORBELL, 0x406);
	hiq_go(v);
	T(hqd_of(v, 0x402) >= 0);
	/* everything, with a reset: nothing written back */
	HQD(g32(MQD(1)), V10_CP_HQD_PQ_RPTR) = 0x55;
	hiq_unmap(HSAGPU_PM4_UQ_RESET, HSAGPU_PM4_UQ_ALL, 0);
	hiq_go(v);
	T(hqd_of(v, 0x402) < 0);
	T(HQD(g32(MQD(1)), V10_CP_HQD_PQ_RPTR) == 0x55);
	T(v->hws.pasid[8] == 0 && v->hws.unmaps == 5);
	T(n_stopped == 0);
}

/*
 * Preemption saves an AQL queue's work in flight (CWSR: the glue's
 * aql_stop writes the context save area and CP_HQD_WG_STATE_OFFSET)
 * before the HQD goes back to the MQD, so that the MQD carries it to the
 * next map; a reset saves nothing
 */
static unsigned n_aql_stops, last_save;

static void fake_aql_stop(void *opaque, unsigned ri, bool save)
{
	HsaGpuV10 *v = opaque;

	n_aql_stops++;
	last_save = save;
	if (save)
		v->hqd[ri][V10_CP_HQD_WG_STATE_OFFSET - V10_HQD_FIRST] = 0x1234;
}

static void test_preempt_saves(void)
{
	HsaGpuV10 *v = boot(0xff00);
	int q0;

	v->ops.aql_stop = fake_aql_stop;
	v->ops.opaque = v;
	n_aql_stops = 0;
	aql_mqd(0);
	run_one(v, MQD(0), 0x400);
	q0 = hqd_of(v, 0x400);
	T(q0 >= 0 && n_aql_stops == 0);
	if (q0 < 0)
		return;
	/* as the glue's sync, which starts it on the queue processor */
	v->ring[q0].aql_run = 1;
	/* a new runlist (another process came): preempted, saved, mapped */
	hiq_run_list(ib_w);
	hiq_go(v);
	T(n_aql_stops == 1 && last_save);
	T(HQD(g32(MQD(0)), V10_CP_HQD_WG_STATE_OFFSET) == 0x1234);
	q0 = hqd_of(v, 0x400);
	T(q0 >= 0 && v->hqd[q0][V10_CP_HQD_WG_STATE_OFFSET - V10_HQD_FIRST] ==
	  0x1234 && !v->ring[q0].aql_run);
	if (q0 < 0)
		return;
	v->ring[q0].aql_run = 1;
	HQD(g32(MQD(0)), V10_CP_HQD_WG_STATE_OFFSET) = 0;
	hiq_unmap(HSAGPU_PM4_UQ_RESET, HSAGPU_PM4_UQ_ALL, 0);
	hiq_go(v);
	T(n_aql_stops == 2 && !last_save);
	T(HQD(g32(MQD(0)), V10_CP_HQD_WG_STATE_OFFSET) == 0);
	v->ops.aql_stop = NULL;
	T(n_stopped == 0);

	/*
	 * a PM4 queue (kfdtest's): its SET_SH_REG state goes to the MQD's
	 * compute_* fields at an unmap and comes back with the next map
	 */
	aql_mqd(1);
	HQD(g32(MQD(1)), V10_CP_HQD_AQL_CONTROL) = 0;
	/* its ring and read pointer report in the process's space */
	HQD(g32(MQD(1)), V10_CP_HQD_PQ_BASE) = (USER_BASE + AQL_RING(1)) >> 8;
	HQD(g32(MQD(1)), V10_CP_HQD_PQ_BASE + 1) = (USER_BASE + AQL_RING(1)) >> 40;
	HQD(g32(MQD(1)), V10_CP_HQD_PQ_RPTR_REPORT_ADDR + 1) = USER_BASE >> 32;
	run_one(v, MQD(1), 0x402);
	q0 = hqd_of(v, 0x402);
	T(q0 >= 0 && !v->ring[q0].aql);
	if (q0 < 0)
		return;
	v->ring[q0].compute[V10_COMPUTE_PGM_LO - V10_COMPUTE_FIRST] = 0xabc;
	v->ring[q0].compute[V10_COMPUTE_USER_DATA_0 + 15 - V10_COMPUTE_FIRST] = 0x15;
	hiq_run_list(ib_w);
	hiq_go(v);
	T(g32(MQD(1))[V10_MQD_COMPUTE_DW + V10_COMPUTE_PGM_LO -
		      V10_COMPUTE_FIRST] == 0xabc);
	q0 = hqd_of(v, 0x402);
	T(q0 >= 0 && v->ring[q0].compute[V10_COMPUTE_PGM_LO -
					  V10_COMPUTE_FIRST] == 0xabc &&
	  v->ring[q0].compute[V10_COMPUTE_USER_DATA_0 + 15 -
			      V10_COMPUTE_FIRST] == 0x15);
	T(n_stopped == 0);
	if (q0 < 0)
		return;

	/*
	 * its pointers: both go to the MQD at an unmap; at the next map the
	 * write pointer is the process's, which moved while the queue was
	 * off the hardware (kfdtest's PM4EventInterrupt: four queues, one
	 * destroyed, the others re-mapped)
	 */
	for (unsigned i = 0; i < 8; i++)
		g32(AQL_RING(1))[i] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_NOP, 2);
	*(uint64_t *)(gmem + 0x7000 + 0x402 * 8) = 4;
	hsagpu_v10_cp_doorbell(v, 0x402, 4);
	cp_pass(v);
	T(v->ring[q0].pm4.rptr == 4);
	hiq_unmap(HSAGPU_PM4_UQ_PREEMPT, HSAGPU_PM4_UQ_ALL, 0);
	hiq_go(v);
	T(hqd_of(v, 0x402) < 0);
	T(HQD(g32(MQD(1)), V10_CP_HQD_PQ_RPTR) == 4 &&
	  HQD(g32(MQD(1)), V10_CP_HQD_PQ_WPTR_LO) == 4);
	/* two more packets, and a doorbell no HQD hears */
	*(uint64_t *)(gmem + 0x7000 + 0x402 * 8) = 8;
	T(!hsagpu_v10_cp_doorbell(v, 0x402, 8));
	hiq_run_list(ib_w);
	hiq_go(v);
	q0 = hqd_of(v, 0x402);
	T(q0 >= 0);
	if (q0 < 0)
		return;
	cp_pass(v);
	TM(v->ring[q0].pm4.rptr == 8 && v->ring[q0].wptr == 8 && !n_stopped,
	   "re-mapped PM4 queue: read pointer %u, write pointer %llu, %u stopped",
	   v->ring[q0].pm4.rptr, (unsigned long long)v->ring[q0].wptr,
	   n_stopped);
}

/*
 * Global wave sync on a PM4 queue, as kfdtest's KFDGWSTest.Semaphore
 * uses it: the process's GWS queue (MAP_PROCESS's num_gws, MAP_QUEUES'
 * gws control) initialises a semaphore in one dispatch, and the next
 * one's workgroups each take it, add 1 to a counter and give it back.
 * Before, ds_gws_* on a PM4 queue stopped it ("a queue without GWS").
 */
#define GWS_CODE        0x70000
#define GWS_COUNT       0x71000
static uint32_t pm4_w;

static void pm4_put(uint32_t val)
{
	g32(AQL_RING(1))[pm4_w++] = val;
}

static void pm4_sh(uint32_t reg, uint32_t a, uint32_t b)
{
	pm4_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_SH_REG, 4));
	pm4_put(reg - HSAGPU_PM4_SH_REG_START);
	pm4_put(a);
	pm4_put(b);
}

static void pm4_dispatch(uint64_t code, uint32_t groups)
{
	pm4_sh(V10_COMPUTE_PGM_LO, (USER_BASE + code) >> 8,
	       (USER_BASE + code) >> 40);
	/* 1 VGPR block; 2 user SGPRs */
	pm4_sh(V10_COMPUTE_PGM_RSRC1, 0x000f0000, 2 << 1);
	pm4_sh(V10_COMPUTE_NUM_THREAD_X, 64, 1);
	pm4_sh(V10_COMPUTE_NUM_THREAD_X + 2, 1, 0);
	pm4_sh(V10_COMPUTE_USER_DATA_0, (uint32_t)(USER_BASE + GWS_COUNT),
	       (USER_BASE + GWS_COUNT) >> 32);
	pm4_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_DISPATCH_DIRECT, 5));
	pm4_put(groups);
	pm4_put(1);
	pm4_put(1);
	pm4_put(HSAGPU_PM4_DI_ENABLE);
}

static void test_pm4_gws(void)
{
	/*
	 * llvm-mc -mcpu=gfx900. Init: s_mov_b32 m0, 0; v_mov_b32 v0, 1;
	 * ds_gws_init v0 gds; s_endpgm. Add: s_mov_b32 m0, 0;
	 * ds_gws_sema_p gds; s_load_dword s4, s[0:1], 0x0 glc; s_waitcnt
	 * lgkmcnt(0); s_add_u32 s4, s4, 1; s_store_dword s4, s[0:1], 0x0
	 * glc; s_waitcnt lgkmcnt(0); ds_gws_sema_v gds; s_endpgm
	 */
	static const uint32_t init[] = {
		0xbefc0080, 0x7e000281, 0xd9330000, 0, 0xbf810000,
	};
	static const uint32_t add[] = {
		0xbefc0080, 0xd9390000, 0, 0xc0030100, 0, 0xbf8cc07f,
		0x80048104, 0xc0430100, 0, 0xbf8cc07f, 0xd9350000, 0,
		0xbf810000,
	};
	HsaGpuV10 *v = boot(0xff00);
	int q, n;

	memcpy(g32(GWS_CODE), init, sizeof(init));
	memcpy(g32(GWS_CODE + 0x100), add, sizeof(add));
	aql_mqd(1);
	HQD(g32(MQD(1)), V10_CP_HQD_AQL_CONTROL) = 0;
	HQD(g32(MQD(1)), V10_CP_HQD_PQ_BASE) = (USER_BASE + AQL_RING(1)) >> 8;
	HQD(g32(MQD(1)), V10_CP_HQD_PQ_BASE + 1) = (USER_BASE + AQL_RING(1)) >> 40;
	HQD(g32(MQD(1)), V10_CP_HQD_PQ_RPTR_REPORT_ADDR + 1) = USER_BASE >> 32;
	ib_w = 0;
	ib_process(0x8001, PD(1), 1);
	g32(IB)[13] |= 1;                       /* num_gws */
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(1), 0x402, 0);
	g32(IB)[17] |= HSAGPU_PM4_MQ_GWS_CONTROL;
	hiq_run_list(ib_w);
	hiq_go(v);
	q = hqd_of(v, 0x402);
	T(q >= 0 && v->hws.gws[q] == 1);
	if (q < 0)
		return;
	pm4_w = 0;
	pm4_dispatch(GWS_CODE, 1);
	pm4_dispatch(GWS_CODE + 0x100, 300);
	*(uint64_t *)(gmem + 0x7000 + 0x402 * 8) = pm4_w;
	hsagpu_v10_cp_doorbell(v, 0x402, pm4_w);
	for (n = 0; n < 100 && v->ring[q].pm4.rptr != pm4_w; n++)
		cp_pass(v);
	TM(g32(GWS_COUNT)[0] == 300 && !n_stopped && v->disp_gws[q].counter[0] == 1,
	   "300 workgroups through a GWS semaphore: counted %u, %u stopped "
	   "(%s), semaphore %u", g32(GWS_COUNT)[0], n_stopped,
	   v->disp_what ? v->disp_what : "-", v->disp_gws[q].counter[0]);
	hsagpu_v10_dispatch_free(v);
}

/* More processes than VMIDs, more queues than slots: they take turns */
static void test_oversubscribed(void)
{
	HsaGpuV10 *v = boot(0x0300);

	for (unsigned i = 0; i < 3; i++)
		aql_mqd(i);
	ib_w = 0;
	ib_process(0x8001, PD(1), 1);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(0), 0x400, 0);
	ib_process(0x8002, PD(2), 1);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(1), 0x402, 0);
	ib_process(0x8003, PD(3), 1);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(2), 0x404, 0);
	/* chained: the runlist ends in a RUN_LIST of itself */
	ib_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RUN_LIST, 4));
	ib_put(IB);
	ib_put(0);
	ib_put((ib_w + 1) | HSAGPU_PM4_RL_VALID | HSAGPU_PM4_RL_CHAIN);
	hiq_run_list(ib_w);
	hiq_query(7);
	hiq_go(v);
	T(n_stopped == 0 && *g32(FENCE) == 7);
	T(v->hws.runlists == 1);
	T(hqd_of(v, 0x400) >= 0 && hqd_of(v, 0x402) >= 0);
	T(hqd_of(v, 0x404) < 0);
	T(v->hws.rl_over && v->hws.rl_nproc == 3 && v->hws.rl_resident == 2);
	T(v->hws.pasid[8] == 0x8001 && v->hws.pasid[9] == 0x8002);

	/*
	 * time-slicing: at the end of a turn the next process goes on
	 * first, then the first one again; the one taken off is saved
	 * into its MQD (its read pointer comes back at its next turn)
	 */
	v->hqd[hqd_of(v, 0x402)][V10_CP_HQD_PQ_RPTR - V10_HQD_FIRST] = 0x21;
	v->hws.rotate_due = true;
	cp_pass(v);
	T(!v->hws.rotate_due && v->hws.rotations == 1);
	T(hqd_of(v, 0x404) >= 0 && hqd_of(v, 0x400) >= 0 && hqd_of(v, 0x402) < 0);
	T(v->hws.pasid[8] == 0x8003 && v->hws.pasid[9] == 0x8001);
	T(vmid_of(v, hqd_of(v, 0x404)) == 8 && vmid_of(v, hqd_of(v, 0x400)) == 9);
	T(HQD(g32(MQD(1)), V10_CP_HQD_PQ_RPTR) == 0x21);
	v->hws.rotate_due = true;
	cp_pass(v);
	T(hqd_of(v, 0x402) >= 0 && hqd_of(v, 0x404) >= 0 && hqd_of(v, 0x400) < 0);
	T(v->hqd[hqd_of(v, 0x402)][V10_CP_HQD_PQ_RPTR - V10_HQD_FIRST] == 0x21);
	T(v->hws.pasid[8] == 0x8002 && v->hws.pasid[9] == 0x8003);
	T(n_stopped == 0);

	/* an UNMAP_QUEUES ends the turns until the next runlist */
	hiq_unmap(HSAGPU_PM4_UQ_PREEMPT, HSAGPU_PM4_UQ_BY_PASID, 0x8002);
	hiq_go(v);
	T(!v->hws.rl_over && hqd_of(v, 0x402) < 0 && hqd_of(v, 0x404) >= 0);
	v->hws.rotate_due = true;
	cp_pass(v);
	T(v->hws.rotations == 2 && hqd_of(v, 0x404) >= 0 && hqd_of(v, 0x400) < 0);

	/*
	 * more queues than slots, every process resident: the queues take
	 * turns, the next ones after those that ran, wrapping round
	 */
	v->hws.queue_mask = 1ULL << 3 | 1ULL << 4;
	ib_w = 0;
	ib_process(0x8001, PD(1), 1);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(0), 0x400, 0);
	ib_process(0x8002, PD(2), 2);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(1), 0x402, 0);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(2), 0x404, 0);
	hiq_run_list(ib_w);
	hiq_go(v);
	T(v->hws.rl_over && v->hws.rl_resident == 2);
	T(v->hws.rl_queues == 3 && v->hws.rl_mapped == 2);
	T(hqd_of(v, 0x400) >= 0 && hqd_of(v, 0x402) >= 0 && hqd_of(v, 0x404) < 0);
	v->hws.rotate_due = true;
	cp_pass(v);
	T(hqd_of(v, 0x404) >= 0 && hqd_of(v, 0x400) >= 0 && hqd_of(v, 0x402) < 0);
	T(vmid_of(v, hqd_of(v, 0x404)) != vmid_of(v, hqd_of(v, 0x400)));
	v->hws.rotate_due = true;
	cp_pass(v);
	T(hqd_of(v, 0x402) >= 0 && hqd_of(v, 0x404) >= 0 && hqd_of(v, 0x400) < 0);
	T(n_stopped == 0);

	/*
	 * one process with more queues than slots (kfdtest's
	 * OverSubscribeCpQueues: 65 queues): every one gets its turns
	 */
	ib_w = 0;
	ib_process(0x8001, PD(1), 3);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(0), 0x400, 0);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(1), 0x402, 0);
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(2), 0x404, 0);
	hiq_run_list(ib_w);
	hiq_go(v);
	T(v->hws.rl_over && v->hws.rl_nproc == 1 && v->hws.rl_resident == 1);
	{
		unsigned seen = 0;

		for (int turn = 0; turn < 3; turn++) {
			for (unsigned q = 0; q < 3; q++)
				seen |= (hqd_of(v, 0x400 + 2 * q) >= 0) << q;
			v->hws.rotate_due = true;
			cp_pass(v);
		}
		TM(seen == 7, "one process, 3 queues, 2 slots: queues %#x ran",
		   seen);
	}
	T(n_stopped == 0);

	/* a runlist that fits: no turns */
	run_one(v, MQD(0), 0x400);
	T(!v->hws.rl_over && hqd_of(v, 0x400) >= 0);
}

/* Malformed runlists and packets stop the HIQ; nothing half-mapped */
static void test_bad_runlists(void)
{
	static const struct {
		const char *what;
		uint32_t dw0;
		unsigned err;
	} bad[] = {
		{ "a type-2 packet", 0x80000000u, HSAGPU_PM4_ERR_IB },
		{ "an opcode no runlist has",
		  HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5),
		  HSAGPU_PM4_ERR_IB },
		{ "a packet longer than the runlist",
		  HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7) + (100u << 16),
		  HSAGPU_PM4_ERR_IB },
		{ "a MAP_PROCESS of the wrong size",
		  HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_PROCESS, 12),
		  HSAGPU_PM4_ERR_IB },
	};
	HsaGpuV10 *v;

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = boot(0xff00);
		aql_mqd(0);
		ib_w = 0;
		ib_put(bad[i].dw0);
		for (int k = 0; k < 15; k++)
			ib_put(0);
		hiq_run_list(ib_w);
		hiq_go(v);
		TM(n_stopped == 1 && stop_err == bad[i].err, "%s: stopped, "
		   "error %u", bad[i].what, stop_err);
		T(v->hws.maps == 0 && hqd_of(v, 0x400) < 0);
	}

	/* a MAP_QUEUES before any MAP_PROCESS */
	v = boot(0xff00);
	aql_mqd(0);
	ib_w = 0;
	ib_queue(HSAGPU_PM4_ENGINE_COMPUTE, MQD(0), 0x400, 0);
	hiq_run_list(ib_w);
	hiq_go(v);
	T(n_stopped == 1 && stop_err == HSAGPU_PM4_ERR_IB);
	T(hqd_of(v, 0x400) < 0);

	/* a runlist (or an MQD) outside memory: a memory error */
	v = boot(0xff00);
	hiq_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RUN_LIST, 4));
	hiq_put(GMEM - 8);
	hiq_put(0xffff);
	hiq_put(0xfffff | HSAGPU_PM4_RL_VALID);
	hiq_go(v);
	T(n_stopped == 1 && stop_err == HSAGPU_PM4_ERR_MEMORY);
	v = boot(0xff00);
	run_one(v, 0xfff0000000ULL, 0x400);
	T(n_stopped == 1 && stop_err == HSAGPU_PM4_ERR_MEMORY);
	T(hqd_of(v, 0x400) < 0);

	/* an unmap by doorbell of no doorbell, or of PASID 0 */
	v = boot(0xff00);
	hiq_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_UNMAP_QUEUES, 6));
	hiq_put(HSAGPU_PM4_UQ_BY_DOORBELL << 4);
	for (int k = 0; k < 4; k++)
		hiq_put(0);
	hiq_go(v);
	T(n_stopped == 1 && stop_err == HSAGPU_PM4_ERR_PACKET);
	v = boot(0xff00);
	hiq_unmap(HSAGPU_PM4_UQ_PREEMPT, HSAGPU_PM4_UQ_BY_PASID, 0);
	hiq_go(v);
	T(n_stopped == 1 && stop_err == HSAGPU_PM4_ERR_PACKET);

	/* an invalid runlist maps nothing and unmaps nothing */
	v = boot(0xff00);
	hiq_put(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RUN_LIST, 4));
	hiq_put(IB);
	hiq_put(0);
	hiq_put(4);
	hiq_go(v);
	T(n_stopped == 0 && v->hws.runlists == 0);
}

/*
 * A process's two SDMA queues (SDMA0's RLC0 and RLC1): unmapped, each
 * MQD gets where its queue stopped; one MQD that cannot be read back is
 * a memory error that does not keep the other's state from its MQD
 */
static void test_sdma_queues(void)
{
	HsaGpuV10 *v = boot(0xff00);
	uint32_t rptr1 = hsagpu_v10_sdma_reg(0, 3, V10_SDMA_RB_RPTR);

	for (unsigned i = 0; i < 2; i++) {
		uint32_t *m = g32(MQD(i));

		memset(m, 0, 512);
		m[V10_SDMA_MQD_RB_CNTL] = 8 << 1;
		m[V10_SDMA_MQD_RB_BASE] = AQL_RING(i) >> 8;
		m[V10_SDMA_MQD_RB_RPTR_ADDR_LO] = READ_INDEX(i);
		m[V10_SDMA_MQD_RB_RPTR] = 0x11;
	}
	ib_w = 0;
	ib_process(0x8001, PD(1), 2);
	ib_queue(HSAGPU_PM4_ENGINE_SDMA0, MQD(0), 0x1800, 0);
	ib_queue(HSAGPU_PM4_ENGINE_SDMA0, MQD(1), 0x1802, 0);
	hiq_run_list(ib_w);
	hiq_go(v);
	T(n_stopped == 0 && v->hws.maps == 2);
	T(v->hws.sdma_mqd[2] == MQD(0) && v->hws.sdma_mqd[3] == MQD(1));
	T(v->hws.sdma_pasid[3] == 0x8001);
	/* RLC1 moved on; RLC0's MQD is gone from where the scheduler reads */
	v->reg[rptr1] = 0x40;
	v->hws.sdma_mqd[2] = GMEM + 0x1000;
	hiq_unmap(HSAGPU_PM4_UQ_PREEMPT, HSAGPU_PM4_UQ_ALL, 0);
	hiq_go(v);
	T(n_stopped == 1 && stop_err == HSAGPU_PM4_ERR_MEMORY);
	T(g32(MQD(1))[V10_SDMA_MQD_RB_RPTR] == 0x40);
	T(v->hws.sdma_mqd[2] == 0 && v->hws.sdma_mqd[3] == 0);
	T(v->hws.pasid[8] == 0);
}

/* A device reset forgets the scheduler */
static void test_reset(void)
{
	HsaGpuV10 *v = boot(0xff00);

	aql_mqd(0);
	run_one(v, MQD(0), 0x400);
	T(hqd_of(v, 0x400) >= 0 && v->hws.pasid[8] == 0x8001);
	hsagpu_v10_reset(v);
	T(v->hws.hiq_ring == V10_NUM_RINGS && v->hws.vmid_mask == 0);
	T(v->hws.pasid[8] == 0 && v->hws.maps == 0);
	T(hqd_of(v, 0x400) < 0);
}

int main(void)
{
	test_hiq_mapped();
	test_runlist();
	test_preempt_saves();
	test_pm4_gws();
	test_oversubscribed();
	test_bad_runlists();
	test_sdma_queues();
	test_reset();
	return tap_done();
}

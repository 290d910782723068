// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for the QEMU-independent device logic (register file
 * semantics, doorbell access checks, expansion ROM image, AtomicOp and
 * bus resolver rules). TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/core/hsagpu-core.h"
#include "hw/hsagpu/core/hsagpu-bus.h"

#include "tap.h"

static const HsaGpuIdent ident = {
	.vendor_id = HSAGPU_PCI_VENDOR_ID,
	.device_id = HSAGPU_PCI_DEVICE_ID,
	.revision = 3,
	.vram_size = 8ULL << 30,
	.num_queues = 16,
	.msix_vectors = 17,
	.caps = HSAGPU_CAP_ROM_INFO | HSAGPU_CAP_ATOMIC_COMP64,
	.compute_units = 37,
};

static void test_regfile(void)
{
	HsaGpuRegFile rf;
	HsaGpuRegEnv env = { .now_ns = 0x123456789aULL,
			     .status = HSAGPU_STATUS_READY };
	uint64_t v;

	hsagpu_regs_reset(&rf);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_MAGIC, 4, &v) == 0 &&
	  v == HSAGPU_MAGIC_VALUE);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_VRAM_SIZE_LO, 8, &v) == 0 &&
	  v == 8ULL << 30);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_VRAM_SIZE_HI, 4, &v) == 0 &&
	  v == 2);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_DEVICE_ID, 4, &v) == 0 &&
	  v == (HSAGPU_PCI_DEVICE_ID << 16 | HSAGPU_PCI_VENDOR_ID));
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_STATUS, 4, &v) == 0 &&
	  v == HSAGPU_STATUS_READY);

	/* Timestamp: a 64-bit read and LO-then-HI reads agree. */
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_TIMESTAMP_LO, 8, &v) == 0 &&
	  v == env.now_ns);
	hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_TIMESTAMP_LO, 4, &v);
	env.now_ns += 1ULL << 32;  /* HI moves on after LO was read */
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_TIMESTAMP_HI, 4, &v) == 0 &&
	  v == 0x12);

	/* Scratch */
	T(hsagpu_regs_write(&rf, HSAGPU_REG_SCRATCH0, 8, 0x1111222233334444ULL) == 0);
	T(rf.scratch[0] == 0x33334444 && rf.scratch[1] == 0x11112222);

	/* Bad accesses */
	T(hsagpu_regs_read(&rf, &ident, &env, 0x0ffc, 4, &v) ==
	  HSAGPU_BAD_REASON_UNMAPPED && v == 0);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_MAGIC, 2, &v) ==
	  HSAGPU_BAD_REASON_SIZE && v == 0);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_MAGIC + 2, 4, &v) ==
	  HSAGPU_BAD_REASON_ALIGN);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_ABI_VERSION, 8, &v) ==
	  HSAGPU_BAD_REASON_ALIGN);
	T(hsagpu_regs_write(&rf, HSAGPU_REG_MAGIC, 4, 0) ==
	  HSAGPU_BAD_REASON_READONLY);
	/* A 64-bit write half onto a read-only register changes nothing. */
	T(hsagpu_regs_write(&rf, HSAGPU_REG_SCRATCH1, 8, 0) != 0 &&
	  rf.scratch[1] == 0x11112222);

	T(hsagpu_regs_write(&rf, HSAGPU_REG_ERROR_INT_ENABLE, 4, ~0u) == 0 &&
	  rf.error_int_enable == HSAGPU_ERR_ALL);
	/* First error interrupts, a repeat while pending does not. */
	T(hsagpu_regs_note_bad(&rf, HSAGPU_BAR_MMIO, 0x2004, 2, 1,
			       HSAGPU_BAD_REASON_SIZE) == 1);
	T(hsagpu_regs_note_bad(&rf, HSAGPU_BAR_MMIO, 0x2004, 2, 1,
			       HSAGPU_BAD_REASON_SIZE) == 0);
	T(rf.bad_access_count == 2);
	T(rf.bad_access_addr == (HSAGPU_BAR_MMIO << 28 | 0x2004));
	T(rf.bad_access_info == (HSAGPU_BAD_ACCESS_WRITE | 2 |
				 HSAGPU_BAD_REASON_SIZE << HSAGPU_BAD_ACCESS_REASON_SHIFT));
	T(rf.error_status == HSAGPU_ERR_BAD_MMIO);
	hsagpu_regs_write(&rf, HSAGPU_REG_ERROR_INT_ENABLE, 4, 0);
	T(hsagpu_regs_note_bad(&rf, HSAGPU_BAR_DOORBELL, 3, 1, 0,
			       HSAGPU_BAD_REASON_SIZE) == 0);
	T(rf.error_status == (HSAGPU_ERR_BAD_MMIO | HSAGPU_ERR_BAD_DOORBELL));
	/* Write-1-to-clear clears only the bits written. */
	T(hsagpu_regs_write(&rf, HSAGPU_REG_ERROR_STATUS, 4, HSAGPU_ERR_BAD_MMIO) == 0 &&
	  rf.error_status == HSAGPU_ERR_BAD_DOORBELL);
	rf.bad_access_count = UINT32_MAX;
	hsagpu_regs_note_bad(&rf, HSAGPU_BAR_MMIO, 0, 1, 0, HSAGPU_BAD_REASON_SIZE);
	T(rf.bad_access_count == UINT32_MAX);

	hsagpu_regs_reset(&rf);
	T(rf.scratch[0] == 0 && rf.error_status == 0 && rf.bad_access_count == 0);
}

static void test_doorbell_check(void)
{
	T(hsagpu_doorbell_check(0, 8) == 0);
	T(hsagpu_doorbell_check(12, 4) == 0);
	T(hsagpu_doorbell_check(HSAGPU_DOORBELL_BAR_SIZE - 8, 8) == 0);
	T(hsagpu_doorbell_check(4, 8) == HSAGPU_BAD_REASON_ALIGN);
	T(hsagpu_doorbell_check(0, 2) == HSAGPU_BAD_REASON_SIZE);
	T(hsagpu_doorbell_check(0, 1) == HSAGPU_BAD_REASON_SIZE);
	T(hsagpu_doorbell_check(HSAGPU_DOORBELL_BAR_SIZE, 8) ==
	  HSAGPU_BAD_REASON_UNMAPPED);
}

static uint8_t sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s += *p++;
	return s;
}

static void test_rom(void)
{
	uint8_t *rom = malloc(HSAGPU_ROM_SIZE);
	const uint8_t *pcir, *info;
	struct hsagpu_rom_info t;

	memset(rom, 0xee, HSAGPU_ROM_SIZE);
	hsagpu_rom_build(rom, HSAGPU_ROM_SIZE, &ident,
			 "a name that is far too long for the table field");
	pcir = rom + (rom[0x18] | rom[0x19] << 8);
	info = rom + (rom[HSAGPU_ROM_INFO_PTR_OFFSET] |
		      rom[HSAGPU_ROM_INFO_PTR_OFFSET + 1] << 8);
	T(rom[0] == 0x55 && rom[1] == 0xaa);
	T(memcmp(pcir, "PCIR", 4) == 0);
	T((pcir[4] | pcir[5] << 8) == HSAGPU_PCI_VENDOR_ID);
	T((pcir[6] | pcir[7] << 8) == HSAGPU_PCI_DEVICE_ID);
	T((pcir[0xd] | pcir[0xe] << 8 | pcir[0xf] << 16) == HSAGPU_PCI_CLASS_CODE);
	T((pcir[0x10] | pcir[0x11] << 8) * 512 == HSAGPU_ROM_SIZE);
	T(pcir[0x14] == HSAGPU_ROM_CODE_TYPE && (pcir[0x15] & 0x80));
	T(sum(rom, HSAGPU_ROM_SIZE) == 0);
	T(sizeof(struct hsagpu_rom_info) == HSAGPU_ROM_INFO_SIZE);
	memcpy(&t, info, sizeof(t));
	T(t.signature == HSAGPU_ROM_INFO_SIGNATURE);
	T(t.length == sizeof(t) && t.version == HSAGPU_ROM_INFO_VERSION);
	T(t.vram_size == ident.vram_size && t.num_queues == ident.num_queues);
	T(t.msix_vectors == ident.msix_vectors && t.caps == ident.caps);
	T(t.abi_version == HSAGPU_ABI_VERSION);
	T(t.compute_units == 37);
	T(t.doorbell_count == HSAGPU_DOORBELL_COUNT);
	T(t.name[31] == 0 && strlen(t.name) == 31);
	T(sum(info, sizeof(t)) == 0);
	/* Padding is zero, not stale buffer content. */
	T(rom[0x1000] == 0 && rom[HSAGPU_ROM_SIZE - 2] == 0);
	free(rom);
}

static void test_atomic_rules(void)
{
	const uint32_t f64 = HSAGPU_ATOMIC_OP_FETCHADD | HSAGPU_ATOMIC_SIZE_64;
	const uint32_t cas128 = HSAGPU_ATOMIC_OP_CAS | HSAGPU_ATOMIC_SIZE_128;
	const uint32_t all = HSAGPU_DEVCAP2_ATOMIC_COMP32 |
			     HSAGPU_DEVCAP2_ATOMIC_COMP64 |
			     HSAGPU_DEVCAP2_ATOMIC_COMP128;
	HsaGpuPathHop up = { .type = HSAGPU_PCIE_TYPE_UPSTREAM, .egress = 1,
			     .routes = 1, .devcap2 = HSAGPU_DEVCAP2_ATOMIC_ROUTE };
	HsaGpuPathHop down = { .type = HSAGPU_PCIE_TYPE_DOWNSTREAM, .routes = 1,
			       .devcap2 = HSAGPU_DEVCAP2_ATOMIC_ROUTE };
	HsaGpuPathHop rp = { .type = HSAGPU_PCIE_TYPE_ROOT_PORT };
	HsaGpuPathHop path[3];

	/* Sizes, operations and natural alignment */
	T(hsagpu_atomic_size(f64) == 8);
	T(hsagpu_atomic_size(cas128) == 16);
	T(hsagpu_atomic_size(HSAGPU_ATOMIC_OP_SWAP | HSAGPU_ATOMIC_SIZE_128) == 0);
	T(hsagpu_atomic_check(0x1000, f64) == 0);
	T(hsagpu_atomic_check(0x1004, f64) == HSAGPU_ATOMIC_ST_MALFORMED);
	T(hsagpu_atomic_check(0x1004, HSAGPU_ATOMIC_SIZE_32) == 0);
	T(hsagpu_atomic_check(0x1008, cas128) == HSAGPU_ATOMIC_ST_MALFORMED);
	T(hsagpu_atomic_check(0x1010, cas128) == 0);
	T(hsagpu_atomic_check(0x1000, HSAGPU_ATOMIC_OP_FETCHADD |
			      HSAGPU_ATOMIC_SIZE_128) == HSAGPU_ATOMIC_ST_MALFORMED);
	T(hsagpu_atomic_check(0x1000, 3 | HSAGPU_ATOMIC_SIZE_32) ==
	  HSAGPU_ATOMIC_ST_MALFORMED);
	T(hsagpu_atomic_check(0x1000, 3U << HSAGPU_ATOMIC_SIZE_SHIFT) ==
	  HSAGPU_ATOMIC_ST_MALFORMED);

	/* Root port completer bits decide, per size */
	T(hsagpu_atomic_route(&rp, 1, all, 8) == 0);
	T(hsagpu_atomic_route(&rp, 1, 0, 4) == HSAGPU_ATOMIC_ST_UR);
	T(hsagpu_atomic_route(&rp, 1, HSAGPU_DEVCAP2_ATOMIC_COMP64, 16) ==
	  HSAGPU_ATOMIC_ST_UR);
	/* Switch ports must route */
	path[0] = down; path[1] = up; path[2] = rp;
	T(hsagpu_atomic_route(path, 3, all, 8) == 0);
	path[0].devcap2 = 0;
	T(hsagpu_atomic_route(path, 3, all, 8) == HSAGPU_ATOMIC_ST_UR);
	/* Egress blocking applies where the request leaves a port */
	path[0] = down;
	path[1].devctl2 = HSAGPU_DEVCTL2_ATOMIC_EGRESS_BLOCK;
	T(hsagpu_atomic_route(path, 3, all, 8) == HSAGPU_ATOMIC_ST_UR);
	path[1] = up;
	path[0].devctl2 = HSAGPU_DEVCTL2_ATOMIC_EGRESS_BLOCK;  /* ingress */
	T(hsagpu_atomic_route(path, 3, all, 8) == 0);
}

static void test_atomic_exec(void)
{
	static unsigned __int128 mem[2] __attribute__((aligned(16)));
	uint32_t *m32 = (uint32_t *)mem;
	uint64_t *m64 = (uint64_t *)mem;
	uint64_t a[2] = { 5, 0 }, b[2] = { 0, 0 }, r[2];

	m32[0] = 10;
	hsagpu_atomic_exec(m32, HSAGPU_ATOMIC_OP_FETCHADD, a, b, r);
	T(r[0] == 10 && m32[0] == 15 && m32[1] == 0);
	a[0] = 0xffffffffULL;   /* 32-bit add wraps without carry out */
	hsagpu_atomic_exec(m32, HSAGPU_ATOMIC_OP_FETCHADD, a, b, r);
	T(r[0] == 15 && m32[0] == 14 && m32[1] == 0);
	a[0] = 7;
	hsagpu_atomic_exec(m32, HSAGPU_ATOMIC_OP_SWAP, a, b, r);
	T(r[0] == 14 && m32[0] == 7);
	a[0] = 6; b[0] = 99;    /* CAS mismatch: unchanged, old value back */
	hsagpu_atomic_exec(m32, HSAGPU_ATOMIC_OP_CAS, a, b, r);
	T(r[0] == 7 && m32[0] == 7);
	a[0] = 7;
	hsagpu_atomic_exec(m32, HSAGPU_ATOMIC_OP_CAS, a, b, r);
	T(r[0] == 7 && m32[0] == 99);

	m64[0] = 1ULL << 40;
	a[0] = 1ULL << 40;
	hsagpu_atomic_exec(m64, HSAGPU_ATOMIC_OP_FETCHADD | HSAGPU_ATOMIC_SIZE_64,
			   a, b, r);
	T(r[0] == 1ULL << 40 && m64[0] == 1ULL << 41);

	m64[0] = 1; m64[1] = 2;
	a[0] = 1; a[1] = 3; b[0] = 8; b[1] = 9;
	hsagpu_atomic_exec(mem, HSAGPU_ATOMIC_OP_CAS | HSAGPU_ATOMIC_SIZE_128,
			   a, b, r);
	T(r[0] == 1 && r[1] == 2 && m64[0] == 1 && m64[1] == 2);
	a[1] = 2;
	hsagpu_atomic_exec(mem, HSAGPU_ATOMIC_OP_CAS | HSAGPU_ATOMIC_SIZE_128,
			   a, b, r);
	T(r[0] == 1 && r[1] == 2 && m64[0] == 8 && m64[1] == 9);
}

static void test_atomic_regs(void)
{
	HsaGpuRegFile rf;
	HsaGpuRegEnv env = { 0 };
	uint64_t v;

	hsagpu_regs_reset(&rf);
	T(hsagpu_regs_write(&rf, HSAGPU_REG_ATOMIC_ADDR_LO, 8, 0x123456789000ULL) == 0 &&
	  rf.atomic_addr[0] == 0x56789000 && rf.atomic_addr[1] == 0x1234);
	T(hsagpu_regs_write(&rf, HSAGPU_REG_ATOMIC_SRC1 + 12, 4, 0xabc) == 0 &&
	  rf.atomic_src1[3] == 0xabc);
	T(hsagpu_regs_write(&rf, HSAGPU_REG_ATOMIC_RESULT, 4, 1) ==
	  HSAGPU_BAD_REASON_READONLY);
	rf.atomic_cnt_st[HSAGPU_ATOMIC_ST_UR] = 3;
	T(hsagpu_regs_read(&rf, &ident, &env,
			   HSAGPU_REG_ATOMIC_CNT_ST(HSAGPU_ATOMIC_ST_UR), 4, &v) == 0 &&
	  v == 3);
	T(hsagpu_regs_read(&rf, &ident, &env,
			   HSAGPU_REG_ATOMIC_CNT_ST(HSAGPU_ATOMIC_ST_COUNT), 4, &v) ==
	  HSAGPU_BAD_REASON_UNMAPPED);
}

/* Every register array decodes by name: each reads its own field. */
static void test_reg_arrays(void)
{
	HsaGpuRegFile rf;
	HsaGpuRegEnv env = { 0 };
	uint64_t v;

	hsagpu_regs_reset(&rf);
	rf.atomic_src0[1] = 0x101;
	rf.atomic_src1[2] = 0x102;
	rf.atomic_result[3] = 0x103;
	rf.atomic_cnt_op[2] = 0x104;
	rf.atomic_cnt_st[HSAGPU_ATOMIC_ST_P2P_LIMIT] = 0x105;
	rf.pkt_cnt[HSAGPU_PKT_CNT_PROCESSED] = 0x106;
	rf.pkt_cnt[HSAGPU_PKT_CNT_DOORBELLS] = 0x107;
	rf.pkt_cnt[HSAGPU_PKT_CNT_IRQS] = 0x108;
	rf.pkt_cnt[HSAGPU_PKT_CNT_ERRORS] = 0x109;
	rf.dma_cnt[5] = 0x10a0000000bULL;
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_ATOMIC_SRC0 + 4, 4,
			   &v) == 0 && v == 0x101);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_ATOMIC_SRC1 + 8, 4,
			   &v) == 0 && v == 0x102);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_ATOMIC_RESULT + 12, 4,
			   &v) == 0 && v == 0x103);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_ATOMIC_CNT_OP(2), 4,
			   &v) == 0 && v == 0x104);
	T(hsagpu_regs_read(&rf, &ident, &env,
			   HSAGPU_REG_ATOMIC_CNT_ST(HSAGPU_ATOMIC_ST_P2P_LIMIT),
			   4, &v) == 0 && v == 0x105);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_PKT_PROCESSED, 4,
			   &v) == 0 && v == 0x106);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_PKT_DOORBELLS, 4,
			   &v) == 0 && v == 0x107);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_PKT_IRQS, 4,
			   &v) == 0 && v == 0x108);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_PKT_ERRORS, 4,
			   &v) == 0 && v == 0x109);
	T(hsagpu_regs_read(&rf, &ident, &env,
			   HSAGPU_REG_DMA_CNT(0, 0) + 5 * 8, 8, &v) == 0 &&
	  v == 0x10a0000000bULL);
	T(hsagpu_regs_read(&rf, &ident, &env, HSAGPU_REG_PKT_ERRORS + 4, 4,
			   &v) != 0 || v != 0x109);
	T(strcmp(hsagpu_reg_name(HSAGPU_REG_PKT_IRQS), "PKT_COUNTERS") == 0);
}

/* The queue error list: one entry per code, in code order. */
#define QERR_CHECK(name, text) T(HSAGPU_QERR_##name == pos++ && text[0]);
static void test_qerr_list(void)
{
	unsigned pos = 0;

	static const char *const names[] = {
		HSAGPU_QERR_LIST(HSAGPU_QERR_NAME_INIT)
	};

	T((0 HSAGPU_QERR_LIST(HSAGPU_QERR_COUNT_ONE)) == HSAGPU_QERR_COUNT);
	T(sizeof(names) / sizeof(names[0]) == HSAGPU_QERR_COUNT);
	T(strcmp(names[HSAGPU_QERR_P2P_LIMIT],
		 "peer BAR above the P2P address limit") == 0);
	HSAGPU_QERR_LIST(QERR_CHECK)
}

/* AtomicOp outcome -> queue error, shared by signals, rptr, ATOMIC_INC */
static void test_atomic_qerr(void)
{
	T(hsagpu_atomic_qerr(HSAGPU_ATOMIC_ST_OK) == 0);
	T(hsagpu_atomic_qerr(HSAGPU_ATOMIC_ST_UR) == HSAGPU_QERR_ADDRESS);
	T(hsagpu_atomic_qerr(HSAGPU_ATOMIC_ST_CA) == HSAGPU_QERR_ADDRESS);
	T(hsagpu_atomic_qerr(HSAGPU_ATOMIC_ST_P2P_LIMIT) ==
	  HSAGPU_QERR_P2P_LIMIT);
	T(hsagpu_atomic_qerr(HSAGPU_ATOMIC_ST_NOT_ENABLED) ==
	  HSAGPU_QERR_ATOMIC);
	T(hsagpu_atomic_qerr(HSAGPU_ATOMIC_ST_MALFORMED) == HSAGPU_QERR_ATOMIC);
}

/* The bus resolver's rules, the same for DMA and AtomicOps. */
static void test_bus_rules(void)
{
	HsaGpuBusCache c = { 0 };

	T(hsagpu_bus_addr_limit(32) == 0xffffffffULL);
	T(hsagpu_bus_addr_limit(44) == (1ULL << 44) - 1);
	T(hsagpu_bus_addr_limit(64) == UINT64_MAX);
	/* BAR hits: unmapped BARs hit nothing, the end is exclusive */
	T(hsagpu_bus_in_bar(0x1000, 0x1000, 0x1000));
	T(hsagpu_bus_in_bar(0x1000, 0x1000, 0x1fff));
	T(!hsagpu_bus_in_bar(0x1000, 0x1000, 0x2000));
	T(!hsagpu_bus_in_bar(0x1000, 0x1000, 0xfff));
	T(!hsagpu_bus_in_bar(HSAGPU_BUS_NO_BAR, 0x1000, UINT64_MAX));
	/* A peer is reachable when its whole BAR is below the limit */
	T(hsagpu_bus_bar_below(0xc0000000ULL, 1 << 30, 0xffffffffULL));
	T(!hsagpu_bus_bar_below(0x100000000ULL, 1 << 20, 0xffffffffULL));
	T(!hsagpu_bus_bar_below(0xfff00000ULL, 2 << 20, 0xffffffffULL));
	T(!hsagpu_bus_bar_below(HSAGPU_BUS_NO_BAR, 1 << 20, UINT64_MAX));
	T(!hsagpu_bus_bar_below(0x1000, 0, UINT64_MAX));
	T(!hsagpu_bus_bar_below(UINT64_MAX - 0xfff, 0x2000, UINT64_MAX));
	/* Ranges: empty and wrapping ones are refused */
	T(hsagpu_bus_range_ok(0, 1) && hsagpu_bus_range_ok(UINT64_MAX, 1));
	T(!hsagpu_bus_range_ok(0x1000, 0) && !hsagpu_bus_range_ok(UINT64_MAX, 2));
	T(hsagpu_bus_clip(0x1000, 0x1000, 0x1f00, 0x1000) == 0x100);
	T(hsagpu_bus_clip(0x1000, 0x1000, 0x1000, 0x10) == 0x10);
	/* Below the limit: all 2^64 addresses with 64 bits, from 0 too */
	T(hsagpu_bus_below(0, 0x1000, UINT64_MAX) == 0x1000);
	T(hsagpu_bus_below(0, UINT64_MAX, UINT64_MAX) == UINT64_MAX);
	T(hsagpu_bus_below(0xfffff000ULL, 0x2000, 0xffffffffULL) == 0x1000);
	T(hsagpu_bus_below(0xffffffffULL, 1, 0xffffffffULL) == 1);
	/* Refusals as DMA and packet accesses report them */
	T(hsagpu_bus_qerr(HSAGPU_BUS_OK) == 0);
	T(hsagpu_bus_qerr(HSAGPU_BUS_PEER_LIMIT) == HSAGPU_QERR_P2P_LIMIT);
	T(hsagpu_bus_qerr(HSAGPU_BUS_ADDR_LIMIT) == HSAGPU_QERR_ADDRESS);
	T(hsagpu_bus_qerr(HSAGPU_BUS_UNMAPPED) == HSAGPU_QERR_ADDRESS);
	T(hsagpu_bus_qerr(HSAGPU_BUS_NOT_MEMORY) == HSAGPU_QERR_ADDRESS);
	T(hsagpu_bus_qerr(HSAGPU_BUS_BAD_RANGE) == HSAGPU_QERR_ADDRESS);
	/* ... and as AtomicOps report them: same cases, PCIe outcomes */
	T(hsagpu_bus_atomic_st(HSAGPU_BUS_OK, false) == HSAGPU_ATOMIC_ST_OK);
	T(hsagpu_bus_atomic_st(HSAGPU_BUS_PEER_LIMIT, true) ==
	  HSAGPU_ATOMIC_ST_P2P_LIMIT);
	T(hsagpu_bus_atomic_st(HSAGPU_BUS_ADDR_LIMIT, false) ==
	  HSAGPU_ATOMIC_ST_UR);
	T(hsagpu_bus_atomic_st(HSAGPU_BUS_UNMAPPED, false) ==
	  HSAGPU_ATOMIC_ST_UR);
	T(hsagpu_bus_atomic_st(HSAGPU_BUS_NOT_MEMORY, true) ==
	  HSAGPU_ATOMIC_ST_CA);
	T(hsagpu_bus_atomic_st(HSAGPU_BUS_NOT_MEMORY, false) ==
	  HSAGPU_ATOMIC_ST_UR);
	/* Whatever the class, DMA and AtomicOps agree on the queue error */
	for (unsigned r = HSAGPU_BUS_OK; r <= HSAGPU_BUS_UNMAPPED; r++) {
		unsigned st = hsagpu_bus_atomic_st(r, r == HSAGPU_BUS_NOT_MEMORY);

		if (r == HSAGPU_BUS_BAD_RANGE)
			continue;	/* an AtomicOp is checked before */
		T(hsagpu_atomic_qerr(st) == hsagpu_bus_qerr(r));
	}
	/* The last-hit cache */
	T(!hsagpu_bus_cache_hit(&c, 0));
	c = (HsaGpuBusCache){ .base = 0x10000000, .size = 1 << 20,
			      .cls = HSAGPU_BUS_LOCAL };
	T(hsagpu_bus_cache_hit(&c, 0x10000000));
	T(hsagpu_bus_cache_hit(&c, 0x100fffff));
	T(!hsagpu_bus_cache_hit(&c, 0x10100000));
	T(!hsagpu_bus_cache_hit(&c, 0xfffffff));
}

int main(void)
{
	test_bus_rules();
	test_atomic_qerr();
	test_qerr_list();
	test_reg_arrays();
	test_atomic_rules();
	test_atomic_exec();
	test_atomic_regs();
	test_regfile();
	test_doorbell_check();
	test_rom();
	return tap_done();
}

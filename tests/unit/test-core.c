// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for the QEMU-independent device logic (register file
 * semantics, doorbell access checks, expansion ROM image). TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsagpu-core.h"

#include "tap.h"

static const HsaGpuIdent ident = {
	.vendor_id = HSAGPU_PCI_VENDOR_ID,
	.device_id = HSAGPU_PCI_DEVICE_ID,
	.revision = 3,
	.vram_size = 8ULL << 30,
	.num_queues = 16,
	.msix_vectors = 17,
	.caps = HSAGPU_CAP_ROM_INFO | HSAGPU_CAP_ATOMIC_COMP64,
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

int main(void)
{
	test_atomic_rules();
	test_atomic_exec();
	test_atomic_regs();
	test_regfile();
	test_doorbell_check();
	test_rom();
	return tap_done();
}

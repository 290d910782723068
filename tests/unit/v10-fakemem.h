/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The GPU memory and register callbacks the Vega10 front end's unit
 * tests give its CP (HsaGpuV10CpOps): VMID 0 addresses are offsets into
 * one buffer; every other VMID sees that buffer at USER_BASE, where a
 * process's addresses are, and nothing below it; registers are the
 * front end's own; a stopped ring is counted with its error.
 */
#ifndef HSAGPU_V10_FAKEMEM_H
#define HSAGPU_V10_FAKEMEM_H

#include <stdint.h>
#include <string.h>

#include "hw/hsagpu/vega10/vega10.h"

#define GMEM            (1u << 20)
#define USER_BASE       0x7f0000000000ULL
static uint8_t gmem[GMEM];
static unsigned n_stopped, stop_err;

/* @a in @vmid as an offset into gmem, or GMEM when it does not translate */
static uint64_t g_off(uint32_t vmid, uint64_t a)
{
	if (vmid) {
		if (a < USER_BASE)
			return GMEM;
		a -= USER_BASE;
	}
	return a < GMEM ? a : GMEM;
}

static unsigned g_read(void *o, uint32_t vmid, uint64_t a, void *buf,
		       uint32_t len)
{
	uint64_t off = g_off(vmid, a);

	if (off >= GMEM || len > GMEM - off)
		return 1;
	memcpy(buf, gmem + off, len);
	return 0;
}

static unsigned g_write(void *o, uint32_t vmid, uint64_t a, const void *buf,
			uint32_t len)
{
	uint64_t off = g_off(vmid, a);

	if (off >= GMEM || len > GMEM - off)
		return 1;
	memcpy(gmem + off, buf, len);
	return 0;
}

/* HsaGpuV10Ops.mem: the same memory */
static unsigned g_mem(void *o, uint32_t vmid, uint64_t a, void *buf,
		      uint32_t len, bool write)
{
	return write ? g_write(o, vmid, a, buf, len) :
		       g_read(o, vmid, a, buf, len);
}

static void g_stopped(void *o, unsigned ri, uint32_t err, uint32_t hdr)
{
	n_stopped++;
	stop_err = err;
}

static uint32_t g_reg_read(void *o, uint32_t dw)
{
	return hsagpu_v10_read(o, dw);
}

static void g_reg_write(void *o, uint32_t dw, uint32_t val)
{
	hsagpu_v10_write(o, dw, val);
}

static uint32_t *g32(uint64_t a)
{
	return (uint32_t *)(gmem + a);
}

#endif

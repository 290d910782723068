// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for the dirty-line directory of the cached read alias
 * (hsagpu-vram-dir.c): marking at unaligned starts and ends, the
 * window's end, clears, the cursor/NEXT/WORD/TAKE registers and their
 * access-size rules. TAP output.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/core/hsagpu-vram-dir.h"

#include "tap.h"

#define SIZE    (1ULL << 20)    /* 256 words, 16384 lines */
#define LINES   (SIZE / 64)

static uint64_t words[SIZE / 4096];
static HsaGpuVramDir d;

static unsigned count_lines(void)
{
	unsigned n = 0;

	for (uint64_t l = 0; l < LINES; l++)
		n += hsagpu_vram_dir_test(&d, l);
	return n;
}

/* Exactly lines [first, end) dirty */
static int only(uint64_t first, uint64_t end)
{
	for (uint64_t l = 0; l < LINES; l++)
		if (hsagpu_vram_dir_test(&d, l) != (l >= first && l < end))
			return 0;
	return 1;
}

static uint64_t rd(uint32_t off, unsigned size, unsigned *bad)
{
	uint64_t v;

	*bad = hsagpu_vram_dir_reg_read(&d, off, size, &v);
	return v;
}

static void test_mark(void)
{
	hsagpu_vram_dir_init(&d, SIZE, words);
	T(count_lines() == 0);
	hsagpu_vram_dir_mark_lines(&d, 0, 1);
	T(only(0, 1));
	hsagpu_vram_dir_reset(&d);
	/* 63..64: two lines; 100 bytes from 4090: lines 63 and 64..65 */
	hsagpu_vram_dir_mark_lines(&d, 63, 2);
	T(only(0, 2));
	hsagpu_vram_dir_reset(&d);
	hsagpu_vram_dir_mark_lines(&d, 4090, 100);
	T(only(63, 66));
	hsagpu_vram_dir_reset(&d);
	/* aligned whole lines, across words */
	hsagpu_vram_dir_mark_lines(&d, 64 * 60, 64 * 10);
	T(only(60, 70));
	hsagpu_vram_dir_reset(&d);
	/* zero length marks nothing; beyond the window nothing */
	hsagpu_vram_dir_mark_lines(&d, 128, 0);
	hsagpu_vram_dir_mark_lines(&d, SIZE, 4096);
	hsagpu_vram_dir_mark_lines(&d, UINT64_MAX - 10, 100);
	T(count_lines() == 0);
	/* clipped at the window's end, huge length */
	hsagpu_vram_dir_mark_lines(&d, SIZE - 65, UINT64_MAX);
	T(only(LINES - 2, LINES));
	hsagpu_vram_dir_reset(&d);
	hsagpu_vram_dir_mark_lines(&d, 0, SIZE);
	T(count_lines() == LINES);
}

static void test_clear(void)
{
	unsigned bad;

	hsagpu_vram_dir_init(&d, SIZE, words);
	hsagpu_vram_dir_mark_lines(&d, 0, SIZE);
	hsagpu_vram_dir_clear(&d, 10, 100);
	T(count_lines() == LINES - 100);
	T(!hsagpu_vram_dir_test(&d, 10) && !hsagpu_vram_dir_test(&d, 109));
	T(hsagpu_vram_dir_test(&d, 9) && hsagpu_vram_dir_test(&d, 110));
	/* through the registers; count clipped at the end */
	T(!hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_CLEAR_FIRST, 4,
				     LINES - 5));
	T(!hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_CLEAR_COUNT, 4,
				     0xffffffff));
	T(count_lines() == LINES - 105);
	T(rd(HSAGPU_REG_DIR_CLEAR_FIRST, 4, &bad) == LINES - 5 && !bad);
	/* first beyond the directory: nothing */
	hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_CLEAR_FIRST, 4, 0xfffffff0);
	hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_CLEAR_COUNT, 4, 1000);
	T(count_lines() == LINES - 105);
	T(!hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_CTRL, 4,
				     HSAGPU_DIR_CTRL_CLEAR_ALL));
	T(count_lines() == 0);
}

static void test_scan(void)
{
	unsigned bad;
	uint64_t v;

	hsagpu_vram_dir_init(&d, SIZE, words);
	T(rd(HSAGPU_REG_RALIAS_SIZE_LO, 4, &bad) == SIZE && !bad);
	T(rd(HSAGPU_REG_RALIAS_SIZE_HI, 4, &bad) == 0 && !bad);
	T(rd(HSAGPU_REG_DIR_WORDS, 4, &bad) == SIZE / 4096 && !bad);
	/* nothing dirty: NEXT is DIR_WORDS */
	T(rd(HSAGPU_REG_DIR_NEXT, 4, &bad) == SIZE / 4096);
	hsagpu_vram_dir_mark_lines(&d, 5 * 4096 + 64 * 3, 64);     /* w5 b3 */
	hsagpu_vram_dir_mark_lines(&d, 9 * 4096 + 64 * 63, 65);    /* w9 b63, w10 b0 */
	hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_CURSOR, 4, 0);
	T(rd(HSAGPU_REG_DIR_NEXT, 4, &bad) == 5);
	T(rd(HSAGPU_REG_DIR_CURSOR, 4, &bad) == 5);
	T(rd(HSAGPU_REG_DIR_WORD, 8, &bad) == 1ULL << 3 && !bad);
	T(rd(HSAGPU_REG_DIR_CURSOR, 4, &bad) == 6);
	T(rd(HSAGPU_REG_DIR_NEXT, 4, &bad) == 9);
	/* TAKE with a mask: only the masked bits go */
	hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_MASK, 8, 1ULL << 62);
	T(rd(HSAGPU_REG_DIR_TAKE, 8, &bad) == 0 && !bad);
	T(hsagpu_vram_dir_test(&d, 9 * 64 + 63));
	hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_MASK, 4, 0);
	hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_MASK + 4, 4, 0x80000000);
	T(rd(HSAGPU_REG_DIR_MASK, 8, &bad) == 1ULL << 63);
	hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_CURSOR, 4, 9);
	T(rd(HSAGPU_REG_DIR_TAKE, 8, &bad) == 1ULL << 63);
	T(!hsagpu_vram_dir_test(&d, 9 * 64 + 63));
	hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_MASK, 8, UINT64_MAX);
	T(rd(HSAGPU_REG_DIR_NEXT, 4, &bad) == 10);
	T(rd(HSAGPU_REG_DIR_TAKE, 8, &bad) == 1);
	T(rd(HSAGPU_REG_DIR_NEXT, 4, &bad) == SIZE / 4096);
	/* at the end: WORD/TAKE read 0, the cursor stays */
	T(rd(HSAGPU_REG_DIR_TAKE, 8, &bad) == 0 && !bad);
	T(rd(HSAGPU_REG_DIR_CURSOR, 4, &bad) == SIZE / 4096);
	/* cursor writes are clipped */
	hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_CURSOR, 4, 0xffffffff);
	T(rd(HSAGPU_REG_DIR_CURSOR, 4, &bad) == SIZE / 4096);
	T(count_lines() == 1);          /* w5 b3 is still there */
	(void)v;
}

static void test_bad(void)
{
	unsigned bad;

	hsagpu_vram_dir_init(&d, SIZE, words);
	rd(HSAGPU_REG_DIR_WORD, 4, &bad);
	T(bad == HSAGPU_BAD_REASON_SIZE);
	rd(HSAGPU_REG_DIR_TAKE + 4, 4, &bad);
	T(bad == HSAGPU_BAD_REASON_SIZE);
	rd(HSAGPU_REG_DIR_NEXT, 8, &bad);
	T(bad == HSAGPU_BAD_REASON_SIZE);
	rd(HSAGPU_REG_DIR_NEXT, 2, &bad);
	T(bad == HSAGPU_BAD_REASON_SIZE);
	rd(HSAGPU_REG_DIR_NEXT + 1, 4, &bad);
	T(bad == HSAGPU_BAD_REASON_ALIGN);
	T(hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_WORDS, 4, 1) ==
	  HSAGPU_BAD_REASON_READONLY);
	T(hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_TAKE, 8, 1) ==
	  HSAGPU_BAD_REASON_READONLY);
	T(hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_RALIAS_SIZE_LO, 4, 1) ==
	  HSAGPU_BAD_REASON_READONLY);
	T(hsagpu_vram_dir_reg(HSAGPU_REG_DIR_TAKE) &&
	  !hsagpu_vram_dir_reg(HSAGPU_REG_DIR_END));
	/* no alias: everything reads 0, writes are harmless */
	hsagpu_vram_dir_init(&d, 0, NULL);
	hsagpu_vram_dir_mark_lines(&d, 0, 4096);
	T(rd(HSAGPU_REG_DIR_WORDS, 4, &bad) == 0 && !bad);
	T(rd(HSAGPU_REG_DIR_NEXT, 4, &bad) == 0);
	T(rd(HSAGPU_REG_DIR_TAKE, 8, &bad) == 0 && !bad);
	T(!hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_CTRL, 4, 1));
	T(!hsagpu_vram_dir_reg_write(&d, HSAGPU_REG_DIR_CLEAR_COUNT, 4, 5));
	T(hsagpu_vram_dir_loaded_ok(&d));
}

/*
 * Processor threads of several devices mark one directory at once: four
 * threads mark interleaved lines (line % 4 == thread) of the same words;
 * no bit may be lost. 2000 rounds.
 */
#define NTHREADS 4
static pthread_barrier_t start;

static void *marker(void *arg)
{
	uintptr_t t = (uintptr_t)arg;

	pthread_barrier_wait(&start);
	for (uint64_t l = t; l < LINES; l += NTHREADS)
		hsagpu_vram_dir_mark_lines(&d, l * 64, 1);
	return NULL;
}

static void test_threads(void)
{
	pthread_t th[NTHREADS];
	unsigned int lost_rounds = 0;

	hsagpu_vram_dir_init(&d, SIZE, words);
	for (int round = 0; round < 2000; round++) {
		hsagpu_vram_dir_reset(&d);
		pthread_barrier_init(&start, NULL, NTHREADS);
		for (uintptr_t t = 0; t < NTHREADS; t++)
			pthread_create(&th[t], NULL, marker, (void *)t);
		for (int t = 0; t < NTHREADS; t++)
			pthread_join(th[t], NULL);
		pthread_barrier_destroy(&start);
		lost_rounds += count_lines() != LINES;
	}
	TM(lost_rounds == 0, "rounds that lost a mark: %u of 2000", lost_rounds);
}

int main(void)
{
	test_mark();
	test_clear();
	test_scan();
	test_bad();
	test_threads();
	return tap_done();
}

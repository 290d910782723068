/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers for hsagpu guest tests. Each test is one program: it
 * prints "# " diagnostics and exits 0 (pass), 1 (fail) or 77 (skip); the
 * guest runner turns that into a TAP line.
 */
#ifndef HSAGPU_GT_H
#define HSAGPU_GT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hsagpu/hsagpu_regs.h"
#include "hsagpu/hsagpu_aql.h"

#define GT_MAX_DEVS 16

extern int gt_failures;

#define CHECK(cond, ...)                                                \
	do {                                                            \
		if (!(cond)) {                                          \
			gt_failures++;                                  \
			printf("# FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                            \
			printf("\n");                                   \
		}                                                       \
	} while (0)

#define CHECK_EQ_U64(a, b)                                              \
	CHECK((uint64_t)(a) == (uint64_t)(b), "%s = 0x%llx, expected 0x%llx", \
	      #a, (unsigned long long)(a), (unsigned long long)(b))

#define DIAG(...) do { printf("# " __VA_ARGS__); printf("\n"); } while (0)

/* Check an errno (0: success) and say which call it was. */
__attribute__((format(printf, 3, 4)))
void gt_expect(int got, int want, const char *fmt, ...);
#define EXPECT gt_expect

/* Exit status for the runner. */
int gt_result(void);
/*
 * Skip: print "# SKIP: <reason>" (the runner puts the reason on the TAP
 * line) and return 77, or gt_result() if a check already failed.
 */
__attribute__((format(printf, 1, 2)))
int gt_skip(const char *fmt, ...);

/* Value of "hsagpu_test.<key>=" on the kernel command line, or NULL. */
const char *gt_param(const char *key);
/* Element @idx of a comma-separated parameter, with K/M/G suffixes. */
int gt_param_u64(const char *key, int idx, uint64_t *val);

/*
 * hsa-gpu PCI functions in address order: "0000:01:00.0" etc.; with
 * gt_find_vega10 set, the Vega10 personality's (1002:6860) as well
 */
extern int gt_find_vega10;
int gt_find_devices(char names[GT_MAX_DEVS][16]);

/* Read a sysfs file of a PCI device into @buf (newline stripped). */
int gt_sysfs_read(const char *dev, const char *file, char *buf, size_t len);
int gt_sysfs_u64(const char *dev, const char *file, uint64_t *val);
int gt_debugfs_u64(const char *dev, const char *name, uint64_t *val);
int gt_sysfs_write(const char *path, const char *val);

/* mmap a PCI resource through sysfs; returns NULL on failure. */
void *gt_map_resource(const char *dev, int bar, size_t *len);

/* Interrupts Linux took on the MSI/MSI-X vectors of PCI device @dev. */
uint64_t gt_msi_irqs(const char *dev);

/* Run a shell command, return its exit status. */
int gt_sh(const char *fmt, ...);

/* Sort @n values in ascending order (the benchmarks' percentiles). */
void gt_sort_u64(uint64_t *v, size_t n);

/*
 * Read exactly @len bytes from @fd (a pipe between test processes),
 * waiting at most @ms for each piece: 0, or -1 on timeout, EOF or error.
 */
int gt_read_full(int fd, void *buf, size_t len, unsigned int ms);

#endif

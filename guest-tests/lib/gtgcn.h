/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Code objects for the device's GCN interpreter, for guest programs:
 * load /tests/<file>.co into system memory of a device and find a
 * kernel's descriptor; dispatch one and wait for it.
 */
#ifndef GTGCN_H
#define GTGCN_H

#include "gtq.h"

/* The device address of @kernel's descriptor in /tests/@file.co: 0 on success */
int gtgcn_load(struct gtq_dev *d, const char *file, const char *kernel,
	       uint64_t *kd);
/* Dispatch @kd on @q and wait (60 s) for @sig: 0, or -1 */
int gtgcn_run(struct gtq_dev *d, hsagpu_queue_t *q, hsagpu_signal_t sig,
	      uint64_t kd, const void *kargs, const uint32_t grid[3],
	      const uint16_t wg[3]);

#endif

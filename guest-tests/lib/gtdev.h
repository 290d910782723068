/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device life-cycle helpers of the guest tests: the /dev node of a PCI
 * function, PCI remove / rescan / reset through sysfs, and a look at the
 * kernel log written since a mark (/dev/kmsg), for the evidence a test
 * of a removal or a recovery path needs (oops, "Bad page state", ...).
 */
#ifndef HSAGPU_GTDEV_H
#define HSAGPU_GTDEV_H

#include <stddef.h>
#include <sys/types.h>

/* "/dev/hsagpuN" of PCI function @pci into @path; 0 or -1. */
int gtd_devnode(const char *pci, char *path, size_t len);
/* open() the device node of @pci; fd or -errno. */
int gtd_open(const char *pci);
/*
 * The same with hsagpu.ko's vm parameter set to @vm (0 or 1) for the
 * open (the driver reads it then; restored after): a file with or
 * without GPU virtual memory. -ENOENT without the parameter.
 */
int gtd_open_vm(const char *pci, int vm);

/* echo 1 > /sys/bus/pci/devices/@pci/remove; 0 or -errno. */
int gtd_remove(const char *pci);
/*
 * echo 1 > /sys/bus/pci/rescan, then wait (up to @ms) until @pci is
 * bound to hsagpu again and has its device node; 0 or -1.
 */
int gtd_rescan(const char *pci, unsigned int ms);

/* Kernel log since gtk_mark(): an fd positioned at the log's end. */
int gtk_mark(void);
/*
 * Read the records logged since the mark; print every line that shows a
 * kernel problem (oops, BUG, WARNING, Bad page state, general protection,
 * page fault in the kernel, list corruption) as "# kernel: ...", and
 * return how many there were. With @also, lines containing that string
 * are printed (not counted). Closes @fd.
 */
int gtk_problems(int fd, const char *also);

/*
 * Wait up to @ms for child @pid; its wait status in *@status. 0 when it
 * ended, -1 when it did not (then it is killed; reaped if it can be).
 */
int gt_wait_child(pid_t pid, int *status, unsigned int ms);

/* Read a line (up to '\n', or EOF) from @fd within @ms; its length. */
int gt_read_line(int fd, char *buf, size_t len, unsigned int ms);

#endif

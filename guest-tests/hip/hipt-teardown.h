/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The HIP tests' teardown check: the tests run in a child process (HIP
 * initialised there only, so no runtime state is forked); when it has
 * exited normally, the runtime having freed its buffers and the process
 * its queues, the device must have reported no VM fault: hsagpu.ko's
 * debugfs vm_faults of every device unchanged, and no "VM fault" line in
 * the kernel log since the child started. A queue whose memory left the
 * GPU space before the queue stopped shows there ("client packet": its
 * ring or indices).
 *
 * The HIP initramfs does not mount debugfs: it is mounted here (without
 * it the count is unknown, and that is a failure, not a skip). On Linux's
 * own amdgpu (the Vega10 personality) the record is the kernel log alone:
 * amdgpu prints every fault ("[gfxhub0] ... page fault").
 */
#ifndef HIPT_TEARDOWN_H
#define HIPT_TEARDOWN_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define HIPT_DEBUGFS "/sys/kernel/debug"

/*
 * VM faults all hsa-gpu devices reported so far; -1 if unknown, 0 under
 * amdgpu without hsagpu.ko (its faults are all in the kernel log)
 */
static long hipt_vm_faults(void)
{
	DIR *d;
	struct dirent *e;
	long sum = 0;
	int n = 0;

	if (access(HIPT_DEBUGFS "/hsagpu", F_OK))
		mount("debugfs", HIPT_DEBUGFS, "debugfs", 0, NULL);
	d = opendir(HIPT_DEBUGFS "/hsagpu");
	if (!d)
		return access("/sys/module/amdgpu", F_OK) ? -1 : 0;
	while ((e = readdir(d))) {
		char path[300];
		FILE *f;
		long v;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), HIPT_DEBUGFS "/hsagpu/%s/vm_faults",
			 e->d_name);
		f = fopen(path, "r");
		if (f && fscanf(f, "%ld", &v) == 1) {
			sum += v;
			n++;
		}
		if (f)
			fclose(f);
	}
	closedir(d);
	/* no device of hsagpu.ko's: amdgpu's, if it is loaded */
	return n ? sum : access("/sys/module/amdgpu", F_OK) ? -1 : 0;
}

/* The kernel log from now on: /dev/kmsg at its end, or -1. */
static int hipt_kmsg_mark(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* "VM fault" records logged since the mark, printed; closes @fd. */
static int hipt_kmsg_vm_faults(int fd)
{
	char rec[2048];
	int n = 0;
	ssize_t r;

	if (fd < 0)
		return 0;
	for (;;) {
		r = read(fd, rec, sizeof(rec) - 1);
		if (r < 0 && errno == EPIPE)
			continue;       /* overwritten records: go on */
		if (r <= 0)
			break;
		rec[r] = 0;
		if (strstr(rec, "VM fault") || strstr(rec, "page fault (src_id")) {
			n++;
			printf("# kernel: %s", strchr(rec, ';') ? strchr(rec, ';') + 1 : rec);
		}
	}
	close(fd);
	return n;
}

/*
 * Run @tests in a child, then check its exit (status 0) and its teardown
 * (no VM fault). The number of failures.
 */
static int hipt_run_checked(int (*tests)(void), const char *name)
{
	long before, after;
	int status = 0, kmsg, logged, failures = 0;
	pid_t pid;

	fflush(stdout);
	before = hipt_vm_faults();
	kmsg = hipt_kmsg_mark();
	pid = fork();
	if (pid == 0) {
		int r = tests();

		fflush(stdout);
		_exit(r ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		printf("# FAIL %s: fork/wait\n", name);
		return 1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("# FAIL %s: the tests' process ended with status 0x%x\n", name, status);
		failures++;
	}
	/* the error interrupt of a late fault comes within a pass or two */
	usleep(500 * 1000);
	after = hipt_vm_faults();
	logged = hipt_kmsg_vm_faults(kmsg);
	printf("# %s: VM faults %ld -> %ld, %d logged, during the tests and the teardown\n",
	       name, before, after, logged);
	if (before < 0 || after < 0) {
		printf("# FAIL %s: hsagpu's vm_faults unreadable (debugfs)\n", name);
		failures++;
	} else if (after != before || logged) {
		printf("# FAIL %s: %ld VM faults (%d logged) while the runtime ran and tore the process down\n",
		       name, after - before, logged);
		failures++;
	}
	return failures;
}

#endif

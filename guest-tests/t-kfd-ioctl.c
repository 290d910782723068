// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-kfd-ioctl: /dev/kfd answers ioctls it does not implement like the
 * amdkfd of Debian's 6.1 and 6.12 kernels does: ENOTTY for a number
 * outside its table (upstream 57af162bfc8c "drm/amdkfd: return -ENOTTY
 * for unsupported IOCTLs", EINVAL before it; the kfd_ioctl() in both
 * kernels' amdgpu.ko has it), including ROCm 5.2.3's non-upstream
 * DBG_TRAP 0x82, which libhsakmt probes and must see fail; ROCm's IPC
 * ioctls 0x80 and 0x81 (the DKMS amdkfd's) are there, and refuse
 * a share handle or buffer that does not exist (EINVAL). GET_VERSION
 * reports interface 1.x, and a file descriptor inherited across fork()
 * is refused with EBADF in the child (amdkfd: only the process that
 * opened /dev/kfd may use it).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gt.h"
#include "gtdev.h"

static int errno_of(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

int main(void)
{
	struct kfd_ioctl_get_version_args ver = { 0 };
	unsigned char big[128] = { 0 };
	int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC), status, e;
	pid_t pid;

	if (fd < 0) {
		CHECK(0, "open /dev/kfd: %s (boot with hsagpu_test.kfd=1)", strerror(errno));
		return gt_result();
	}
	EXPECT(errno_of(fd, AMDKFD_IOC_GET_VERSION, &ver), 0, "GET_VERSION");
	DIAG("KFD interface %u.%u", ver.major_version, ver.minor_version);
	CHECK(ver.major_version == 1, "major version %u", ver.major_version);
	/* ROCm 5.2.3's DBG_TRAP (0x82, 40 bytes): not upstream */
	EXPECT(errno_of(fd, _IOWR('K', 0x82, char[40]), big), ENOTTY, "ioctl 0x82 (DBG_TRAP)");
	EXPECT(errno_of(fd, _IOWR('K', 0x83, char[16]), big), ENOTTY, "ioctl 0x83");
	EXPECT(errno_of(fd, _IOWR('K', 0x84, char[16]), big), ENOTTY, "ioctl 0x84");
	/* IPC_IMPORT_HANDLE (48 bytes), IPC_EXPORT_HANDLE (32): nothing to find */
	EXPECT(errno_of(fd, _IOWR('K', 0x80, char[48]), big), EINVAL, "IPC_IMPORT_HANDLE 0");
	EXPECT(errno_of(fd, _IOWR('K', 0x80, char[16]), big), EINVAL,
	       "IPC_IMPORT_HANDLE, short");
	EXPECT(errno_of(fd, _IOWR('K', 0x81, char[32]), big), EINVAL, "IPC_EXPORT_HANDLE 0");
	EXPECT(errno_of(fd, _IOWR('K', 0xff, char[8]), big), ENOTTY, "ioctl 0xff");
	EXPECT(errno_of(fd, _IOWR('K', AMDKFD_COMMAND_END + 0x20, char[8]), big), ENOTTY,
	       "ioctl past the table");
	/* below AMDKFD_COMMAND_START */
	EXPECT(errno_of(fd, _IO('K', 0), NULL), ENOTTY, "ioctl 0");
	/* still working after the refusals */
	EXPECT(errno_of(fd, AMDKFD_IOC_GET_VERSION, &ver), 0, "GET_VERSION again");

	pid = fork();
	if (pid == 0) {
		struct kfd_ioctl_get_version_args v2 = { 0 };

		_exit(errno_of(fd, AMDKFD_IOC_GET_VERSION, &v2));
	}
	CHECK(!gt_wait_child(pid, &status, 10000), "child did not finish");
	e = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	EXPECT(e, EBADF, "GET_VERSION on the parent's /dev/kfd in a child");
	close(fd);
	return gt_result();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu_amdgpu: /dev/kfd ioctls. One table indexed by _IOC_NR, with the
 * numbers and structures of Linux's <linux/kfd_ioctl.h>, dispatched the
 * way amdkfd's kfd_ioctl() does it, so that ROCm user space sees the
 * same errors:
 *  - a number outside the table (ROCm 5.2.3's non-upstream 0x82-0x84,
 *    e.g. the DBG_TRAP probe libhsakmt expects to fail, and the numbers
 *    newer kernels added past AVAILABLE_MEMORY): -ENOTTY; ROCm's own
 *    IPC_IMPORT_HANDLE (0x80) and IPC_EXPORT_HANDLE (0x81) are served
 *    from a second table, as ROCm's DKMS amdkfd serves them;
 *  - the file used by another process than the one that opened it
 *    (a child after fork()): -EBADF;
 *  - the type and direction bits are the table's, not the caller's; the
 *    caller's size is honoured: a smaller structure is zero-extended, a
 *    larger one truncated, and exactly the caller's size is copied back
 *    (also when the handler fails, as amdkfd).
 * Handlers return 0 or a negative errno; a gpu_id that names no device
 * is -EINVAL everywhere (amdkfd's kfd_device_by_id() checks).
 */
#include <linux/capability.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "hsagpu_kfd.h"

/*
 * What amdkfd answers for a number outside its table: -ENOTTY in Debian's
 * 6.1.192 (stable took "return -ENOTTY for unsupported IOCTLs"; 6.1.0
 * said -EINVAL). libhsakmt only needs a failure.
 */
#define HSAGPU_KFD_ENOIOCTL     (-ENOTTY)

typedef int (*hsagpu_kfd_ioctl_t)(struct hsagpu_kfd_process *p, void *data);

struct hsagpu_kfd_ioctl_desc {
	unsigned int cmd;
	u32 flags;
	hsagpu_kfd_ioctl_t func;
};

/* Only with CAP_CHECKPOINT_RESTORE or CAP_SYS_ADMIN (-EACCES), as amdkfd. */
#define HSAGPU_KFD_IOC_CHECKPOINT_RESTORE       BIT(0)

static int hsagpu_kfd_get_version(struct hsagpu_kfd_process *p, void *data)
{
	struct kfd_ioctl_get_version_args *args = data;

	args->major_version = HSAGPU_KFD_MAJOR;
	args->minor_version = HSAGPU_KFD_MINOR;
	return 0;
}

/* The process on @gpu_id, or an ERR_PTR. p->lock held. */
static struct hsagpu_kfd_pdd *hsagpu_kfd_bind(struct hsagpu_kfd_process *p,
					      u32 gpu_id)
{
	lockdep_assert_held(&p->lock);
	return hsagpu_kfd_pdd_bind(p, gpu_id);
}

static int hsagpu_kfd_set_memory_policy(struct hsagpu_kfd_process *p,
					void *data)
{
	struct kfd_ioctl_set_memory_policy_args *args = data;
	struct hsagpu_kfd_pdd *pdd;
	int ret = 0;

	if ((args->default_policy != KFD_IOC_CACHE_POLICY_COHERENT &&
	     args->default_policy != KFD_IOC_CACHE_POLICY_NONCOHERENT) ||
	    (args->alternate_policy != KFD_IOC_CACHE_POLICY_COHERENT &&
	     args->alternate_policy != KFD_IOC_CACHE_POLICY_NONCOHERENT))
		return -EINVAL;
	mutex_lock(&p->lock);
	pdd = hsagpu_kfd_bind(p, args->gpu_id);
	if (IS_ERR(pdd)) {
		ret = PTR_ERR(pdd);
	} else {
		/* The device snoops system memory: nothing to program. */
		pdd->default_policy = args->default_policy;
		pdd->alternate_policy = args->alternate_policy;
	}
	mutex_unlock(&p->lock);
	return ret;
}

/*
 * As amdkfd: CPU clock = CLOCK_MONOTONIC_RAW, system clock =
 * CLOCK_BOOTTIME, both ns (frequency 1 GHz). gpu_id 0 (ROCr asks for
 * the CPU node) and unknown ones get a GPU counter of 0; a device's is
 * its TIMESTAMP register, the clock of the timestamps it writes into
 * signals.
 */
static int hsagpu_kfd_get_clock_counters(struct hsagpu_kfd_process *p,
					 void *data)
{
	struct kfd_ioctl_get_clock_counters_args *args = data;
	struct hsagpu_kfd_dev *kdev;

	/* amdkfd 6.1: 0 for a gpu_id the process is not bound to. */
	args->gpu_clock_counter = 0;
	kdev = args->gpu_id ? hsagpu_kfd_dev_by_id(args->gpu_id) : NULL;
	if (kdev) {
		/* going away meanwhile: a node without GPU clock, as above */
		if (hsagpu_device_timestamp(kdev->hdev,
					    &args->gpu_clock_counter))
			args->gpu_clock_counter = 0;
		drm_dev_put(kdev->drm);
	}
	args->cpu_clock_counter = ktime_get_raw_ns();
	args->system_clock_counter = ktime_get_boottime_ns();
	args->system_clock_freq = NSEC_PER_SEC;
	return 0;
}

static void hsagpu_kfd_apertures(struct hsagpu_kfd_pdd *pdd,
				 struct kfd_process_device_apertures *ape)
{
	ape->gpu_id = pdd->kdev->gpu_id;
	ape->lds_base = HSAGPU_KFD_LDS_BASE;
	ape->lds_limit = HSAGPU_KFD_APE_LIMIT(HSAGPU_KFD_LDS_BASE);
	ape->scratch_base = HSAGPU_KFD_SCRATCH_BASE;
	ape->scratch_limit = HSAGPU_KFD_APE_LIMIT(HSAGPU_KFD_SCRATCH_BASE);
	ape->gpuvm_base = HSAGPU_KFD_GPUVM_BASE;
	ape->gpuvm_limit = HSAGPU_KFD_GPUVM_LIMIT;
	ape->pad = 0;
}

/* The old interface: at most NUM_OF_SUPPORTED_GPUS devices. */
static int hsagpu_kfd_get_process_apertures(struct hsagpu_kfd_process *p,
					    void *data)
{
	struct kfd_ioctl_get_process_apertures_args *args = data;
	struct hsagpu_kfd_pdd *pdd;
	u32 n = 0;

	mutex_lock(&p->lock);
	list_for_each_entry(pdd, &p->pdds, node) {
		if (n >= NUM_OF_SUPPORTED_GPUS)
			break;
		hsagpu_kfd_apertures(pdd, &args->process_apertures[n++]);
	}
	mutex_unlock(&p->lock);
	args->num_of_nodes = n;
	return 0;
}

/*
 * num_of_nodes 0 asks for the count; otherwise up to that many entries
 * are copied to kfd_process_device_apertures_ptr and num_of_nodes says
 * how many.
 */
static int hsagpu_kfd_get_process_apertures_new(struct hsagpu_kfd_process *p,
						void *data)
{
	struct kfd_ioctl_get_process_apertures_new_args *args = data;
	struct kfd_process_device_apertures *pa;
	struct hsagpu_kfd_pdd *pdd;
	u32 n = 0, count = 0;
	int ret = 0;

	mutex_lock(&p->lock);
	list_for_each_entry(pdd, &p->pdds, node)
		count++;
	if (!args->num_of_nodes) {
		args->num_of_nodes = count;
		goto out;
	}
	count = min(count, args->num_of_nodes);
	pa = kcalloc(count, sizeof(*pa), GFP_KERNEL);
	if (!pa && count) {
		ret = -ENOMEM;
		goto out;
	}
	list_for_each_entry(pdd, &p->pdds, node) {
		if (n >= count)
			break;
		hsagpu_kfd_apertures(pdd, &pa[n++]);
	}
	args->num_of_nodes = n;
	if (copy_to_user(u64_to_user_ptr(args->kfd_process_device_apertures_ptr),
			 pa, n * sizeof(*pa)))
		ret = -EFAULT;
	kfree(pa);
out:
	mutex_unlock(&p->lock);
	return ret;
}

/*
 * Bind the process's context on @gpu_id to a render-node file of that
 * device (amdkfd: the DRM file's VM becomes the process's). Once bound,
 * the same file again is 0 and another one -EBUSY; a descriptor that is
 * not a render node of this device is -EINVAL, a closed one -EBADF.
 */
static int hsagpu_kfd_acquire_vm(struct hsagpu_kfd_process *p, void *data)
{
	struct kfd_ioctl_acquire_vm_args *args = data;
	struct hsagpu_kfd_pdd *pdd;
	struct file *drm_file;
	int ret = 0;

	drm_file = fget(args->drm_fd);
	if (!drm_file)
		return -EBADF;
	mutex_lock(&p->lock);
	pdd = hsagpu_kfd_bind(p, args->gpu_id);
	if (IS_ERR(pdd)) {
		ret = PTR_ERR(pdd);
		goto out;
	}
	if (pdd->drm_file) {
		ret = pdd->drm_file == drm_file ? 0 : -EBUSY;
		goto out;
	}
	if (!hsagpu_kfd_drm_file_is(drm_file, pdd->kdev)) {
		ret = -EINVAL;
		goto out;
	}
	ret = hsagpu_kfd_drm_bind(drm_file, pdd->hf);
	if (ret)
		goto out;
	/* Held until the process goes, as amdkfd does. */
	pdd->drm_file = drm_file;
	drm_file = NULL;
out:
	mutex_unlock(&p->lock);
	if (drm_file)
		fput(drm_file);
	return ret;
}

/* Recorded only: the device has no scratch or trap state to program. */
static int hsagpu_kfd_set_scratch_backing_va(struct hsagpu_kfd_process *p,
					     void *data)
{
	struct kfd_ioctl_set_scratch_backing_va_args *args = data;
	struct hsagpu_kfd_pdd *pdd;
	int ret = 0;

	mutex_lock(&p->lock);
	pdd = hsagpu_kfd_bind(p, args->gpu_id);
	if (IS_ERR(pdd))
		ret = PTR_ERR(pdd);
	else
		pdd->scratch_va = args->va_addr;
	mutex_unlock(&p->lock);
	return ret;
}

static int hsagpu_kfd_set_trap_handler(struct hsagpu_kfd_process *p,
				       void *data)
{
	struct kfd_ioctl_set_trap_handler_args *args = data;
	struct hsagpu_kfd_pdd *pdd;
	int ret = 0;

	mutex_lock(&p->lock);
	pdd = hsagpu_kfd_bind(p, args->gpu_id);
	if (IS_ERR(pdd)) {
		ret = PTR_ERR(pdd);
	} else {
		pdd->tba_addr = args->tba_addr;
		pdd->tma_addr = args->tma_addr;
	}
	mutex_unlock(&p->lock);
	return ret;
}

/* No tiling: images are not supported; the device has no tile modes. */
static int hsagpu_kfd_get_tile_config(struct hsagpu_kfd_process *p,
				      void *data)
{
	struct kfd_ioctl_get_tile_config_args *args = data;
	struct hsagpu_kfd_dev *kdev = hsagpu_kfd_dev_by_id(args->gpu_id);

	if (!kdev)
		return -EINVAL;
	drm_dev_put(kdev->drm);
	args->gb_addr_config = 0;
	args->num_banks = 0;
	args->num_ranks = 0;
	args->num_tile_configs = 0;
	args->num_macro_tile_configs = 0;
	return 0;
}

/* amdkfd without debugger support (6.1 removed the old one). */
static int hsagpu_kfd_eperm(struct hsagpu_kfd_process *p, void *data)
{
	return -EPERM;
}

/*
 * A dma-buf from another driver (ours export none): amdgpu refuses a
 * buffer that is not its own with -EINVAL.
 */
static int hsagpu_kfd_dmabuf(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

/* Only on devices that exist; the event stream itself is not provided. */
static int hsagpu_kfd_smi_events(struct hsagpu_kfd_process *p, void *data)
{
	struct kfd_ioctl_smi_events_args *args = data;
	struct hsagpu_kfd_dev *kdev = hsagpu_kfd_dev_by_id(args->gpuid);

	if (!kdev)
		return -EINVAL;
	drm_dev_put(kdev->drm);
	return -EOPNOTSUPP;
}

/* CRIU: no checkpoint support (after the capability check). */
static int hsagpu_kfd_criu(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

#define HSAGPU_KFD_IOCTL(_cmd, _func, _flags)				\
	[_IOC_NR(_cmd)] = { .cmd = _cmd, .func = _func, .flags = _flags }

static const struct hsagpu_kfd_ioctl_desc hsagpu_kfd_ioctls[] = {
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_GET_VERSION, hsagpu_kfd_get_version, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_CREATE_QUEUE,
			 hsagpu_kfd_ioctl_create_queue, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_DESTROY_QUEUE,
			 hsagpu_kfd_ioctl_destroy_queue, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_SET_MEMORY_POLICY,
			 hsagpu_kfd_set_memory_policy, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_GET_CLOCK_COUNTERS,
			 hsagpu_kfd_get_clock_counters, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_GET_PROCESS_APERTURES,
			 hsagpu_kfd_get_process_apertures, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_UPDATE_QUEUE,
			 hsagpu_kfd_ioctl_update_queue, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_CREATE_EVENT,
			 hsagpu_kfd_ioctl_create_event, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_DESTROY_EVENT,
			 hsagpu_kfd_ioctl_destroy_event, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_SET_EVENT, hsagpu_kfd_ioctl_set_event, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_RESET_EVENT,
			 hsagpu_kfd_ioctl_reset_event, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_WAIT_EVENTS,
			 hsagpu_kfd_ioctl_wait_events, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_DBG_REGISTER_DEPRECATED,
			 hsagpu_kfd_eperm, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_DBG_UNREGISTER_DEPRECATED,
			 hsagpu_kfd_eperm, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_DBG_ADDRESS_WATCH_DEPRECATED,
			 hsagpu_kfd_eperm, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_DBG_WAVE_CONTROL_DEPRECATED,
			 hsagpu_kfd_eperm, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_SET_SCRATCH_BACKING_VA,
			 hsagpu_kfd_set_scratch_backing_va, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_GET_TILE_CONFIG,
			 hsagpu_kfd_get_tile_config, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_SET_TRAP_HANDLER,
			 hsagpu_kfd_set_trap_handler, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW,
			 hsagpu_kfd_get_process_apertures_new, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_ACQUIRE_VM, hsagpu_kfd_acquire_vm, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU,
			 hsagpu_kfd_ioctl_alloc_memory, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_FREE_MEMORY_OF_GPU,
			 hsagpu_kfd_ioctl_free_memory, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_MAP_MEMORY_TO_GPU,
			 hsagpu_kfd_ioctl_map_memory, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU,
			 hsagpu_kfd_ioctl_unmap_memory, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_SET_CU_MASK,
			 hsagpu_kfd_ioctl_set_cu_mask, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_GET_QUEUE_WAVE_STATE,
			 hsagpu_kfd_ioctl_get_queue_wave_state, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_GET_DMABUF_INFO, hsagpu_kfd_dmabuf, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_IMPORT_DMABUF, hsagpu_kfd_dmabuf, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_ALLOC_QUEUE_GWS,
			 hsagpu_kfd_ioctl_alloc_queue_gws, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_SMI_EVENTS, hsagpu_kfd_smi_events, 0),
	/* amdkfd built without SVM (what version 1.4 promises) */
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_SVM, hsagpu_kfd_eperm, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_SET_XNACK_MODE, hsagpu_kfd_eperm, 0),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_CRIU_OP, hsagpu_kfd_criu,
			 HSAGPU_KFD_IOC_CHECKPOINT_RESTORE),
	HSAGPU_KFD_IOCTL(AMDKFD_IOC_AVAILABLE_MEMORY,
			 hsagpu_kfd_ioctl_available_memory, 0),
};

/* Linux 6.1's table ends there; later numbers are unknown here. */
static_assert(ARRAY_SIZE(hsagpu_kfd_ioctls) == 0x24);

/* ROCm 5.2.3's numbers from 0x80 that the facade serves: IPC. */
#define HSAGPU_KFD_ROCM_BASE    0x80
#define HSAGPU_KFD_ROCM_IOCTL(_cmd, _func)				\
	[_IOC_NR(_cmd) - HSAGPU_KFD_ROCM_BASE] = { .cmd = _cmd, .func = _func }

static const struct hsagpu_kfd_ioctl_desc hsagpu_kfd_rocm_ioctls[] = {
	HSAGPU_KFD_ROCM_IOCTL(HSAGPU_KFD_IOC_IPC_IMPORT_HANDLE,
			      hsagpu_kfd_ioctl_ipc_import),
	HSAGPU_KFD_ROCM_IOCTL(HSAGPU_KFD_IOC_IPC_EXPORT_HANDLE,
			      hsagpu_kfd_ioctl_ipc_export),
};

/* The table entry of @nr, or NULL (-ENOTTY). */
static const struct hsagpu_kfd_ioctl_desc *hsagpu_kfd_ioctl_find(unsigned int nr)
{
	const struct hsagpu_kfd_ioctl_desc *ioctl = NULL;

	if (nr >= AMDKFD_COMMAND_START && nr < ARRAY_SIZE(hsagpu_kfd_ioctls)) {
		nr = array_index_nospec(nr, ARRAY_SIZE(hsagpu_kfd_ioctls));
		ioctl = &hsagpu_kfd_ioctls[nr];
	} else if (nr >= HSAGPU_KFD_ROCM_BASE &&
		   nr - HSAGPU_KFD_ROCM_BASE < ARRAY_SIZE(hsagpu_kfd_rocm_ioctls)) {
		nr = array_index_nospec(nr - HSAGPU_KFD_ROCM_BASE,
					ARRAY_SIZE(hsagpu_kfd_rocm_ioctls));
		ioctl = &hsagpu_kfd_rocm_ioctls[nr];
	}
	return ioctl && ioctl->func ? ioctl : NULL;
}

long hsagpu_kfd_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct hsagpu_kfd_process *p = file->private_data;
	const struct hsagpu_kfd_ioctl_desc *ioctl;
	unsigned int nr = _IOC_NR(cmd), usize, asize;
	char stack_kdata[128] __aligned(8);
	char *kdata = stack_kdata;
	int ret;

	ioctl = hsagpu_kfd_ioctl_find(nr);
	if (!ioctl)
		return HSAGPU_KFD_ENOIOCTL;

	/* Only the process that opened /dev/kfd (as amdkfd). */
	if (current->mm != p->mm)
		return -EBADF;
	if ((ioctl->flags & HSAGPU_KFD_IOC_CHECKPOINT_RESTORE) &&
	    !capable(CAP_CHECKPOINT_RESTORE) && !capable(CAP_SYS_ADMIN))
		return -EACCES;

	usize = _IOC_SIZE(cmd);
	asize = max(usize, _IOC_SIZE(ioctl->cmd));
	/* The table's direction, not the caller's. */
	cmd = ioctl->cmd;
	if (asize > sizeof(stack_kdata)) {
		kdata = kmalloc(asize, GFP_KERNEL);
		if (!kdata)
			return -ENOMEM;
	}
	memset(kdata, 0, asize);
	if ((cmd & IOC_IN) && copy_from_user(kdata, (void __user *)arg,
					     usize)) {
		ret = -EFAULT;
		goto out;
	}

	ret = ioctl->func(p, kdata);

	if ((cmd & IOC_OUT) && copy_to_user((void __user *)arg, kdata, usize))
		ret = -EFAULT;
out:
	if (kdata != stack_kdata)
		kfree(kdata);
	return ret;
}

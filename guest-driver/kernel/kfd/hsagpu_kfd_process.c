// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu_amdgpu: KFD processes. As in amdkfd there is one per address
 * space: every open of /dev/kfd by the same process shares it (and its
 * buffers, queues and events), a child after fork() gets its own by
 * opening /dev/kfd itself, and the parent's descriptor is refused there
 * (-EBADF). A process binds to a device (a "pdd") on the first ioctl
 * that names the device's gpu_id; the pdd then owns an hsagpu.ko context
 * on that device.
 *
 * Teardown, when the last /dev/kfd file is released (possibly after the
 * address space is gone: exit releases the mm before the files): queues
 * first, then events, then every buffer (out of the GPU spaces, handles
 * dropped), then the hsagpu.ko contexts. Queues of a process whose
 * address space goes away stop at that moment (hsagpu.ko's contexts
 * watch the mm).
 */
#include <linux/file.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>

#include "hsagpu_kfd.h"

static DEFINE_MUTEX(hsagpu_kfd_processes_lock);
static LIST_HEAD(hsagpu_kfd_processes);

static struct hsagpu_kfd_pdd *hsagpu_kfd_pdd_create(struct hsagpu_kfd_process *p,
						    u32 gpu_id);

/* A process on every device presented now; not yet published. */
static struct hsagpu_kfd_process *hsagpu_kfd_process_create(void)
{
	struct hsagpu_kfd_process *p;
	struct hsagpu_kfd_pdd *pdd;
	u32 ids[HSAGPU_KFD_MAX_DEVICES];
	u32 n, i;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return ERR_PTR(-ENOMEM);
	kref_init(&p->ref);
	INIT_LIST_HEAD(&p->node);
	/* Pinned (the structure, not the address space): never reused. */
	mmgrab(current->mm);
	p->mm = current->mm;
	p->pid = task_tgid_nr(current);
	mutex_init(&p->lock);
	INIT_LIST_HEAD(&p->pdds);
	idr_init(&p->bos);
	hsagpu_kfd_queue_init(p);
	hsagpu_kfd_event_init(p);

	/*
	 * As amdkfd (kfd_init_apertures()), every device gets its context
	 * now, outside any lock of ours: hsagpu.ko registers an MMU notifier,
	 * which takes the mmap lock.
	 */
	n = hsagpu_kfd_dev_ids(ids, ARRAY_SIZE(ids));
	for (i = 0; i < n; i++) {
		pdd = hsagpu_kfd_pdd_create(p, ids[i]);
		if (IS_ERR(pdd) && PTR_ERR(pdd) != -EINVAL &&
		    PTR_ERR(pdd) != -ENODEV) {
			hsagpu_kfd_process_put(p);
			return ERR_CAST(pdd);
		}
	}
	return p;
}

/* open(): the caller's process, made on first use. */
struct hsagpu_kfd_process *hsagpu_kfd_process_get(void)
{
	struct mm_struct *mm = current->mm;
	struct hsagpu_kfd_process *p, *new;

	if (!mm)
		return ERR_PTR(-EINVAL);
	new = NULL;
	for (;;) {
		mutex_lock(&hsagpu_kfd_processes_lock);
		list_for_each_entry(p, &hsagpu_kfd_processes, node) {
			if (p->mm == mm) {
				kref_get(&p->ref);
				mutex_unlock(&hsagpu_kfd_processes_lock);
				/* Another thread of ours was first. */
				if (new)
					hsagpu_kfd_process_put(new);
				return p;
			}
		}
		if (new) {
			list_add_tail(&new->node, &hsagpu_kfd_processes);
			mutex_unlock(&hsagpu_kfd_processes_lock);
			return new;
		}
		mutex_unlock(&hsagpu_kfd_processes_lock);
		new = hsagpu_kfd_process_create();
		if (IS_ERR(new))
			return new;
	}
}

static void hsagpu_kfd_pdd_free(struct hsagpu_kfd_pdd *pdd)
{
	list_del(&pdd->node);
	hsagpu_file_destroy(pdd->hf);
	if (pdd->drm_file)
		fput(pdd->drm_file);
	drm_dev_put(pdd->kdev->drm);
	kfree(pdd);
}

static void hsagpu_kfd_process_free(struct kref *ref)
{
	struct hsagpu_kfd_process *p = container_of(ref,
						    struct hsagpu_kfd_process,
						    ref);
	struct hsagpu_kfd_pdd *pdd, *tmp;

	list_del_init(&p->node);
	mutex_unlock(&hsagpu_kfd_processes_lock);

	hsagpu_kfd_queue_release(p);
	hsagpu_kfd_event_release(p);
	mutex_lock(&p->lock);
	hsagpu_kfd_mem_release(p);
	list_for_each_entry_safe(pdd, tmp, &p->pdds, node)
		hsagpu_kfd_pdd_free(pdd);
	mutex_unlock(&p->lock);
	idr_destroy(&p->bos);
	mutex_destroy(&p->lock);
	mmdrop(p->mm);
	kfree(p);
}

void hsagpu_kfd_process_put(struct hsagpu_kfd_process *p)
{
	kref_put_mutex(&p->ref, hsagpu_kfd_process_free,
		       &hsagpu_kfd_processes_lock);
}

/*
 * The process on device @gpu_id, or NULL. The list is fixed from the
 * process's creation to its teardown: no lock needed.
 */
struct hsagpu_kfd_pdd *hsagpu_kfd_pdd_find(struct hsagpu_kfd_process *p,
					   u32 gpu_id)
{
	struct hsagpu_kfd_pdd *pdd;

	list_for_each_entry(pdd, &p->pdds, node)
		if (pdd->kdev->gpu_id == gpu_id)
			return pdd;
	return NULL;
}

/*
 * The process on device @gpu_id (amdkfd's kfd_bind_process_to_device()):
 * -EINVAL when it names no device the process has (as amdkfd), -ENODEV
 * when that device is gone.
 */
struct hsagpu_kfd_pdd *hsagpu_kfd_pdd_bind(struct hsagpu_kfd_process *p,
					   u32 gpu_id)
{
	struct hsagpu_kfd_pdd *pdd = hsagpu_kfd_pdd_find(p, gpu_id);

	if (!pdd)
		return ERR_PTR(-EINVAL);
	if (!READ_ONCE(pdd->kdev->live))
		return ERR_PTR(-ENODEV);
	return pdd;
}

/* A context on device @gpu_id for @p, in process creation. */
static struct hsagpu_kfd_pdd *hsagpu_kfd_pdd_create(struct hsagpu_kfd_process *p,
						    u32 gpu_id)
{
	struct hsagpu_kfd_dev *kdev;
	struct hsagpu_kfd_pdd *pdd;
	struct hsagpu_file *hf;

	kdev = hsagpu_kfd_dev_by_id(gpu_id);
	if (!kdev)
		return ERR_PTR(-EINVAL);
	pdd = kzalloc(sizeof(*pdd), GFP_KERNEL);
	if (!pdd) {
		drm_dev_put(kdev->drm);
		return ERR_PTR(-ENOMEM);
	}
	hf = hsagpu_file_create(kdev->hdev, kdev->drm->anon_inode->i_mapping,
				true);
	if (IS_ERR(hf)) {
		drm_dev_put(kdev->drm);
		kfree(pdd);
		return ERR_CAST(hf);
	}
	pdd->hf = hf;
	pdd->kdev = kdev;
	pdd->process = p;
	list_add_tail(&pdd->node, &p->pdds);
	return pdd;
}

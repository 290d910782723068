// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: peer-to-peer access to another hsa-gpu's VRAM (PEER_ACCESS).
 *
 * Below a common PCIe switch the switch routes requests between its
 * ports: the device uses the peer's BAR0 bus address as it is, and the
 * requests never reach the IOMMU. Otherwise they go up through the root
 * complex, which sends them through the IOMMU when there is one: then
 * the peer's BAR0 is mapped for this device with dma_map_resource().
 *
 * A file's peers live until the file is closed. Their IOMMU mappings go
 * earlier when either end is removed: this device (remove() unmaps its
 * own), or the peer (its remove() revokes every other device's mapping
 * of its BAR, hsagpu_peers_revoke(): the BAR range may later belong to
 * somebody else). The entries stay for close(). Each entry holds a
 * reference to the peer's device state, so a peer that is unbound
 * meanwhile leaves nothing dangling; asking for it again fails with
 * -ENODEV. Without an IOMMU nothing can be revoked: the device uses
 * the bus address itself.
 *
 * With GPU virtual memory the peer's whole VRAM is also mapped in the
 * file's GPU address space, in the driver aperture (2 MiB pages), and
 * the file gets that address. Revocation and close() take it out of the
 * GPU space (entries cleared, TLB invalidated) before the IOMMU mapping
 * goes; with GPUVM even without an IOMMU, a removed peer is unreachable.
 */
#include <linux/dma-mapping.h>
#include <linux/file.h>
#include <linux/iommu.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "hsagpu.h"

/*
 * Bound devices, for revoking peer mappings at removal. Taken before any
 * device's hdev->lock.
 */
static LIST_HEAD(hsagpu_devices);
static DEFINE_MUTEX(hsagpu_devices_lock);

void hsagpu_peer_register(struct hsagpu_device *hdev)
{
	mutex_lock(&hsagpu_devices_lock);
	list_add_tail(&hdev->node, &hsagpu_devices);
	mutex_unlock(&hsagpu_devices_lock);
}

/* remove(): from now on no peer revokes a mapping on this device. */
void hsagpu_peer_unregister(struct hsagpu_device *hdev)
{
	mutex_lock(&hsagpu_devices_lock);
	list_del_init(&hdev->node);
	mutex_unlock(&hsagpu_devices_lock);
}

static bool hsagpu_bridge_is_above(struct pci_dev *bridge, struct pci_dev *dev)
{
	struct pci_dev *up;

	for (up = pci_upstream_bridge(dev); up; up = pci_upstream_bridge(up))
		if (up == bridge)
			return true;
	return false;
}

/*
 * Whether the lowest bridge above both devices is a switch port: then the
 * switch routes peer requests without involving the root complex.
 */
static bool hsagpu_common_switch(struct pci_dev *a, struct pci_dev *b)
{
	struct pci_dev *up;

	for (up = pci_upstream_bridge(a); up; up = pci_upstream_bridge(up)) {
		if (!hsagpu_bridge_is_above(up, b))
			continue;
		if (!pci_is_pcie(up))
			return false;
		return pci_pcie_type(up) == PCI_EXP_TYPE_UPSTREAM ||
		       pci_pcie_type(up) == PCI_EXP_TYPE_DOWNSTREAM;
	}
	return false;
}

/*
 * Whether @hdev's DMA reaches @peer's VRAM the way hsagpu_peer_new()
 * would send it: through an IOMMU mapping (an address in the device's DMA
 * mask), else at the peer's BAR bus address, which must lie below what
 * the device can emit (p2p_addr_bits) and, with GPUVM, what a page-table
 * entry holds. amdgpu asks the same for the KFD topology's P2P links
 * (amdgpu_device_is_peer_accessible(): the BAR against the DMA mask).
 */
bool hsagpu_peer_reachable(struct hsagpu_device *hdev,
			   struct hsagpu_device *peer)
{
	u32 bits = hdev->p2p_addr_bits;

	if (hdev == peer || READ_ONCE(hdev->dead) || READ_ONCE(peer->dead))
		return false;
	if (hdev->dma_iommu && !hsagpu_common_switch(hdev->pdev, peer->pdev))
		return true;
	if (hdev->caps & HSAGPU_CAP_VM)
		bits = min(bits, HSAGPU_VM_VA_BITS);
	return bits >= 64 ||
	       peer->vram_bus + peer->vram_size <= BIT_ULL(bits);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_peer_reachable, HSAGPU);

/* This file's entry for @peer; hdev->lock held. */
static struct hsagpu_peer *hsagpu_peer_find(struct hsagpu_file *hf,
					    struct hsagpu_device *peer)
{
	struct hsagpu_peer *p;

	lockdep_assert_held(&hf->hdev->lock);
	list_for_each_entry(p, &hf->peers, node)
		if (p->peer == peer)
			return p;
	return NULL;
}

/* A new entry for @peer, mapped if the path needs it. */
static struct hsagpu_peer *hsagpu_peer_new(struct hsagpu_device *hdev,
					   struct hsagpu_device *peer)
{
	struct pci_dev *ppdev = peer->pdev;
	struct hsagpu_peer *p;
	dma_addr_t addr;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return ERR_PTR(-ENOMEM);
	if (hsagpu_common_switch(hdev->pdev, ppdev)) {
		p->addr = peer->vram_bus;
		p->flags = HSAGPU_PEER_VIA_SWITCH;
	} else if (!hdev->dma_iommu) {
		p->addr = peer->vram_bus;
		p->flags = HSAGPU_PEER_VIA_ROOT;
	} else {
		addr = dma_map_resource(&hdev->pdev->dev, peer->vram_phys,
					peer->vram_size, DMA_BIDIRECTIONAL, 0);
		if (dma_mapping_error(&hdev->pdev->dev, addr)) {
			kfree(p);
			return ERR_PTR(-ENOMEM);
		}
		p->addr = addr;
		p->mapped = true;
		p->flags = HSAGPU_PEER_VIA_ROOT | HSAGPU_PEER_IOMMU;
	}
	kref_get(&peer->ref);
	p->peer = peer;
	return p;
}

static void hsagpu_peer_unmap(struct hsagpu_device *hdev,
			      struct hsagpu_peer *p)
{
	struct iommu_domain *domain;

	if (p->vm)
		hsagpu_vm_unmap(p->vm, &p->map);
	if (!p->mapped)
		return;
	dma_unmap_resource(&hdev->pdev->dev, p->addr, p->peer->vram_size,
			   DMA_BIDIRECTIONAL, 0);
	/*
	 * A lazy (flush queue) domain invalidates the IOTLB later: a
	 * revoked peer must be unreachable now.
	 */
	domain = iommu_get_domain_for_dev(&hdev->pdev->dev);
	if (domain)
		iommu_flush_iotlb_all(domain);
	p->mapped = false;
}

/*
 * GPUVM: the peer's VRAM in the file's aperture, at the same address
 * each time. Under hdev->lock, against the peer's revocation: the peer
 * is marked dead before its remove() revokes under that lock.
 */
static int hsagpu_peer_map_gpu(struct hsagpu_file *hf, struct hsagpu_peer *p)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_vm_src src = {
		.addr = p->addr,
		.flags = HSAGPU_PTE_SYSTEM,
	};
	u64 size = PAGE_ALIGN(p->peer->vram_size);
	int ret = 0;

	mutex_lock(&hdev->lock);
	if (READ_ONCE(p->peer->dead)) {
		ret = -ENODEV;
		goto out;
	}
	if (p->map.mapped)
		goto out;
	if (!p->gpu_va)
		p->gpu_va = hsagpu_vm_aperture_alloc(hf->vm, size);
	ret = -ENOSPC;
	if (!p->gpu_va)
		goto out;
	p->map.kind = HSAGPU_VM_MAP_PEER;
	ret = hsagpu_vm_map(hf->vm, &p->map, p->gpu_va, size,
			    HSAGPU_PTE_READABLE | HSAGPU_PTE_WRITEABLE, &src);
	/* An address the entries cannot hold: as unreachable as it gets. */
	if (ret == -ERANGE)
		ret = -EINVAL;
out:
	mutex_unlock(&hdev->lock);
	return ret;
}

/*
 * -EBADF: peer_fd is not open. -EINVAL: peer_fd is not
 * an hsagpu device file or is one of this device. -ENODEV: either device
 * is gone. -ENOMEM: no IOMMU space for the mapping.
 */
long hsagpu_ioctl_peer_access(struct hsagpu_file *hf, void *data)
{
	struct hsagpu_device *hdev = hf->hdev, *peer;
	struct hsagpu_peer_access *args = data;
	struct hsagpu_peer *p, *np = NULL;
	struct file *pfile;
	long ret;

	pfile = fget(args->peer_fd);
	if (!pfile)
		return -EBADF;
	ret = -EINVAL;
	if (pfile->f_op != &hsagpu_fops)
		goto out_fput;
	/* The open peer file holds its device state. */
	peer = ((struct hsagpu_file *)pfile->private_data)->hdev;
	if (peer == hdev)
		goto out_fput;
	ret = -ENODEV;
	if (READ_ONCE(peer->dead))
		goto out_fput;

	/* remove() unmaps every peer once it has marked the device dead. */
	ret = hsagpu_enter(hdev);
	if (ret)
		goto out_fput;
	mutex_lock(&hf->lock);         /* one PEER_ACCESS of a file at a time */
	mutex_lock(&hdev->lock);
	p = hsagpu_peer_find(hf, peer);
	mutex_unlock(&hdev->lock);
	if (!p) {
		np = hsagpu_peer_new(hdev, peer);
		if (IS_ERR(np)) {
			ret = PTR_ERR(np);
			goto out_unlock;
		}
		/*
		 * The peer's remove() marks it dead before it revokes
		 * mappings under hdev->lock: either it finds this entry, or
		 * the entry is never added.
		 */
		mutex_lock(&hdev->lock);
		if (READ_ONCE(peer->dead)) {
			hsagpu_peer_unmap(hdev, np);
			mutex_unlock(&hdev->lock);
			hsagpu_device_put(np->peer);
			kfree(np);
			ret = -ENODEV;
			goto out_unlock;
		}
		np->vm = hf->vm;
		list_add_tail(&np->node, &hf->peers);
		mutex_unlock(&hdev->lock);
		p = np;
	}
	if (hf->vm) {
		ret = hsagpu_peer_map_gpu(hf, p);
		if (ret)
			goto out_unlock;
	}
	args->vram_addr = hf->vm ? p->gpu_va : p->addr;
	args->flags = p->flags;
	args->vram_size = peer->vram_size;
	args->peer_bar_addr = peer->vram_bus;
	args->peer_p2p_status = peer->p2p_status;
	ret = 0;
out_unlock:
	mutex_unlock(&hf->lock);
	hsagpu_exit(hdev);
out_fput:
	fput(pfile);
	/* An entry made here stays even if the copy fails: close frees it. */
	return ret;
}

/* close(): the file's queues are gone, nothing uses the mappings. */
void hsagpu_peer_release(struct hsagpu_file *hf)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_peer *p, *tmp;
	LIST_HEAD(peers);

	mutex_lock(&hdev->lock);
	list_splice_init(&hf->peers, &peers);
	list_for_each_entry(p, &peers, node)
		hsagpu_peer_unmap(hdev, p);
	mutex_unlock(&hdev->lock);

	list_for_each_entry_safe(p, tmp, &peers, node) {
		hsagpu_device_put(p->peer);
		kfree(p);
	}
}

/* remove(): the queues are stopped; take every IOMMU mapping away. */
void hsagpu_peers_unmap(struct hsagpu_device *hdev)
{
	struct hsagpu_file *hf;
	struct hsagpu_peer *p;

	mutex_lock(&hdev->lock);
	list_for_each_entry(hf, &hdev->files, node)
		list_for_each_entry(p, &hf->peers, node)
			hsagpu_peer_unmap(hdev, p);
	mutex_unlock(&hdev->lock);
}

/*
 * remove() of @peer: no device may keep an IOMMU mapping of its BAR,
 * which firmware or a hotplugged device may reuse. The other devices'
 * queues are not stopped: a packet that still uses the address faults.
 */
void hsagpu_peers_revoke(struct hsagpu_device *peer)
{
	struct hsagpu_device *hdev;
	struct hsagpu_file *hf;
	struct hsagpu_peer *p;

	mutex_lock(&hsagpu_devices_lock);
	list_for_each_entry(hdev, &hsagpu_devices, node) {
		mutex_lock(&hdev->lock);
		list_for_each_entry(hf, &hdev->files, node)
			list_for_each_entry(p, &hf->peers, node)
				if (p->peer == peer)
					hsagpu_peer_unmap(hdev, p);
		mutex_unlock(&hdev->lock);
	}
	mutex_unlock(&hsagpu_devices_lock);
}

/*
 * KFD: VRAM allocation @mem of another device mapped into @hf's GPU
 * space at @va (a buffer mapped to several devices), through an entry
 * of its own (the peer's whole VRAM in the IOMMU when the path needs
 * it), so that the peer's removal revokes it like any other. Undone by
 * hsagpu_peer_unmap_mem(), or at the context's teardown.
 */
struct hsagpu_peer *hsagpu_peer_map_mem(struct hsagpu_file *hf,
					struct hsagpu_mem *mem, u64 va,
					u64 perms)
{
	struct hsagpu_device *hdev = hf->hdev, *peer = mem->hdev;
	struct hsagpu_vm_src src = { .flags = HSAGPU_PTE_SYSTEM };
	struct hsagpu_peer *p;
	int ret;

	if (!hf->vm || !(mem->flags & HSAGPU_MEM_VRAM) || peer == hdev)
		return ERR_PTR(-EINVAL);
	ret = hsagpu_file_usable(hf);
	if (ret)
		return ERR_PTR(ret);
	if (READ_ONCE(peer->dead))
		return ERR_PTR(-ENODEV);
	ret = hsagpu_enter(hdev);
	if (ret)
		return ERR_PTR(ret);
	p = hsagpu_peer_new(hdev, peer);
	if (IS_ERR(p))
		goto out;
	/* As PEER_ACCESS: a peer marked dead revokes under hdev->lock. */
	mutex_lock(&hdev->lock);
	ret = -ENODEV;
	if (!READ_ONCE(peer->dead)) {
		p->vm = hf->vm;
		p->map.kind = HSAGPU_VM_MAP_PEER;
		src.addr = p->addr + mem->vram_offset;
		ret = hsagpu_vm_map(hf->vm, &p->map, va, mem->size, perms,
				    &src);
	}
	if (ret) {
		hsagpu_peer_unmap(hdev, p);
		mutex_unlock(&hdev->lock);
		hsagpu_device_put(p->peer);
		kfree(p);
		p = ERR_PTR(ret == -ERANGE ? -EINVAL : ret);
		goto out;
	}
	list_add_tail(&p->node, &hf->peers);
	mutex_unlock(&hdev->lock);
out:
	hsagpu_exit(hdev);
	return p;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_peer_map_mem, HSAGPU);

void hsagpu_peer_unmap_mem(struct hsagpu_file *hf, struct hsagpu_peer *p)
{
	struct hsagpu_device *hdev = hf->hdev;

	mutex_lock(&hdev->lock);
	list_del(&p->node);
	hsagpu_peer_unmap(hdev, p);
	mutex_unlock(&hdev->lock);
	hsagpu_device_put(p->peer);
	kfree(p);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_peer_unmap_mem, HSAGPU);

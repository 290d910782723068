/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The little of an AMDHSA code object (an ELF shared object) that the
 * GCN tests need to run one: where its loadable segments go and where a
 * symbol (a kernel descriptor, "name.kd") lies in the loaded image. Used
 * by the host unit test and the guest test; no relocations (the test
 * kernels have none). @f is the whole file, trusted (built with the
 * tests).
 */
#ifndef HSAGPU_GCN_ELF_H
#define HSAGPU_GCN_ELF_H

#include <elf.h>
#include <stdint.h>
#include <string.h>

static inline Elf64_Phdr gcn_elf_phdr(const uint8_t *f, unsigned i)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;

	memcpy(&eh, f, sizeof(eh));
	memcpy(&ph, f + eh.e_phoff + i * eh.e_phentsize, sizeof(ph));
	return ph;
}

static inline unsigned gcn_elf_phnum(const uint8_t *f)
{
	Elf64_Ehdr eh;

	memcpy(&eh, f, sizeof(eh));
	return eh.e_phnum;
}

/* Bytes from address 0 to the end of the last loadable segment. */
static inline uint64_t gcn_elf_span(const uint8_t *f)
{
	uint64_t span = 0;

	for (unsigned i = 0; i < gcn_elf_phnum(f); i++) {
		Elf64_Phdr ph = gcn_elf_phdr(f, i);

		if (ph.p_type == PT_LOAD && ph.p_vaddr + ph.p_memsz > span)
			span = ph.p_vaddr + ph.p_memsz;
	}
	return span;
}

/* Copy the loadable segments to @dst + their address (zeroed before). */
static inline void gcn_elf_load(const uint8_t *f, uint8_t *dst)
{
	memset(dst, 0, gcn_elf_span(f));
	for (unsigned i = 0; i < gcn_elf_phnum(f); i++) {
		Elf64_Phdr ph = gcn_elf_phdr(f, i);

		if (ph.p_type == PT_LOAD)
			memcpy(dst + ph.p_vaddr, f + ph.p_offset, ph.p_filesz);
	}
}

/* The address of symbol @name in the loaded image; 0 when there is none. */
static inline uint64_t gcn_elf_symbol(const uint8_t *f, const char *name)
{
	Elf64_Ehdr eh;

	memcpy(&eh, f, sizeof(eh));
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh, strs;

		memcpy(&sh, f + eh.e_shoff + i * eh.e_shentsize, sizeof(sh));
		if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM)
			continue;
		memcpy(&strs, f + eh.e_shoff + sh.sh_link * eh.e_shentsize,
		       sizeof(strs));
		for (uint64_t k = 0; k < sh.sh_size / sizeof(Elf64_Sym); k++) {
			Elf64_Sym s;

			memcpy(&s, f + sh.sh_offset + k * sizeof(s), sizeof(s));
			if (!strcmp((const char *)f + strs.sh_offset + s.st_name,
				    name))
				return s.st_value;
		}
	}
	return 0;
}

#endif

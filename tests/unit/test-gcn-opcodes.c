// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit test of the GCN interpreter's opcode names
 * (hw/hsagpu/gcn/hsagpu-gcn-opcodes.h) against Debian's llvm-mc: every
 * line of tests/gcn/opcodes.s, assembled at build time into opcodes.enc,
 * is classified by the header's encoding tests, its opcode field taken
 * out and compared with the header's number for the name its mnemonic
 * makes (v_add_f32_e64 -> GCN_VOP3_V_ADD_F32, global_load_dword ->
 * GCN_FLAT_LOAD_DWORD). One check per name: a number llvm-mc disagrees
 * with, a name no line tests, or a line without a name fails it. The
 * names come from the header itself (gcn-opcode-names.inc, made from it
 * at build time), so a name added there without a line here fails too.
 * Compares also have their relation, negation (or signedness) and v_cmpx
 * form checked against the header's GCN_VOPC_* helpers. TAP output.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/gcn/hsagpu-gcn-int.h"

#include "tap.h"

#ifndef GCN_OPC_ENC
#define GCN_OPC_ENC "opcodes.enc"
#endif

typedef struct GcnName {
	const char *name;
	unsigned value;
	unsigned seen;			/* lines of llvm-mc that name it */
	char bad[200];			/* the first disagreement */
} GcnName;

static GcnName names[] = {
#include "gcn-opcode-names.inc"
};

#define NNAMES (sizeof(names) / sizeof(names[0]))

static GcnName *lookup(const char *name)
{
	for (size_t i = 0; i < NNAMES; i++)
		if (!strcmp(names[i].name, name))
			return &names[i];
	return NULL;
}

/*
 * The header name prefix and the opcode of instruction @i (VOP1, VOP2
 * in VOP3's numbering); NULL for an encoding the header does not have.
 * *@seg: FLAT's segment field.
 */
static const char *classify(uint32_t i, unsigned *op, unsigned *seg)
{
	*seg = (i >> 14) & 3;
	if (GCN_ENC_SOP1(i)) {
		*op = (i >> 8) & 0xff;
		return "GCN_SOP1_";
	}
	if (GCN_ENC_SOPC(i)) {
		*op = (i >> 16) & 0x7f;
		return "GCN_SOPC_";
	}
	if (GCN_ENC_SOPP(i)) {
		*op = (i >> 16) & 0x7f;
		return "GCN_SOPP_";
	}
	if (GCN_ENC_SOPK(i)) {
		*op = (i >> 23) & 0x1f;
		return "GCN_SOPK_";
	}
	if (GCN_ENC_SOP2(i)) {
		*op = (i >> 23) & 0x7f;
		return "GCN_SOP2_";
	}
	if (GCN_ENC_SMEM(i)) {
		*op = (i >> 18) & 0xff;
		return "GCN_SMEM_";
	}
	if (GCN_ENC_VOP1(i)) {
		*op = GCN_VOP3_FROM_VOP1((i >> 9) & 0xff);
		return "GCN_VOP3_";
	}
	if (GCN_ENC_VOPC(i)) {
		*op = (i >> 17) & 0xff;
		return "GCN_VOP3_";
	}
	if (GCN_ENC_VOP2(i)) {
		*op = GCN_VOP3_FROM_VOP2((i >> 25) & 0x3f);
		return "GCN_VOP3_";
	}
	if (GCN_ENC_VOP3P(i)) {
		*op = (i >> 16) & 0x7f;
		return "GCN_VOP3P_";
	}
	if (GCN_ENC_VOP3(i)) {
		*op = (i >> 16) & 0x3ff;
		return "GCN_VOP3_";
	}
	if (GCN_ENC_DS(i)) {
		*op = (i >> 17) & 0xff;
		return "GCN_";			/* the mnemonic: ds_* */
	}
	if (GCN_ENC_FLAT(i)) {
		*op = (i >> 18) & 0x7f;
		return "GCN_";			/* flat_* (global_*: flat_*) */
	}
	if (GCN_ENC_MUBUF(i)) {
		*op = (i >> 18) & 0x7f;
		return "GCN_";			/* buffer_* */
	}
	if (GCN_ENC_MTBUF(i)) {
		*op = (i >> 15) & 0xf;
		return "GCN_";			/* tbuffer_* */
	}
	return NULL;
}

static const char *const frel[16] = {
	"F", "LT", "EQ", "LE", "GT", "LG", "GE", "O",
	"U", "NGE", "NLG", "NGT", "NLE", "NEQ", "NLT", "TRU",
};
static const char *const irel[8] = {
	"F", "LT", "EQ", "LE", "GT", "NE", "GE", "T",
};

/*
 * A compare's name against the VOPC helpers: NULL when they agree (or
 * @n is no compare), else what is wrong
 */
static const char *vopc_props(const GcnName *n)
{
	const char *p = n->name + strlen("GCN_VOP3_V_CMP");
	char rel[8];
	const char *type;
	bool x;
	size_t len;

	if (strncmp(n->name, "GCN_VOP3_V_CMP", strlen("GCN_VOP3_V_CMP")))
		return NULL;
	x = *p == 'X';
	p += x + 1;			/* past "X_" or "_" */
	type = strrchr(p, '_');
	if (!type || (len = type - p) >= sizeof(rel))
		return "cannot parse the compare's name";
	memcpy(rel, p, len);
	rel[len] = 0;
	type++;
	if (gcn_vopc_is_cmpx(n->value) != x)
		return "gcn_vopc_is_cmpx() disagrees";
	if (!GCN_VOP3_IS_VOPC(n->value))
		return "GCN_VOP3_IS_VOPC() disagrees";
	if (!strcmp(rel, "CLASS"))
		return NULL;
	for (unsigned k = 0; k < 16; k++) {
		if (type[0] == 'F' ? strcmp(rel, frel[k]) :
		    k >= 8 || strcmp(rel, irel[k]))
			continue;
		if (GCN_VOPC_REL(n->value) != (k & 7))
			return "GCN_VOPC_REL() disagrees";
		if (GCN_VOPC_NEG_U(n->value) !=
		    (type[0] == 'F' ? k >= 8 : type[0] == 'U'))
			return "GCN_VOPC_NEG_U() disagrees";
		return NULL;
	}
	return "unknown relation";
}

int main(void)
{
	FILE *f = fopen(GCN_OPC_ENC, "r");
	char line[512];
	unsigned nlines = 0, orphans = 0;

	TM(f != NULL, "open %s", GCN_OPC_ENC);
	if (!f)
		return tap_done();
	while (fgets(line, sizeof(line), f)) {
		char *e = strstr(line, "; encoding: [");
		char mn[96], name[128], *s;
		unsigned b[4], op, seg, want_seg;
		const char *prefix;
		GcnName *n;
		uint32_t i;

		if (!e || sscanf(line, " %95s", mn) != 1)
			continue;
		e += strlen("; encoding: [");
		if (sscanf(e, "0x%x,0x%x,0x%x,0x%x", &b[0], &b[1], &b[2],
			   &b[3]) != 4)
			continue;
		nlines++;
		i = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
		s = mn + strlen(mn);
		if (s - mn > 4 && (!strcmp(s - 4, "_e32") ||
				   !strcmp(s - 4, "_e64")))
			s[-4] = 0;
		prefix = classify(i, &op, &seg);
		if (!prefix) {
			orphans++;
			TM(0, "%s: an encoding the header does not have", mn);
			continue;
		}
		/* global_* and scratch_*: flat_* in another segment */
		want_seg = !strncmp(mn, "global_", 7) ? GCN_FLAT_SEG_GLOBAL :
			   !strncmp(mn, "scratch_", 8) ? GCN_FLAT_SEG_SCRATCH :
			   GCN_FLAT_SEG_FLAT;
		snprintf(name, sizeof(name), "%s%s%s", prefix,
			 want_seg != GCN_FLAT_SEG_FLAT ? "flat_" : "",
			 want_seg == GCN_FLAT_SEG_GLOBAL ? mn + 7 :
			 want_seg == GCN_FLAT_SEG_SCRATCH ? mn + 8 : mn);
		for (s = name; *s; s++)
			*s = toupper((unsigned char)*s);
		n = lookup(name);
		if (!n) {
			orphans++;
			TM(0, "%s: no %s in the header", mn, name);
			continue;
		}
		n->seen++;
		if (n->bad[0])
			continue;
		if (op != n->value)
			snprintf(n->bad, sizeof(n->bad),
				 "llvm-mc encodes %s with %u (0x%x)", mn, op,
				 op);
		else if (!strncmp(name, "GCN_FLAT_", 9) && seg != want_seg)
			snprintf(n->bad, sizeof(n->bad),
				 "%s: segment %u", mn, seg);
	}
	fclose(f);
	TM(nlines > 0 && !orphans, "%u lines from llvm-mc, %u without a name",
	   nlines, orphans);
	for (size_t k = 0; k < NNAMES; k++) {
		GcnName *n = &names[k];
		const char *why = vopc_props(n);

		if (!n->bad[0] && why)
			snprintf(n->bad, sizeof(n->bad), "%s", why);
		TM(n->seen && !n->bad[0], "%s = %u (0x%x): %s", n->name,
		   n->value, n->value, !n->seen ?
		   "no line of tests/gcn/opcodes.s names it" :
		   n->bad[0] ? n->bad : "as llvm-mc encodes it");
	}
	return tap_done();
}

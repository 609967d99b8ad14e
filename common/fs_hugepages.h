/*
 * fs_hugepages.h - hugepage sizes, gres/hugepages types and a job's
 * hugepage request, with one parser for every part of fabsched: the gres
 * plugin (slurmd), job_submit/fabsched (slurmctld) and the prolog.  No
 * Slurm header, no global state.
 *
 * Slurm indexes at most 1024 units of a gres with File= per node, so a
 * node with more pages counts them in units of K pages: gres type "2mxK"
 * (a unit of K 2 MiB pages), "2m" when K is 1.  fabsched.conf's
 * HugepageUnits gives every node one K per page size, so that one request
 * fits mixed nodes; a user asks in pages (--gres=hugepages:2m:8192), which
 * job_submit turns into the nodes' units and the prolog reserves exactly.
 *
 * Return convention: as fs_err.h (0, or -1 with a message naming the
 * input and the accepted form).
 */
#ifndef FABSCHED_FS_HUGEPAGES_H
#define FABSCHED_FS_HUGEPAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FS_HP_SIZES_MAX 8		/* page sizes one node or job names */
#define FS_HP_MAX_PER_UNIT (1ULL << 30) /* pages in one gres unit */

/* ------------------------------------------------------------ sizes, types */

/* A page size "2m", "1g", "64k" (any case; @len bytes of @s) -> KiB. */
int fs_hp_page_kb(const char *s, size_t len, uint64_t *page_kb);
/* KiB -> "2m", "1g", "64k" (16 bytes are enough); returns buf. */
const char *fs_hp_page_name(uint64_t page_kb, char *buf, size_t bufsz);
/* A gres/hugepages type "<size>[x<pages per unit>]" ("2m", "2mx8"). */
int fs_hp_type_parse(const char *type, uint64_t *page_kb, uint64_t *per_unit, char *err,
		     size_t errlen);
/* The type of a unit of @per_unit pages: "2m", "2mx8" (32 bytes). */
const char *fs_hp_type_name(uint64_t page_kb, uint64_t per_unit, char *buf, size_t bufsz);

/* ------------------------------------------------------------ HugepageUnits */

struct fs_hp_unit {
	uint64_t page_kb, per_unit;
};

struct fs_hp_units {
	size_t n;
	struct fs_hp_unit u[FS_HP_SIZES_MAX];
};

#define FS_HP_UNITS_FORM "comma-separated <page size>:<pages per unit>, e.g. 2m:64,1g:1"

/* "2m:64,1g:1" (the value of @key, for messages); "" is no unit. */
int fs_hp_units_parse(const char *key, const char *text, struct fs_hp_units *out, char *err,
		      size_t errlen);
/* The pages per unit @u gives @page_kb; 0 when it gives none. */
uint64_t fs_hp_units_of(const struct fs_hp_units *u, uint64_t page_kb);

/* ------------------------------------------------------------ requests */

/* What a node holds: units of each (page size, pages per unit). */
struct fs_hp_node {
	const char *name; /* for messages */
	size_t n;
	struct fs_hp_pool {
		uint64_t page_kb, per_unit, units;
	} p[FS_HP_SIZES_MAX];
};

/* Add @units of gres type @type to @nd (adds up records of one type);
 * -1 with a message when @type is not a hugepage type or @nd is full. */
int fs_hp_node_add(struct fs_hp_node *nd, const char *type, uint64_t units, char *err,
		   size_t errlen);
/* Pages of @page_kb @nd holds, whatever their unit. */
uint64_t fs_hp_node_pages(const struct fs_hp_node *nd, uint64_t page_kb);

/* Pages of one size a job asks per node. */
struct fs_hp_ask {
	uint64_t page_kb, pages;
};

struct fs_hp_plan {
	bool found; /* the request names hugepages */
	char *tres; /* malloc'ed: the request in the nodes' units;
				   NULL when it needs no change */
	size_t n;   /* the pages asked of each size named */
	struct fs_hp_ask a[FS_HP_SIZES_MAX];
	uint64_t untyped; /* hugepages:<count> without a size */
};

/*
 * A gres request as Slurm hands it to the controller (tres_per_node:
 * "gres:hugepages:2m:512,gres:rdma:1" or "gres/hugepages:1g:2"; counts
 * with k, m or g are times 1024) against the nodes that could run it.
 * "hugepages:2m:N" is N pages: when the nodes holding 2m pages count them
 * in units of K > 1, it becomes "hugepages:2mxK:ceil(N/K)" in p->tres;
 * nodes counting 2m pages in different units refuse it, naming two and
 * the HugepageUnits that would make them one.  "hugepages:2mxK:C" is C
 * units as given.  Refused also: a size no node holds, a request no node
 * holds all of (the message names @what, @where and the largest holdings
 * in pages), and a count without a size on nodes counting in units.
 * p is the caller's to fs_hp_plan_free, whatever the return.
 */
int fs_hp_plan(const char *tres, const char *what, const char *where,
	       const struct fs_hp_node *nodes, size_t nnodes, struct fs_hp_plan *p, char *err,
	       size_t errlen);
void fs_hp_plan_free(struct fs_hp_plan *p);

/* The pages asked, "2m:8200,1g:4" ("" when none); -1 when too long. */
int fs_hp_asked_format(const struct fs_hp_plan *p, char *buf, size_t bufsz);
/* Back: entries into a[FS_HP_SIZES_MAX], *n of them; @name for messages. */
int fs_hp_asked_parse(const char *name, const char *s, struct fs_hp_ask *a, size_t *n, char *err,
		      size_t errlen);

/*
 * A job's gres request (@tres, as in fs_hp_plan) against the nodes of its
 * partitions @parts ("batch", "a,b"): fs_hp_plan with its messages naming
 * the request as the user wrote it ("--gres=hugepages:2m:512,rdma:1") and
 * the partitions; the pages asked into @asked ("" when none).  *tres_out
 * receives the request in the nodes' units (malloc'ed), NULL when it needs
 * no change.  RET 0, or -1 (refused) with the reason in err.
 */
int fs_hp_request(const char *tres, const char *parts, const struct fs_hp_node *nodes,
		  size_t nnodes, char **tres_out, char *asked, size_t askedsz, char *err,
		  size_t errlen);

#endif /* FABSCHED_FS_HUGEPAGES_H */

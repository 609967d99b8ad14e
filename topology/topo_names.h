/* topo_names.h — name resolution state shared by names.c and classify.c. */
#ifndef FABSCHED_TOPO_NAMES_H
#define FABSCHED_TOPO_NAMES_H

#include "topo_private.h"
#include <regex.h>

struct fst_names {
	struct fst_index map; /* guid hex -> mapval index */
	char **mapval;
	int nmap, cap_map;
	regex_t re, ex;
	int have_re, have_ex;
	struct fst_index nodelist;
	int have_nodelist;
	char **nodelist_v; /* owned by caller of fst_names_setup (freed in free) */
	int nodelist_n;
	struct fst_index rackof; /* host -> racknames index */
	char **racknames;
	int nracknames, cap_racknames;
};

int fst_names_setup(struct fst_names *nm, const struct fst_opts *o, char *err, size_t errlen);
int fst_names_load_map(struct fst_names *nm, const char *path, char *err, size_t errlen);
int fst_names_load_racks(struct fst_names *nm, const char *path, char *err, size_t errlen);
void fst_names_free(struct fst_names *nm);
const char *fst_names_mapped(const struct fst_names *nm, uint64_t guid);
/* NULL and the host name in out, or the reason it is not a compute node. */
const char *fst_names_host(const struct fst_names *nm, const struct fst_opts *o,
			   const struct fst_device *d, char *out, size_t n);
void fst_names_switch(const char *desc, char *out, size_t n);
int fst_is_aggregation_node(const char *desc);

#endif

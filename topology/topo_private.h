/*
 * topo_private.h — helpers shared by the files of libfabsched_topology.
 * Not installed, not for callers of the library.
 */
#ifndef FABSCHED_TOPO_PRIVATE_H
#define FABSCHED_TOPO_PRIVATE_H

#include "fabsched_topo.h"
#include <stdarg.h>

#define FST_UNUSED __attribute__((unused))
#define FST_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* String -> int index (open addressing).  Keys are copied. */
struct fst_index {
	char **keys;
	int *vals;
	size_t cap, n;
};
int fst_index_put(struct fst_index *ix, const char *key, int val); /* 0 / -1 ENOMEM */
int fst_index_get(const struct fst_index *ix, const char *key);	   /* -1 none */
void fst_index_clear(struct fst_index *ix);

struct fst_priv {
	struct fst_index ids;	 /* device id -> index */
	struct fst_index names;	 /* device name -> index (after classify) */
	struct fst_index hostix; /* host name -> index */
};

/* Error buffer: "fmt" formatted into err (may be NULL). Always returns -1. */
#include "fs_err.h"
#include "fs_file.h"

/* A JSON document from @buf (json-c's object, the caller puts it), or NULL
 * with "<file>:<line>: <what>; expected a JSON document". */
struct json_object;
struct json_object *fst_json_parse(const char *buf, size_t len, const char *file, char *err,
				   size_t errlen);

/* A port label the model keeps: "1/4/1" (ibdiagnet) or a port name
 * ("swp1", LLDP), at most FST_PORT_LABEL_MAX - 1 characters. */
int fst_port_label_ok(const char *s);

/* Read a whole file into *bufp (caller frees), its size into *lenp; a
 * '\0' follows the data (text readers may stop at it). */
int fst_read_file(const char *path, char **bufp, size_t *lenp, char *err, size_t errlen);

/* One neighbour seen on one local port, as both LLDP readers give it:
 * parse_lldp.c from lldpd's JSON, parse_lldp_snmp.c from an LLDP-MIB walk.
 * Every string came off the wire. */
struct fst_lldp_row {
	const char *ifname;	/* the local port or interface, NULL: no name */
	unsigned port_num;	/* LLDP-MIB's local port number (0: JSON) */
	const char *sys_name;	/* the neighbour's system name, or NULL */
	const char *chassis_id; /* its chassis id as text, or NULL */
	uint64_t chassis_mac;	/* that id when a MAC address, else 0 */
	int bridge;		/* it says it bridges or routes */
	const char *port_id;	/* its port id as text, or NULL */
	int port_id_name;	/* that id is of the interface-name or local kind */
	uint64_t port_mac;	/* that id when a MAC address, else 0 */
	const char *port_desc;	/* its port description, or NULL */
	long mbps;		/* the link's speed, 0: unknown */
};
/* The rows of an LLDP-MIB walk (parse_lldp_snmp.c): @len bytes at @buf
 * and a '\0' after them (fst_read_file's); @file names it in errors.  0,
 * or -1 with "<file>:<line>: <what>; expected ...". */
int fst_lldp_snmp_rows(const char *buf, size_t len, const char *file, struct fst_lldp_row **rows,
		       int *nrows, char *err, size_t errlen);
void fst_lldp_rows_free(struct fst_lldp_row *rows, int n);

/* Model building (return index, or -1 on ENOMEM). */
int fst_add_device(struct fst_model *m, enum fst_devtype type, const char *id, uint64_t guid,
		   int nports);
int fst_add_link(struct fst_model *m, int a, int ap, int b, int bp, int width,
		 enum fst_speed speed);
int fst_add_issue(struct fst_model *m, enum fst_issue_kind kind, enum fst_severity sev, int dev,
		  int port, int peer, int peer_port, const char *fmt, ...) FST_PRINTF(8, 9);
int fst_set_str(char **dst, const char *src); /* strdup into *dst; 0 / -1 */
/* Connect ports both ways, creating the link; handles self loops and
 * conflicting ends (issues).  Returns 0 or -1 on ENOMEM. */
int fst_connect(struct fst_model *m, int a, int ap, int b, int bp, int width, enum fst_speed speed);
/* Parse "4xQDR" / "1xSDR" / "4xFDR10". 0 / -1 */
int fst_parse_widthspeed(const char *s, int *width, enum fst_speed *speed);
/* Display helpers */
const char *fst_dev_label(const struct fst_model *m, int d); /* name or id */
/* "leaf01 port 3", with the port's label when it has one: "leaf01 port 3
 * (1/2/1)" (into @buf, returned); fst_port_label_text: @who in place of the
 * device's name ("gpu003 mlx5_0 port 2"). */
const char *fst_port_text(const struct fst_model *m, int d, int p, char *buf, size_t n);
const char *fst_port_label_text(const struct fst_model *m, int d, int p, const char *who, char *buf,
				size_t n);
void *fst_grow(void *arr, int *cap, int need, size_t elem); /* NULL on ENOMEM */
/* Hosts that are not compute nodes by the fabric's own evidence
 * (evidence.c): demotes compute HCAs with a reason and an issue, marks
 * the switches found above leaves in ABOVE (ndevs entries).  0 / -1
 * ENOMEM.  OFF/NB: switch adjacency, nb[off[d]..off[d+1]). */
int fst_host_evidence(struct fst_model *m, const int *off, const int *nb, char *above);
int fst_host_name_ok(const char *s);
int fst_str_cmp_natural(const char *a, const char *b);

#endif

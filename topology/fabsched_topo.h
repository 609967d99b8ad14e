/*
 * fabsched_topo.h — fabsched fabric model (libfabsched_topology).
 *
 * Builds a model of an InfiniBand fabric from ibnetdiscover text, from a live
 * fabric (libibnetdisc) or from an ibnetdiscover cache file; maps HCAs to
 * compute nodes; classifies switches (levels, leaves, planes, racks, pods);
 * finds degraded links; exports Slurm topology.conf (tree and block),
 * topology.yaml and a JSON model, and reads the JSON model back.
 *
 * Conventions (the whole library):
 * - Functions returning int return 0 on success and -1 on failure.  On
 *   failure they write one line into the caller's buffer (err, errlen), in
 *   the form "<file>:<line>: <what was found>; expected <expected form>"
 *   whenever a file position is known.  err may be NULL.
 * - Nothing is printed, nothing exits or aborts; there is no global state,
 *   so distinct models may be used from distinct threads.
 * - Ownership: a model returned through a `struct fst_model **` argument
 *   belongs to the caller, who releases it with fst_model_free().  Every
 *   pointer inside a model (strings, arrays) belongs to the model and lives
 *   until fst_model_free(); callers treat the structures as read-only.
 *   Strings returned by functions documented as "caller frees" are released
 *   with free().
 */
#ifndef FABSCHED_TOPO_H
#define FABSCHED_TOPO_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "fs_ib.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FST_JSON_FORMAT "fabsched-topology"
#define FST_JSON_VERSION 1
#define FST_NAME_MAX 64	      /* Slurm switch/node name limit we enforce */
#define FST_PORT_LABEL_MAX 16 /* port label ("1/4/1") with its NUL */

enum fst_devtype { FST_SWITCH = 1, FST_HCA = 2, FST_ROUTER = 3 };

/* Per-lane signalling rates of InfiniBand generations, then the rates of
 * Ethernet links (width 1: the whole link's rate, as LLDP reports it). */
enum fst_speed {
	FST_SPEED_UNKNOWN = 0,
	FST_SPEED_SDR,
	FST_SPEED_DDR,
	FST_SPEED_QDR,
	FST_SPEED_FDR10,
	FST_SPEED_FDR,
	FST_SPEED_EDR,
	FST_SPEED_HDR,
	FST_SPEED_NDR,
	FST_SPEED_XDR,
	FST_SPEED_GBE1, /* Ethernet: 1 Gb/s ... */
	FST_SPEED_GBE10,
	FST_SPEED_GBE25,
	FST_SPEED_GBE40,
	FST_SPEED_GBE50,
	FST_SPEED_GBE100,
	FST_SPEED_GBE200,
	FST_SPEED_GBE400,
	FST_SPEED_GBE800,
	FST_SPEED_COUNT
};

/* Role of a device after fst_classify(). */
enum fst_role {
	FST_ROLE_NONE = 0,
	FST_ROLE_LEAF,	    /* switch with at least one compute HCA (level 0) */
	FST_ROLE_HOST_LEAF, /* switch with HCAs but no compute HCA (level 0, no nodes) */
	FST_ROLE_SPINE,	    /* switch above the leaves (level >= 1) */
	FST_ROLE_ISOLATED,  /* switch not reachable from any leaf (level -1) */
	FST_ROLE_COMPUTE,   /* HCA of a compute node */
	FST_ROLE_NONCOMPUTE /* HCA listed in the report, not a node */
};

enum fst_severity { FST_INFO = 0, FST_WARNING = 1, FST_PROBLEM = 2 };

enum fst_issue_kind {
	FST_ISSUE_IGNORED_LINE = 1, /* input noise skipped (e.g. umad errors) */
	FST_ISSUE_NONCOMPUTE_HCA,   /* HCA that is not a compute node */
	FST_ISSUE_DEGRADED_LINK,    /* width or speed below its tier */
	FST_ISSUE_SELF_LOOP,	    /* cable between two ports of one switch */
	FST_ISSUE_ASYMMETRIC,	    /* both ends disagree about a link */
	FST_ISSUE_DANGLING,	    /* link to a device not in the input */
	FST_ISSUE_MULTI_LEAF,	    /* node's HCAs on several leaves of a plane */
	FST_ISSUE_NAME,		    /* switch name fallback, duplicate names */
	FST_ISSUE_NO_NODES,	    /* switch/plane without compute nodes */
	FST_ISSUE_MISSING_NODE,	    /* node of the node-list filter not in fabric */
	FST_ISSUE_MISSING_LINK,	    /* fewer uplinks than the switch's peers */
	FST_ISSUE_NO_SWITCH,	    /* no switch at all: nothing to export */
	FST_ISSUE_COMPUTE_HCA	    /* FabricComputeHca: which plane makes racks */
};
#define FST_ISSUE_LAST FST_ISSUE_COMPUTE_HCA

struct fst_port {
	int num;       /* port number; ports[i].num == i */
	uint64_t guid; /* port GUID, 0 when unknown */
	int lid;       /* 0 when unknown */
	int width;     /* active lanes (1, 2, 4, 8, 12), 0 unknown */
	enum fst_speed speed;
	int peer; /* device index at the other end, -1 when none */
	int peer_port;
	int link;			/* index in fst_model.links, -1 when none */
	char label[FST_PORT_LABEL_MAX]; /* the switch's name of the port as
				   ibdiagnet writes it ("1/4/1": split port),
				   "" when the input has none */
};

struct fst_device {
	enum fst_devtype type;
	uint64_t guid;	     /* node GUID */
	uint64_t sysimgguid; /* system image GUID (shared by the ASICs of a
				   director chassis), 0 when unknown; kept in
				   the JSON model for switches */
	char *id;	     /* record id: "S-<guid>", "H-<guid>" or net-file id */
	char *desc;	     /* node description ("" when none) */
	char *name;	     /* switch: display name; HCA: host name or NULL */
	int nports;
	struct fst_port *ports; /* nports + 1 entries, index = port number */
	int line;		/* line of its record in the input, 0 otherwise */
	int own_record;		/* HCA from LLDP: an interface its host's own
				   record lists (the host said it is its own) */
	/* filled by fst_classify() */
	enum fst_role role;
	int level;	    /* switches: 0 leaf, 1.. above, -1 isolated; HCAs -1 */
	int plane;	    /* plane (connected switch fabric) index, -1 none */
	int host;	    /* HCA: index in hosts, -1 when not a node */
	const char *reason; /* non-compute HCA: why (static string) */
	int rack, pod;	    /* leaf switches: group indices, -1 otherwise */
	int nhosts;	    /* leaf: compute HCA ports attached */
};

struct fst_link {
	int a, a_port, b, b_port; /* device indices and port numbers */
	int width;
	enum fst_speed speed;
	int self_loop; /* both ends on one device */
	int degraded;  /* set by fst_classify() */
	int tier;      /* -1 host link, else lower switch level */
};

struct fst_host { /* a compute node */
	char *name;
	int *hcas; /* device indices of its HCAs */
	int nhcas;
	int leaf;	      /* device index of its primary leaf, -1 if none */
	int plane, rack, pod; /* group indices, -1 if none */
	int rank;	      /* 0.. in locality order (plane, pod, rack, name) */
	int nleaves;	      /* leaves reached in its primary plane */
};

/* Racks, pods and planes: nested locality domains. */
struct fst_group {
	char *name;
	int parent;   /* rack -> pod, pod -> plane; -1 for planes */
	int leaf;     /* racks: leaf switch device index, -1 if from a rack map */
	int *members; /* racks: host indices; pods: racks; planes: pods */
	int nmembers;
};

struct fst_issue {
	enum fst_issue_kind kind;
	enum fst_severity severity;
	char *msg;
	int dev, port, peer, peer_port; /* devices involved, -1 when none */
};

struct fst_model {
	char *source; /* input file name, "live" or JSON source */
	struct fst_device *devs;
	int ndevs;
	struct fst_link *links;
	int nlinks;
	struct fst_host *hosts;
	int nhosts;
	struct fst_group *racks, *pods, *planes;
	int nracks, npods, nplanes;
	struct fst_issue *issues;
	int nissues;
	int classified;
	int max_level;
	struct fst_priv *priv; /* library-internal indices */
	int cap_devs, cap_links, cap_issues;
};

/* ------------------------------------------------------------ model */
struct fst_model *fst_model_new(void);	  /* caller frees; NULL on ENOMEM */
void fst_model_free(struct fst_model *m); /* NULL is fine */
int fst_find_device(const struct fst_model *m, const char *id_or_name); /* -1 none */
int fst_find_host(const struct fst_model *m, const char *name);		/* -1 none */
const char *fst_speed_name(enum fst_speed s);				/* "QDR", "?" */
int fst_speed_from_name(const char *s, enum fst_speed *out);		/* 0 / -1 */
long fst_lane_mbps(enum fst_speed s);					/* nominal Mb/s per lane */
long fst_link_mbps(int width, enum fst_speed s);			/* width x lane rate */
int fst_speed_is_ethernet(enum fst_speed s);
/* A link's width and speed as text: "4xHDR", "100GbE" (an Ethernet link
 * has no lanes to count), "?" unknown; into @buf, returned. */
const char *fst_widthspeed(int width, enum fst_speed s, char *buf, size_t n);
/* The Ethernet speed of @mbps Mb/s (1000 -> FST_SPEED_GBE1), UNKNOWN for
 * a rate not in the list. */
enum fst_speed fst_speed_from_mbps(long mbps);
const char *fst_role_name(enum fst_role r);
const char *fst_issue_kind_name(enum fst_issue_kind k);

/* ------------------------------------------------------------ inputs */
/* ibnetdiscover text (also accepts ibsim net files).  Noise outside records
 * (error lines) becomes an FST_ISSUE_IGNORED_LINE; malformed records fail. */
int fst_parse_ibnet_file(struct fst_model **out, const char *path, char *err, size_t errlen);
int fst_parse_ibnet_buf(struct fst_model **out, const char *buf, size_t len, const char *name,
			char *err, size_t errlen);
/* Live discovery through libibnetdisc (ca NULL = first CA, port 0 = first
 * active).  If cache_out is not NULL the discovered fabric is also written
 * there with ibnd_cache_fabric().  Fails with a message when the library was
 * built without libibnetdisc. */
int fst_discover_live(struct fst_model **out, const char *ca, int port, const char *cache_out,
		      char *err, size_t errlen);
/* LLDP neighbour records (parse_lldp.c): @node_dir holds one file per
 * node, <node>.json, with what `lldpcli -f json0 show neighbors details`
 * (or -f json) prints there; @switch_dir (NULL: none) the same from the
 * switches, or for a switch without lldpd <switch>.snmpwalk, what
 * `snmpwalk -On SWITCH 1.0.8802.1.1.2` prints (LLDP-MIB).  Hosts' interfaces become one-port HCAs ("H-<host>-<ifname>",
 * described "<host> <ifname>"; own_record set for those its host's own
 * record lists), switches' ports are numbered by the numbers ending their
 * names (swp7: 7) when those are 1-255 and distinct, else in the natural
 * order of the names (kept as labels); Ethernet speeds from the
 * MAU types.  Neighbours' strings that are not names are left out with an
 * FST_ISSUE_IGNORED_LINE. */
int fst_parse_lldp(struct fst_model **out, const char *node_dir, const char *switch_dir, char *err,
		   size_t errlen);
/* The same, leaving out the neighbours of every record whose file was
 * last written more than @max_age seconds before @now (0: no maximum),
 * each with an FST_ISSUE_IGNORED_LINE saying its age: a node powered off
 * keeps its last record. */
int fst_parse_lldp_aged(struct fst_model **out, const char *node_dir, const char *switch_dir,
			uint64_t max_age, time_t now, char *err, size_t errlen);
/* Mb/s of an IEEE 802.3 MAU type as lldpd names it ("100GbaseCR4",
 * "10GigBaseR", "1000BaseTFD"), 0 when not one. */
long fst_lldp_mau_mbps(const char *mau);
/* Mb/s of an IANA-MAU-MIB dot3MauType number (LLDP-MIB's 802.3 extension
 * gives the MAU type so), 0 when not known. */
long fst_lldp_mau_type_mbps(long type);
/* ibnetdiscover --cache file, loaded with ibnd_load_fabric(). */
int fst_load_cache(struct fst_model **out, const char *path, char *err, size_t errlen);
/* The local InfiniBand ports whose link is up (state INIT, ARMED or
 * ACTIVE; libibumad): at most @max in
 * @out; returns how many there are, or -1 with a message. */
struct fst_local_port {
	char ca[64];
	int port;
	uint64_t port_guid;
};
int fst_local_ports(struct fst_local_port *out, int max, char *err, size_t errlen);
/* Whether a port of @m with port GUID @guid has a link in @m (its plane is
 * already known; another port of the same HCA, on another plane, is in the
 * model too, without a link); fst_port_guid_peer: the device at the other
 * end of that link, -1 when none. */
int fst_model_has_port_guid(const struct fst_model *m, uint64_t guid);
int fst_port_guid_peer(const struct fst_model *m, uint64_t guid);

/* The fewest switch-to-switch links between switches @a and @b of @m (0
 * for one switch), -1 when they are not connected or not switches. */
int fst_switch_hops(const struct fst_model *m, int a, int b);

/* ------------------------------------------------------------ link counters */
/* The error counters (fs_ib.h's FS_IB_*) of one port, keyed by its node
 * GUID and port number; @dev is its device in the model they were read
 * against, -1 when loaded from a file. */
struct fst_counter {
	uint64_t guid;
	int port;
	int dev;
	uint64_t v[FS_IB_NCOUNTERS];
};
struct fst_counters {
	struct fst_counter *v;
	int n, cap;
	int unread; /* ports without a LID or that did not answer */
	int sorted;
};
void fst_counters_clear(struct fst_counters *c); /* frees the entries */
int fst_counters_add(struct fst_counters *c, uint64_t guid, int port, int dev,
		     const uint64_t v[FS_IB_NCOUNTERS]); /* -1 on ENOMEM */
/* Both ends of every compute node's link in the classified @m (the HCA
 * port and the switch port facing it), read with libibmad's performance
 * queries (PortCounters) through the local port of @lp on the link's
 * plane; a link with no local port on its plane, or an end without a LID
 * (no subnet manager) or that does not answer in @timeout_ms, counts in
 * ->unread.  -1 with a message when no local port can be opened or the
 * build has no libibmad. */
int fst_read_link_counters(const struct fst_model *m, const struct fst_local_port *lp, int nlp,
			   int timeout_ms, struct fst_counters *out, char *err, size_t errlen);
/* The text form, one port a line after a header:
 * "<node guid 0x...> <port> <SymbolErrorCounter> <LinkDownedCounter>
 * <PortRcvErrors>".  read: -1 with "<path>:<line>: ..." on a malformed
 * file (the entries read so far dropped). */
int fst_counters_write(const struct fst_counters *c, FILE *f);
int fst_counters_read(struct fst_counters *c, const char *path, char *err, size_t errlen);
/* For each port of @cur also in @prev (sorted here) whose followed
 * counter (@lim) grew by more than its limit: @cb(port in cur, counter,
 * growth, arg).  A counter lower than before (cleared by someone) starts
 * anew: no report.  Returns how many reports, or the first nonzero @cb. */
typedef int (*fst_counter_cb)(const struct fst_counter *c, int k, uint64_t grown, void *arg);
int fst_counters_grown(struct fst_counters *prev, const struct fst_counters *cur,
		       const struct fs_ib_err_limits *lim, fst_counter_cb cb, void *arg);
int fst_have_ibnetdisc(void); /* 1 when built with libibnetdisc */

/* ------------------------------------------------------------ names + classification */
/*
 * One line of a node-name map, read in place: blanks, then an optional
 * "H-", "S-" or "R-", the GUID in hexadecimal, blanks, then the name
 * (quotes around it dropped; trailing blanks cut).  RET 1 with *@guid and
 * *@name (inside @line), 0 for a blank or '#' line, FST_MAP_BAD_GUID or
 * FST_MAP_BAD_NAME (a missing or unbalanced name).  The one reading of
 * the map's lines: fst_classify's names and the watch's trusted GUIDs.
 */
#define FST_MAP_FORM "'0x<guid> \"<description>\"' or 'H-<guid> <host>'"
enum { FST_MAP_BAD_GUID = -1, FST_MAP_BAD_NAME = -2 };
int fst_map_line(char *line, uint64_t *guid, char **name);

struct fst_opts {
	const char *name_map;	   /* node-name-map: "<guid> \"desc\"" or "H-<guid> host" */
	const char *host_regex;	   /* POSIX ERE on the description; group 1 (or match) = host */
	const char *exclude_regex; /* descriptions/hosts matching are not compute nodes */
	const char *nodelist;	   /* Slurm hostlist: only these are compute nodes */
	const char *rack_map;	   /* lines "<rack> <hostlist>" */
	int keep_domain;	   /* keep "n001.example.com" (default: strip to "n001") */
	int all_hosts;		   /* no built-in non-compute names (fst_noncompute_name) */
	const char *compute_hca;   /* FabricComputeHca: the HCA ("mlx5_0") whose
				   plane gives each node its leaf and rack;
				   NULL: the first plane it reaches */
};

/* Built-in names of hosts that are not compute nodes, applied when no
 * nodelist, no exclude_regex and not all_hosts (words of the host name,
 * see names.c): operating systems' default host names (first word),
 * fabric managers, management and login hosts, storage servers (any
 * word); FST_MARKS_INSIDE also inside a word. */
#define FST_OS_DEFAULT_NAMES                                                                    \
	"ubuntu", "debian", "centos", "rhel", "redhat", "rocky", "almalinux", "alma", "fedora", \
		"opensuse", "suse", "sles", "oracle", "linux", "localhost", "none"
#define FST_MANAGER_NAMES "ufm", "sm", "opensm", "ibsm", "subnet", "fabricmanager"
#define FST_MGMT_NAMES "mgmt", "mgt", "login", "admin"
/* marks no compute node's name holds, even inside a word ("lassenufm2",
 * "r12-c03-CUFM-02"): each with its reason */
#define FST_MARKS_INSIDE                                                       \
	{ "ufm", "fabric-manager-host" }, { "opensm", "fabric-manager-host" }, \
	{                                                                      \
		"mgmt", "management-host"                                      \
	}
#define FST_STORAGE_NAMES                                                                          \
	"storage", "gluster", "glusterfs", "lustre", "oss", "mds", "mgs", "beegfs", "gpfs", "nsd", \
		"ceph", "netapp", "isilon", "ddn", "weka", "nas", "nfs"
/* The reason a host name marks a host that is not a compute node
 * ("os-default-name", "fabric-manager-host", "management-host",
 * "storage-host"), NULL none. */
const char *fst_noncompute_name(const char *host);
/* Resolve names, map HCAs to hosts, classify switches, racks, pods, planes,
 * degraded links.  May be called once per model. */
int fst_classify(struct fst_model *m, const struct fst_opts *opts, char *err, size_t errlen);

/* ------------------------------------------------------------ watch */
/* Add the devices and links of @src (a plane seen from another local port)
 * that @dst lacks, by device id; both unclassified.  A node with several
 * rails becomes one node when classified. */
int fst_model_merge(struct fst_model *dst, const struct fst_model *src, char *err, size_t errlen);
/* One change line ("leaf03 port 7 (n011 mlx5_0): link down", "spine02:
 * gone", "leaf01 port 2 (n004 mlx5_1): 4xHDR -> 1xHDR", "...: link up
 * (4xHDR)", "leaf05: new") per difference between two classified models,
 * each given to @out (its non-zero return stops); a port with a label has
 * it after its number ("leaf01 port 3 (1/2/1) (gpu003 mlx5_0)"); returns
 * the number of changes, or -1 when @out stopped. */
typedef int (*fst_change_f)(const char *line, void *arg);
int fst_model_changes(const struct fst_model *old, const struct fst_model *cur, fst_change_f out,
		      void *arg);

/* ------------------------------------------------------------ hostlists */
/* Expand "n[001-003,7],gpu1" into names; *names and each string caller frees
 * (fst_strv_free).  Compress: sorted Slurm hostlist expression, caller frees. */
int fst_hostlist_expand(const char *expr, char ***names, int *n, char *err, size_t errlen);
/* The same, refusing (before expanding anything) an expression that names
 * more than @max hosts (at most 1,000,000 whatever @max). */
int fst_hostlist_expand_max(const char *expr, int max, char ***names, int *n, char *err,
			    size_t errlen);
/* Names one line of a RackMap may list: the unicast LIDs of a subnet. */
#define FST_RACK_NAMES_MAX 49151
char *fst_hostlist_compress(char *const *names, int n);
void fst_strv_free(char **v, int n);

/* ------------------------------------------------------------ exporters */
struct fst_export_opts {
	int plane;	       /* tree: -1 = all planes (nodes in their primary plane) */
	int block_by_pod;      /* block: one block per pod instead of per rack */
	int no_link_speed;     /* tree: omit LinkSpeed= */
	const char *root_name; /* virtual root when no switch spans all (default "fabric") */
};
int fst_export_tree(const struct fst_model *m, FILE *out, const struct fst_export_opts *o,
		    char *err, size_t errlen);
int fst_export_block(const struct fst_model *m, FILE *out, const struct fst_export_opts *o,
		     char *err, size_t errlen);
int fst_export_yaml(const struct fst_model *m, FILE *out, const struct fst_export_opts *o,
		    char *err, size_t errlen);
/* Human-readable report: summary, non-compute HCAs, degraded links, issues.
 * Returns the number of FST_PROBLEM issues (>= 0) or -1. */
int fst_report(const struct fst_model *m, FILE *out, int verbose);
/* Compare with an existing topology.conf (tree).  *ndiff receives the number
 * of differences; a description goes to out. */
int fst_diff_tree(const struct fst_model *m, const char *topology_conf, FILE *out, int *ndiff,
		  char *err, size_t errlen);

/* ------------------------------------------------------------ JSON model */
int fst_json_write(const struct fst_model *m, FILE *out, char *err, size_t errlen);
char *fst_json_string(const struct fst_model *m, char *err, size_t errlen); /* caller frees */
/* Reads a model written by fst_json_write(); the result is classified. */
int fst_json_read_file(struct fst_model **out, const char *path, char *err, size_t errlen);
int fst_json_read_buf(struct fst_model **out, const char *buf, size_t len, const char *name,
		      char *err, size_t errlen);

/* ------------------------------------------------------------ Slurm tree
 * The switch tree Slurm's topology/tree model wants, as plain records: the
 * one tree behind fst_export_tree() (topology.conf) and the topology/fabric
 * plugin, so that both always agree.
 *
 * Rules (those of fst_export_tree): each node appears once, under its
 * primary leaf in its primary plane; a switch has either nodes (level 0) or
 * child switches one level down; switches without nodes below them are left
 * out; when no switch spans every node, a virtual root (named after
 * fst_export_opts.root_name, default "fabric") is added above the tops.
 */
struct fst_slurm_switch {
	char *name;	 /* switch name, or the virtual root's */
	int level;	 /* 0 leaf; else 1 + highest level of its children */
	long link_speed; /* Mb/s of most links to its children (or nodes);
				   0 when unknown or with no_link_speed */
	char **nodes;	 /* leaves: names of its nodes, natural order */
	int nnodes;
	char *nodelist; /* leaves: the nodes as a compressed Slurm hostlist;
				   NULL above the leaves */
	int *children;	/* indices in fst_slurm_tree.sw of its direct child
				   switches, ascending */
	int nchildren;
	char *childlist; /* their names as a compressed hostlist; NULL for leaves */
	int parent;	 /* primary parent (the one with the lowest name in
				   natural order), -1 for the top */
	int nparents;	 /* number of parents in the tree (0 for the top) */
	int dev;	 /* device index in the model, -1 for the virtual root */
};

struct fst_slurm_tree {
	struct fst_slurm_switch *sw; /* level ascending, then model order;
					   the virtual root last */
	int nsw;
	int max_level;		    /* highest level, -1 when the tree is empty */
	int virtual_root;	    /* index of the virtual root in sw, -1 when none */
	int nnodes;		    /* nodes in the tree (over all leaves) */
	struct fst_tree_priv *priv; /* library-internal (node index) */
};

/*
 * What Slurm's switch table needs beyond the records of a tree: per switch
 * its descendant switches (each once) and the hops to every switch over
 * the tree's links, up and down (FST_HOPS_NONE: not connected).  Built by
 * fst_switch_graph_build (0, or -1 out of memory), freed by
 * fst_switch_graph_free.
 */
#define FST_HOPS_NONE UINT32_MAX

struct fst_switch_graph {
	int n;		 /* switches, as in the tree */
	int **desc;	 /* [n][ndesc[i]] indices in the tree */
	int *ndesc;	 /* [n] */
	uint32_t **dist; /* [n][n] hops */
};

struct fst_slurm_tree;
int fst_switch_graph_build(const struct fst_slurm_tree *t, struct fst_switch_graph **out);
void fst_switch_graph_free(struct fst_switch_graph *g); /* NULL is fine */

/* Optional filter of fst_slurm_tree_build(): a node is kept when it returns
 * non-zero.  Dropped nodes are as if absent from the fabric (leaves left
 * without nodes disappear, and so do switches left without leaves). */
typedef int (*fst_node_filter)(const char *node, void *arg);

/* Build the tree of a classified model.  o may be NULL (all planes, link
 * speeds, root "fabric"); keep may be NULL (every node).  On success *out
 * is a new tree, which the caller frees with fst_slurm_tree_free(); it
 * holds copies of every string and does not refer to the model. */
int fst_slurm_tree_build(const struct fst_model *m, const struct fst_export_opts *o,
			 fst_node_filter keep, void *arg, struct fst_slurm_tree **out, char *err,
			 size_t errlen);
void fst_slurm_tree_free(struct fst_slurm_tree *t); /* NULL is fine */
/* Index in t->sw of a switch by name, or of the leaf holding a node; -1 none. */
int fst_slurm_tree_find_switch(const struct fst_slurm_tree *t, const char *name);
int fst_slurm_tree_node_leaf(const struct fst_slurm_tree *t, const char *node);
/* Switches from the top down to switch sw along primary parents: fills up
 * to max indices into path (top first, sw last) and returns how many there
 * are (which may exceed max), or -1 when sw is out of range. */
int fst_slurm_tree_path(const struct fst_slurm_tree *t, int sw, int *path, int max);
/* Address of a node, in the form of Slurm's SLURM_TOPOLOGY_ADDR: one
 * component per level from t->max_level down to 0 (the switch of the
 * node's primary path at that level, empty when the path skips a level),
 * then the node: "spine01.leaf02.n005" with pattern "switch.switch.node".
 * *addr and *pattern are new strings the caller frees with free().
 * Returns -1 (and sets nothing) when the node is not in the tree. */
int fst_slurm_tree_node_addr(const struct fst_slurm_tree *t, const char *node, char **addr,
			     char **pattern, char *err, size_t errlen);
/* Fabric order of a node: fst_host.rank of that host (0..nhosts-1, by plane,
 * pod, rack, name) in a classified model; -1 when the node is not a host. */
int fst_host_rank(const struct fst_model *m, const char *node);
/* The scheduler's node ranks in fabric order: names[i] (n of them, NULL
 * entries allowed) gets rank[i] = its fst_host_rank, a node not in the
 * model m->nhosts + i (after them, in the scheduler's order).  RET how
 * many nodes are in the model; 0 leaves rank untouched. */
int fst_rank_nodes(const struct fst_model *m, const char *const *names, int n, uint32_t *rank);

/* One switch as `scontrol show topology` prints it. */
struct fst_switch_line {
	const char *name;
	unsigned level, link_speed;
	const char *nodes;    /* leaves: ranged node list; else NULL */
	const char *switches; /* others: ranged child list; else NULL */
};
/* The lines "SwitchName=.. Level=.. LinkSpeed=.. Nodes=|Switches=..", one
 * per switch: all, or only the one named @unit, or the leaves holding
 * every node of the hostlist @nodes (NULL or "": no filter).  RET the
 * text (malloc'ed), NULL when no switch matched. */
char *fst_switch_lines(const struct fst_switch_line *sw, size_t n, const char *unit,
		       const char *nodes);

#ifdef __cplusplus
}
#endif
#endif

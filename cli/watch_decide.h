/*
 * watch_decide.h — what `fabsched topo watch` decides each cycle, apart
 * from how it reads the fabric and talks to Slurm: which HCA belongs to
 * which node (bindings), which nodes to drain or resume, which place
 * features to publish.  fw_decide is a pure function of the previous and
 * the new model, Slurm's node states and the bindings kept so far; it
 * returns a list of actions, which fw_apply carries out through a seam
 * (struct fw_seam: scontrol in the watch, a recorder in the unit tests).
 *
 * Trust.  A host's root sets its HCA's NodeDescription, and a node name
 * taken from a description can be anyone's.  So each compute HCA is bound
 * to its node by its node GUID the first time the watch sees it, and a
 * later model that contradicts a binding is reported and not acted on:
 * no drain, resume or feature change for the names involved until an
 * administrator names the HCA in the node-name map (NodeNameMap or -m),
 * whose names are the administrator's and always bind.
 *
 * Every string the fabric supplied (descriptions, switch names and ids)
 * and every string Slurm gave back (reasons, features) is made printable
 * (fs_escape) before it is put in an action: the actions' text is
 * printable ASCII, whatever the fabric holds.
 *
 * Ownership: fw_decide's outputs belong to the caller (fw_actions_free,
 * fw_bindings_clear); inputs are only read.  Functions that can fail
 * return 0 or -1 with a message (fs_err.h).
 */
#ifndef FABSCHED_WATCH_DECIDE_H
#define FABSCHED_WATCH_DECIDE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fabsched_topo.h"

/* Every drain reason of the watch starts so; a node drained with such a
 * reason is the watch's to resume. */
#define FW_REASON_PREFIX "fabsched: "

/* One Slurm node as the watch read it (fw_sinfo_parse). */
struct fw_node {
	char *name, *state, *reason, *features;
	int features_cut; /* the list filled sinfo's field: maybe cut, never rewritten */
};

/* An HCA bound to its node: its node GUID, the node's name, and the node
 * GUID of the switch its first linked port reached (0: unknown), which
 * tells the HCA's plane when the HCA itself is gone. */
struct fw_binding {
	uint64_t guid;
	uint64_t leaf;
	char name[FST_NAME_MAX + 1];
};

struct fw_bindings {
	struct fw_binding *v; /* sorted by guid after fw_decide */
	int n, cap;
};

/* Text about one node: its link errors this cycle. */
struct fw_note {
	const char *node;
	const char *text;
};

struct fw_input {
	const struct fst_model *old; /* the model in place; NULL: none */
	const struct fst_model *cur; /* the fabric now, classified */
	const struct fw_node *nodes; /* Slurm's nodes; NULL: nothing asked of
					   Slurm (--no-drain, or sinfo failed) */
	int nnodes;
	const struct fw_bindings *bound; /* kept from earlier cycles; NULL: none
						   kept yet, bound from @old */
	const uint64_t *mapped;		 /* GUIDs the node-name map names, sorted */
	int nmapped;
	int on_degraded;	      /* DrainOnDegradedLink */
	const struct fw_note *errors; /* link errors this cycle, per node */
	int nerrors;
};

enum fw_kind {
	FW_LOG = 0, /* a line for the log only */
	FW_DRAIN,   /* drain @node with reason @arg */
	FW_RESUME,  /* resume @node */
	FW_FEATURES /* set @node's available and active features to @arg */
};

struct fw_action {
	enum fw_kind kind;
	char *node;   /* NULL for FW_LOG */
	char *arg;    /* FW_DRAIN: the reason; FW_FEATURES: the list */
	char *done;   /* logged once carried out (FW_LOG: the line) */
	char *failed; /* logged when Slurm refused */
};

struct fw_actions {
	struct fw_action *v;
	int n, cap;
};

/*
 * The cycle's decision.  Bindings: @next gets the bindings to keep (those
 * of @in->bound, or of @in->old when none were kept; plus the HCAs seen
 * for the first time and those the node-name map names).  A compute HCA
 * of @in->cur whose GUID is bound to another name, or that is not bound
 * and claims a name that has bound HCAs (unless it is on a plane that was
 * not in @in->old and where that name has no bound HCA: a plane seen
 * late), is reported in a FW_LOG line and holds both names.  Then, for
 * the nodes of @in->nodes not held (when @in->nodes): drain those of
 * @in->old gone from @in->cur (every rail down) and, with on_degraded,
 * those with a degraded link or link errors; resume those drained with
 * FW_REASON_PREFIX whose rails are all up and healthy; leave every other
 * drained or down node alone; and keep each node's rack_, pod_ and plane_
 * features true.  @out is appended to.  -1 only when out of memory.
 */
int fw_decide(const struct fw_input *in, struct fw_bindings *next, struct fw_actions *out,
	      char *err, size_t errlen);

/* The seam through which actions reach Slurm and the log; each Slurm
 * call returns 0 when Slurm took it. */
struct fw_seam {
	int (*drain)(void *arg, const char *node, const char *reason);
	int (*resume)(void *arg, const char *node);
	int (*features)(void *arg, const char *node, const char *features);
	void (*log)(void *arg, const char *line);
	void *arg;
};

/* Carry out @a in order, logging each action's done or failed line;
 * returns how many Slurm refused. */
int fw_apply(const struct fw_actions *a, const struct fw_seam *s);
void fw_actions_free(struct fw_actions *a);

/* A switch's name, else its id; an HCA's device name ("mlx5_0" of "n011
 * mlx5_0"), else its id: text from the fabric, to be made printable. */
const char *fw_dev_name(const struct fst_model *m, int d);
const char *fw_hca_name(const struct fst_device *d);

/* @s made printable into @dst (n > 4 * 64): each byte outside printable
 * ASCII as \xHH (fs_escape, a piece of 64 bytes at a time, so that a long
 * line is not cut after 64); what does not fit is left out, at a piece's
 * end.  Returns dst. */
char *fw_printable(char *dst, size_t n, const char *s);

/* ------------------------------------------------------------ formats (watch_formats.c) */

/*
 * Slurm's nodes, read so that no text a node carries can pass for another
 * node: `sinfo -h -N -o FW_SINFO_FORMAT` prints every field at its fixed
 * width (padded with spaces, longer text cut: sinfo's _print_str, the same
 * in 22.05, 24.11, 25.11 and 26.05), so every record is FW_SINFO_RECORD
 * bytes whatever a reason or a feature list holds (a newline, '|', another
 * node's line) and records are cut by count, never at a newline.  Names
 * and states cannot hold blanks; a name that fills its field is longer
 * than a fabric name can be and its record is skipped.
 */
#define FW_SINFO_NAME 65
#define FW_SINFO_STATE 32
#define FW_SINFO_FEATURES 512
#define FW_SINFO_REASON 96
#define FW_STR_(x) #x
#define FW_STR(x) FW_STR_(x)
#define FW_SINFO_FORMAT                                                    \
	"%" FW_STR(FW_SINFO_NAME) "N%" FW_STR(FW_SINFO_STATE) "T%" FW_STR( \
		FW_SINFO_FEATURES) "f%" FW_STR(FW_SINFO_REASON) "E"
#define FW_SINFO_RECORD (FW_SINFO_NAME + FW_SINFO_STATE + FW_SINFO_FEATURES + FW_SINFO_REASON + 1)

/* sinfo's output (@len bytes) into *out (*n nodes, each once, in sinfo's
 * order; caller frees with fw_nodes_free); -1 when it is not whole
 * records of that form. */
int fw_sinfo_parse(const char *text, size_t len, struct fw_node **out, int *n, char *err,
		   size_t errlen);
void fw_nodes_free(struct fw_node *v, int n);

/*
 * The bindings file (<model>.bindings), a header then one binding a line:
 * "0x<HCA node GUID> <node> 0x<switch node GUID>".  read: -1 with
 * "<path>:<line>: ...; expected ..." (the bindings read so far dropped).
 */
int fw_bindings_read(struct fw_bindings *b, FILE *f, const char *path, char *err, size_t errlen);
int fw_bindings_write(const struct fw_bindings *b, FILE *f);
int fw_bindings_equal(const struct fw_bindings *a, const struct fw_bindings *b);
void fw_bindings_clear(struct fw_bindings *b);

/* The node GUIDs a node-name map names (its lines "0x<guid> \"desc\"" or
 * "H-<guid> host"), sorted, into *out (caller frees); -1 with a message
 * when the file cannot be read.  Lines the map reader of topology/
 * refuses make the classification fail first; a line skipped here only
 * leaves an HCA untrusted. */
int fw_map_guids(const char *path, uint64_t **out, int *n, char *err, size_t errlen);

#endif

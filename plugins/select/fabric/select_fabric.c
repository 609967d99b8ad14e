/*
 * select/cons_tres_fabric - fabric-aware node selection for Slurm 22.05.
 *
 * Slurm glue only.  The plugin wraps select/cons_tres: every select_p_*
 * entry point of the 22.05 select API (slurm_select_ops_t in
 * src/common/select.h) is forwarded to select_cons_tres.so, which this
 * plugin opens itself from PluginDir.  select_p_job_test() narrows the
 * candidate nodes to the locality domain the placement engine (select/)
 * chooses before cons_tres picks among them: see fabric_hook.c.
 *
 * Why dlopen() and not a link-time dependency: if select_cons_tres.so were a
 * DT_NEEDED dependency of this object, its own references to plugin_id and
 * plugin_type would bind to the definitions below (symbol interposition),
 * cons_tres would stop recognising itself and slurmctld would crash.  Opened
 * with RTLD_LOCAL it keeps its own symbols.  RTLD_LAZY because cons_tres
 * refers to symbols that only slurmctld defines, yet slurmd, slurmstepd and
 * the commands load select plugins too.
 *
 * Cost outside slurmctld: every Slurm command (squeue, sinfo, srun,
 * scontrol, ...) loads all select plugins found in PluginDir, this one
 * included, and unpacks job and node records tagged with its plugin_id.  So
 * init() does nothing there and cons_tres is opened on the first forwarded
 * call only (it is usually mapped already, since Slurm loads it as well).
 * In slurmctld, when this plugin is the configured SelectType, cons_tres is
 * opened by init() so that a missing or mismatched cons_tres stops the
 * daemon at start-up instead of at the first job.
 *
 * cons_tres's own init() and fini() are called once per open/close by this
 * plugin; Slurm may call them too when it loads select_cons_tres.so for
 * itself.  Both are idempotent in 22.05 (they set flags, and free and clear
 * their tables).
 */

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "slurm/slurm_version.h"

#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "src/common/select.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "fabric_hook.h"
#include "fs_slurmconf.h"
#include "select_backend.h"

/*
 * plugin_type is also the SelectType= value and, '/' turned into '_', the
 * file name: select_cons_tres_fabric.so.  It must contain "cons_tres":
 * slurmctld and slurmd enable MaxNodeCount, dynamic nodes (scontrol
 * create/delete node, slurmd -Z) and per-node GRES counts only when
 * strstr(SelectType, "cons_tres") matches.  See select_fabric.8.
 *
 * plugin_id tags every packed select job/node record and the job and step
 * state files, and is registered with slurmdbd (a SMALLINT UNSIGNED column).
 * It must differ from every other select plugin in PluginDir (Slurm uses
 * 101-110) and be >= 100; 4011 is 0xFAB.
 */
#define FABRIC_SELECT_PLUGIN_ID 4011

const char plugin_name[] = "Fabric-aware node selection (wraps select/cons_tres)";
const char plugin_type[] = "select/cons_tres_fabric";
const uint32_t plugin_id = FABRIC_SELECT_PLUGIN_ID;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

#define BACKEND_TYPE "select/cons_tres"
#define BACKEND_FILE "select_cons_tres.so"

/* Slurm compares major.minor.micro of non-SPANK plugins (plugin.c). */
#define RELEASE_MASK 0xffffff

enum backend_state {
	BACKEND_CLOSED = 0, /* not tried yet, or closed by fini() */
	BACKEND_READY,	    /* ops filled, cons_tres initialised */
	BACKEND_FAILED,	    /* tried and failed: do not retry, error logged */
};

static struct {
	pthread_mutex_t lock;
	int state;    /* enum backend_state, read atomically */
	void *handle; /* dlopen() handle of cons_tres */
	char *path;   /* xmalloc'd path of that file */
} backend = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.state = BACKEND_CLOSED,
};

/* slurm_select_ops_t is plugin_id followed by one pointer per entry point,
 * in the order of node_select_syms[] (libslurmfull). */
slurm_select_ops_t fabric_be; /* its entry points (select_backend.h) */
void *fabric_be_parts;	      /* its tables (select_backend.h) */
void *fabric_be_usage;

#define BACKEND_SYM_CNT (sizeof(slurm_select_ops_t) / sizeof(void *))
_Static_assert(sizeof(slurm_select_ops_t) % sizeof(void *) == 0,
	       "slurm_select_ops_t is expected to hold pointers only");

/* fabric_be and cons_tres's tables forgotten */
static void _be_clear(void)
{
	memset(&fabric_be, 0, sizeof(fabric_be));
	fabric_be_parts = fabric_be_usage = NULL;
}

/*
 * Check that @handle (opened from @path) is the cons_tres of this very
 * release, fill fabric_be from it and run its init().
 * RET SLURM_SUCCESS, or SLURM_ERROR with the reason logged.
 */
static int _backend_bind(void *handle, const char *path)
{
	const char *type = dlsym(handle, "plugin_type");
	const uint32_t *version = dlsym(handle, "plugin_version");
	const uint32_t *id;
	void **ptrs = (void **)&fabric_be;
	int (*backend_init)(void);

	if (!type || xstrcmp(type, BACKEND_TYPE)) {
		error("%s: %s is not %s (plugin_type %s)", plugin_type, path, BACKEND_TYPE,
		      type ? type : "missing");
		return SLURM_ERROR;
	}
	if (!version || ((*version & RELEASE_MASK) != (SLURM_VERSION_NUMBER & RELEASE_MASK))) {
		error("%s: %s was built for another Slurm release (0x%x, this plugin: 0x%x)",
		      plugin_type, path, version ? *version : 0, SLURM_VERSION_NUMBER);
		return SLURM_ERROR;
	}

	for (size_t i = 0; i < BACKEND_SYM_CNT; i++) {
		if (!(ptrs[i] = dlsym(handle, node_select_syms[i]))) {
			error("%s: %s lacks %s", plugin_type, path, node_select_syms[i]);
			_be_clear();
			return SLURM_ERROR;
		}
	}
	if (!(fabric_be_parts = dlsym(handle, "select_part_record")) ||
	    !(fabric_be_usage = dlsym(handle, "select_node_usage"))) {
		error("%s: %s lacks %s", plugin_type, path,
		      fabric_be_parts ? "select_node_usage" : "select_part_record");
		_be_clear();
		return SLURM_ERROR;
	}
	id = fabric_be.plugin_id;
	if (*id != SELECT_PLUGIN_CONS_TRES) {
		error("%s: %s has plugin_id %u, expected %u", plugin_type, path, *id,
		      (unsigned)SELECT_PLUGIN_CONS_TRES);
		_be_clear();
		return SLURM_ERROR;
	}

	if ((backend_init = dlsym(handle, "init")) && backend_init()) {
		error("%s: init() of %s failed", plugin_type, path);
		_be_clear();
		return SLURM_ERROR;
	}
	return SLURM_SUCCESS;
}

/* One candidate file of cons_tres: opened and bound, or refused (logged). */
static int _backend_try(const char *path, void *arg)
{
	void *handle = dlopen(path, RTLD_LAZY | RTLD_LOCAL);

	if (!handle) {
		error("%s: dlopen(%s): %s", plugin_type, path, dlerror());
		return -1;
	}
	if (_backend_bind(handle, path) != SLURM_SUCCESS) {
		dlclose(handle);
		return -1;
	}
	backend.handle = handle;
	backend.path = xstrdup(path);
	return 0;
}

/*
 * Open cons_tres from the first directory of PluginDir holding a usable
 * select_cons_tres.so, as Slurm itself would.  Caller holds backend.lock.
 */
static int _backend_open(void)
{
	if (fs_plugin_dir_each(slurm_conf.plugindir, BACKEND_FILE, _backend_try, NULL)) {
		error("%s: no usable %s in PluginDir %s", plugin_type, BACKEND_FILE,
		      slurm_conf.plugindir ? slurm_conf.plugindir : "(not set)");
		return SLURM_ERROR;
	}
	if (running_in_slurmctld())
		verbose("%s: forwarding to %s", plugin_type, backend.path);
	else
		debug2("%s: forwarding to %s", plugin_type, backend.path);
	return SLURM_SUCCESS;
}

bool fabric_backend_ready(void)
{
	int state = __atomic_load_n(&backend.state, __ATOMIC_ACQUIRE);

	if (state == BACKEND_READY)
		return true;
	if (state == BACKEND_FAILED)
		return false;

	slurm_mutex_lock(&backend.lock);
	if (backend.state == BACKEND_CLOSED) {
		state = (_backend_open() == SLURM_SUCCESS) ? BACKEND_READY : BACKEND_FAILED;
		__atomic_store_n(&backend.state, state, __ATOMIC_RELEASE);
	}
	state = backend.state;
	slurm_mutex_unlock(&backend.lock);

	return state == BACKEND_READY;
}

extern int init(void)
{
	/*
	 * Only the controller that runs this plugin as its SelectType pays
	 * for opening cons_tres now; everywhere else it is opened on first
	 * use (most commands never forward anything but record unpacking).
	 */
	if (running_in_slurmctld() && !xstrcmp(slurm_conf.select_type, plugin_type) &&
	    !fabric_backend_ready())
		return SLURM_ERROR;

	return SLURM_SUCCESS;
}

extern int fini(void)
{
	int (*backend_fini)(void);
	int rc = SLURM_SUCCESS;

	fabric_fini();
	slurm_mutex_lock(&backend.lock);
	if (backend.state == BACKEND_READY) {
		if ((backend_fini = dlsym(backend.handle, "fini")))
			rc = backend_fini();
		dlclose(backend.handle);
	}
	backend.handle = NULL;
	xfree(backend.path);
	_be_clear();
	__atomic_store_n(&backend.state, BACKEND_CLOSED, __ATOMIC_RELEASE);
	slurm_mutex_unlock(&backend.lock);

	return rc;
}

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap, uint32_t min_nodes,
			     uint32_t max_nodes, uint32_t req_nodes, uint16_t mode,
			     List preemptee_candidates, List *preemptee_job_list,
			     bitstr_t *exc_core_bitmap)
{
	if (!fabric_backend_ready())
		return EINVAL;

	/* @bitmap holds the nodes slurmctld lets this job use; the hook
	 * narrows it to a locality domain and calls cons_tres. */
	return fabric_job_test(&fabric_be, job_ptr, bitmap, min_nodes, max_nodes, req_nodes, mode,
			       preemptee_candidates, preemptee_job_list, exc_core_bitmap);
}

extern int select_p_reconfigure(void)
{
	fabric_reconfigure();
	if (!fabric_backend_ready())
		return SLURM_ERROR;
	return fabric_be.reconfigure();
}

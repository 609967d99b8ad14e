/* fs_plugin_conf.c — fabsched.conf for the Slurm plugins (see the header). */
#include <stdlib.h>
#include <unistd.h>

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"

#include "fs_plugin_conf.h"

const char **fs_plugin_node_names(void)
{
	const char **names = xcalloc(node_record_count + 1, sizeof(*names));

	for (int i = 0; i < node_record_count; i++)
		names[i] = node_record_table_ptr[i] ? node_record_table_ptr[i]->name : NULL;
	return names;
}

struct fs_conf *fabsched_plugin_conf_load(const char *who)
{
	struct fs_errors *errs = fs_errors_new();
	struct fs_conf *conf = NULL;
	const char *env = getenv(FS_CONF_ENV);
	char *path = NULL;

	if (!errs) {
		error("%s: out of memory", who);
		return NULL;
	}
	if (!env || !*env) {
		path = get_extra_conf_path("fabsched.conf");
		if (path && access(path, F_OK) != 0) {
			debug("%s: no %s: %m, using %s", who, path, fs_conf_default_path());
			xfree(path);
		}
	}
	if (fs_conf_load(path, &conf, errs) != 0) {
		size_t n = fs_errors_count(errs);

		for (size_t i = 0; i < n; i++)
			error("%s: %s", who, fs_errors_get(errs, i));
		if (!n)
			error("%s: cannot read fabsched.conf", who);
		conf = NULL;
	} else {
		debug("%s: configuration from %s%s", who, fs_conf_source(conf),
		      fs_conf_is_builtin(conf) ? " (missing: built-in defaults)" : "");
	}
	xfree(path);
	fs_errors_free(errs);
	return conf;
}

# plugins/job_submit/: job_submit/fabsched (every supported release): --scratch charged
# to the scratch pool as licenses, hugepage requests checked against the
# partitions' nodes (logic in common/fs_jobreq.c).
EXTRA_DIST += plugins/job_submit/fabsched/job_submit_fabsched.map

if BUILD_SLURM_PLUGINS
slurmplugin_LTLIBRARIES += plugins/job_submit/fabsched/job_submit_fabsched.la
plugins_job_submit_fabsched_job_submit_fabsched_la_SOURCES = \
	plugins/job_submit/fabsched/job_submit_fabsched.c
plugins_job_submit_fabsched_job_submit_fabsched_la_CPPFLAGS = $(PLUGIN_CPPFLAGS)
plugins_job_submit_fabsched_job_submit_fabsched_la_LDFLAGS = $(PLUGIN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/plugins/job_submit/fabsched/job_submit_fabsched.map
plugins_job_submit_fabsched_job_submit_fabsched_la_LIBADD = \
	libfabsched_common.la $(SLURM_LIBADD)
EXTRA_plugins_job_submit_fabsched_job_submit_fabsched_la_DEPENDENCIES = \
	plugins/job_submit/fabsched/job_submit_fabsched.map
endif

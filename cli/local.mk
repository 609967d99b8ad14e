# cli/: the fabsched command.  Subcommands live in cli/cmd_<name>.c and are
# listed in cli/fabsched.c's table.
bin_PROGRAMS += cli/fabsched
cli_fabsched_SOURCES = cli/fabsched.c cli/fabsched_cli.h cli/cmd_topo.c cli/cmd_config.c
cli_fabsched_SOURCES += cli/topo_args.h cli/watch.c cli/watch_decide.c cli/watch_decide.h cli/watch_formats.c
cli_fabsched_SOURCES += cli/cmd_sim.c cli/cmd_metrics.c cli/cmd_job.c cli/job_record.c cli/cmd_show.c
cli_fabsched_SOURCES += cli/cli_slurm.c cli/opts.c cli/opts.h common/sanitizer_defaults.c
cli_fabsched_SOURCES += cli/observe_log.c cli/cmd_report.c cli/report_html.c cli/report.h
cli_fabsched_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/topology -I$(top_srcdir)/cli
cli_fabsched_CPPFLAGS += -I$(top_srcdir)/sim -I$(top_srcdir)/select -I$(top_srcdir)/gres $(JSONC_CFLAGS)
cli_fabsched_LDADD = topology/libfabsched_topology.la gres/libfabsched_gres_task.la libfabsched_common.la
cli_fabsched_LDADD += $(SIM_LIBS) $(JSONC_LIBS)
dist_man_MANS += doc/fabsched.1

TESTS += tests/unit/test_cli_config.sh tests/unit/test_cli_topo_hosts.sh
EXTRA_DIST += tests/unit/test_cli_config.sh tests/unit/test_cli_topo_hosts.sh
# discover, export and check fail loudly: no compute node, a plane not there
TESTS += tests/unit/test_cli_loud.sh
EXTRA_DIST += tests/unit/test_cli_loud.sh
# the observation log of Locality=observe: report (text, JSON, HTML),
# metrics and their errors, from a made-up log
TESTS += tests/unit/test_cli_report.sh
EXTRA_DIST += tests/unit/test_cli_report.sh
# the watch end to end, sinfo and scontrol replaced by scripts
TESTS += tests/unit/test_watch_cli.sh
EXTRA_DIST += tests/unit/test_watch_cli.sh

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_job_record
TESTS += tests/unit/test_job_record
tests_unit_test_job_record_SOURCES = tests/unit/test_job_record.c cli/job_record.c
tests_unit_test_job_record_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/cli -I$(top_srcdir)/gres \
	$(JSONC_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_job_record_LDADD = gres/libfabsched_gres_task.la libfabsched_common.la \
	$(JSONC_LIBS) $(CMOCKA_LIBS)

# the watch's decision (bindings, drains, resumes, features) without Slurm
check_PROGRAMS += tests/unit/test_watch
TESTS += tests/unit/test_watch
tests_unit_test_watch_SOURCES = tests/unit/test_watch.c cli/watch_decide.c cli/watch_formats.c \
	cli/watch_decide.h
tests_unit_test_watch_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/cli -I$(top_srcdir)/topology \
	$(CMOCKA_CFLAGS)
tests_unit_test_watch_LDADD = topology/libfabsched_topology.la libfabsched_common.la \
	$(JSONC_LIBS) $(CMOCKA_LIBS)
endif
# the option tables, --help and fabsched(1) agree; old spellings warn
TESTS += tests/unit/test_cli_options.sh
EXTRA_DIST += tests/unit/test_cli_options.sh tests/unit/test_cli_options.py
# bash completion: asks the command for its options (fabsched help --options)
bashcompdir = $(datadir)/bash-completion/completions
dist_bashcomp_DATA = completion/fabsched
TESTS += tests/unit/test_completion.sh
EXTRA_DIST += tests/unit/test_completion.sh

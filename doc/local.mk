# Man pages: the CLI, the configuration file, one per plugin.
dist_man_MANS += \
	doc/fabsched.conf.5 \
	doc/topology_fabric.8 \
	doc/select_fabric.8 \
	doc/gres_rdma.8 \
	doc/gres_hugepages.8 \
	doc/fabsched_spank.8 \
	doc/job_submit_fabsched.8

/*
 * craft_submit.c - a batch job submitted through libslurm the way a user's
 * own program could, with entries of its choosing in the job's SPANK
 * environment (what the prolog and epilog see with the SPANK_ prefix):
 * fabsched's job-control variables crafted without its options.  Built by
 * t-faults.sh against the release under test; run as the test user.
 *
 * Usage: craft_submit NODE TRES OUTPUT SCRIPT [NAME=VALUE...]
 * Prints the job id.  CRAFT_NO_REQUEUE=1 in the environment: a job that
 * may not be requeued (sbatch --no-requeue).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
#include <slurm/slurm_version.h>

int main(int argc, char **argv)
{
	job_desc_msg_t d;
	submit_response_msg_t *r = NULL;
	char cwd[4096], *env[] = { "PATH=/usr/bin:/bin", NULL };

	if (argc < 5) {
		fprintf(stderr, "usage: %s NODE TRES OUTPUT SCRIPT [NAME=VALUE...]\n", argv[0]);
		return 2;
	}
	if (!getcwd(cwd, sizeof(cwd)))
		return 2;
	slurm_init(NULL);
	slurm_init_job_desc_msg(&d);
	d.name = "crafted";
	d.req_nodes = argv[1];
	d.min_nodes = 1;
	d.time_limit = 5;
	d.tres_per_node = argv[2][0] ? argv[2] : NULL;
	d.std_out = argv[3];
	d.script = argv[4];
	d.work_dir = cwd;
	d.user_id = getuid();
	d.group_id = getgid();
	d.environment = env;
	d.env_size = 1;
	if (getenv("CRAFT_NO_REQUEUE"))
		d.requeue = 0;
	d.spank_job_env = argc > 5 ? argv + 5 : NULL;
	d.spank_job_env_size = argc > 5 ? (uint32_t)(argc - 5) : 0;
	if (slurm_submit_batch_job(&d, &r) || !r) {
		fprintf(stderr, "craft_submit: %s\n", slurm_strerror(errno));
		return 1;
	}
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 11, 0) /* the id in a step id */
	printf("%u\n", r->step_id.job_id);
#else
	printf("%u\n", r->job_id);
#endif
	slurm_free_submit_response_response_msg(r);
	return 0;
}

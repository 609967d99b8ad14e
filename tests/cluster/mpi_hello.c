/*
 * mpi_hello - smallest useful MPI job for the fabsched test cluster.
 *
 * Every rank prints one line
 *   rank=R size=S node=<hostname> slurm_nodeid=<SLURM_NODEID>
 *   topo_addr=<SLURM_TOPOLOGY_ADDR> fabsched=<FABSCHED_VERSION>
 * (on one line; a missing variable prints as "-"), then all ranks take part in
 * an MPI_Allreduce of their ranks and rank 0 checks the sum against
 * size*(size-1)/2 and prints "allreduce=ok" (or "allreduce=bad got=X want=Y"
 * and exits 1).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *env_or_dash(const char *name)
{
	const char *v = getenv(name);

	return (v && *v) ? v : "-";
}

int main(int argc, char **argv)
{
	char host[256];
	int rank, size;
	long mine, sum = 0, want;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "-");
	host[sizeof(host) - 1] = '\0';

	printf("rank=%d size=%d node=%s slurm_nodeid=%s topo_addr=%s fabsched=%s\n", rank, size,
	       host, env_or_dash("SLURM_NODEID"), env_or_dash("SLURM_TOPOLOGY_ADDR"),
	       env_or_dash("FABSCHED_VERSION"));
	fflush(stdout);

	mine = rank;
	MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
	want = (long)size * (size - 1) / 2;

	if (rank == 0) {
		if (sum == want)
			printf("allreduce=ok\n");
		else
			printf("allreduce=bad got=%ld want=%ld\n", sum, want);
		fflush(stdout);
	}

	MPI_Finalize();
	return sum == want ? 0 : 1;
}

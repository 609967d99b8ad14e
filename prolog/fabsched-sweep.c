/* fabsched-sweep: see fabsched-prolog(8). */
#include "fabsched_prolog.h"

int main(int argc, char **argv)
{
	return fs_pl_main_sweep(argc, argv, NULL);
}

/* fabsched-epilog: see fabsched-prolog(8). */
#include "fabsched_prolog.h"

int main(int argc, char **argv)
{
	return fs_pl_main_epilog(argc, argv, NULL);
}

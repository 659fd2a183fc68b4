/* split: a total over N parts (see split.h). */
#include "split.h"

uint64_t
split_share(uint64_t total, unsigned n, unsigned i)
{
	if (n == 0 || i >= n)
		return 0;
	return total / n + (i < total % n ? 1 : 0);
}

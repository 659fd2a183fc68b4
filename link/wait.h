/*
 * wait: how hoplab-link waits for its next departure (wait.c): sleep,
 * then spin the last stretch, with the CPU and scheduler settings that
 * make the sleep short.
 */
#ifndef HOPLAB_LINK_WAIT_H
#define HOPLAB_LINK_WAIT_H

#include <stdint.h>

struct link;

/* CPU, scheduling and timer settings of the options; 0 or -1 (ERR). */
int	lwait_tune(struct link *l, char *err, size_t errlen);
void	lwait_untune(struct link *l);
/* How long before a departure the loop stops sleeping and spins. */
int64_t	lwait_lead(const struct link *l);
/* Sleep up to TIMEOUT ns, or until a frame or a control request. */
void	lwait_sleep(struct link *l, int64_t timeout);

#endif

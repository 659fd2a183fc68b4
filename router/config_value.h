/*
 * config_value: single values of hoplab-router's configuration, parsed
 * from their text (config_value.c): what the file's sections, the
 * command line (main.c) and the control socket (ctl.c) read alike.
 * router/config.h includes this header.
 */
#ifndef HOPLAB_ROUTER_CONFIG_VALUE_H
#define HOPLAB_ROUTER_CONFIG_VALUE_H

#include <stdint.h>

/* The netmask of a prefix of LEN bits (0..32), host order. */
static inline uint32_t
rconf_mask(unsigned len)
{
	return len == 0 ? 0 : ~0U << (32 - len);
}

/*
 * Parse "198.18.1.0/24" into host-order PREFIX and LEN; with STRICT, host
 * bits beyond LEN are an error.  Returns 0 or -1.
 */
int	rconf_parse_prefix(const char *s, int strict, uint32_t *prefix,
	    unsigned *len);
/*
 * Parse an io.busy_poll value: "adaptive", "off", "0" or a duration
 * 0..1s ("50us").  Sets *ADAPTIVE and *NS (adaptive: its ceiling).
 * Returns 0 or -1.  Shared by the file and `hoplab-router --busy-poll`.
 */
int	rconf_parse_busy(const char *s, int *adaptive, int64_t *ns);
/*
 * Parse an io.backend value: "packet" (AF_PACKET, the default) or "xdp"
 * (AF_XDP).  Returns RCONF_IO_PACKET, RCONF_IO_XDP or -1.  Shared by the
 * file and `hoplab-router --io`.
 */
int	rconf_parse_backend(const char *s);

#endif

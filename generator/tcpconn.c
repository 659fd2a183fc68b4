/*
 * tcpconn: the sockets of the tcp mode (see tcpconn.h).
 *
 * The congestion control is set with TCP_CONGESTION before connect(), so
 * the handshake already uses it; a name the kernel does not have (not
 * built, or not loaded and not loadable by an unprivileged process) fails
 * the setsockopt with ENOENT, and the error lists what
 * /proc/sys/net/ipv4/tcp_available_congestion_control offers, because
 * the plan's author cannot know the agent's kernel.
 *
 * Deliberately not here: non-blocking connects (the streams connect one
 * after another, a round trip each, before any data moves), TCP_NODELAY,
 * buffer sizes (the kernel's autotuning decides).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "tcpconn.h"

#define CC_AVAILABLE	"/proc/sys/net/ipv4/tcp_available_congestion_control"

const char *
tcpconn_addr(const struct sockaddr_in *sa, char *buf, size_t len)
{
	char a[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &sa->sin_addr, a, sizeof(a));
	snprintf(buf, len, "%s:%u", a, ntohs(sa->sin_port));
	return buf;
}

static int
tcpconn_sock(const struct tcp_config *c, char *err, size_t errlen)
{
	int fd, tos = (int)(c->dscp << 2), one = 1;

	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		snprintf(err, errlen, "TCP socket: %s", strerror(errno));
		return -1;
	}
	(void)setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos));
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	return fd;
}

/* The kernel's list of congestion controls into BUF, one line. */
static void
cc_available(char *buf, size_t len)
{
	FILE *f = fopen(CC_AVAILABLE, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (f != NULL) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
}

static int
set_cc(int fd, const char *cc, char *err, size_t errlen)
{
	char avail[256];

	if (cc[0] == '\0' || setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc,
	    (socklen_t)strlen(cc)) == 0)
		return 0;
	cc_available(avail, sizeof(avail));
	snprintf(err, errlen, "--cc %s: the kernel has no congestion control "
	    "\"%s\" (%s); %s: %s", cc, cc, strerror(errno), CC_AVAILABLE,
	    avail[0] ? avail : "(unreadable)");
	return -1;
}

int
tcpconn_connect(const struct tcp_config *c, char *err, size_t errlen)
{
	char a[64];
	int fd;

	if ((fd = tcpconn_sock(c, err, errlen)) == -1)
		return -1;
	if (set_cc(fd, c->cc, err, errlen) == -1) {
		close(fd);
		return -1;
	}
	if ((c->bind.sin_addr.s_addr != INADDR_ANY ||
	    c->bind.sin_port != 0) && bind(fd,
	    (const struct sockaddr *)&c->bind, sizeof(c->bind)) == -1) {
		snprintf(err, errlen, "--src %s: bind: %s", tcpconn_addr(
		    &c->bind, a, sizeof(a)), strerror(errno));
		close(fd);
		return -1;
	}
	if (connect(fd, (const struct sockaddr *)&c->peer,
	    sizeof(c->peer)) == -1) {
		snprintf(err, errlen, "connect to %s: %s", tcpconn_addr(
		    &c->peer, a, sizeof(a)), strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int
tcpconn_listen(const struct tcp_config *c, char *err, size_t errlen)
{
	char a[64];
	int fd;

	if ((fd = tcpconn_sock(c, err, errlen)) == -1)
		return -1;
	if (bind(fd, (const struct sockaddr *)&c->peer,
	    sizeof(c->peer)) == -1 || listen(fd, (int)c->streams) == -1) {
		snprintf(err, errlen, "--listen %s: %s", tcpconn_addr(&c->peer,
		    a, sizeof(a)), strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

void
tcpconn_cc(int fd, char *buf, size_t len)
{
	socklen_t l = (socklen_t)(len - 1);

	memset(buf, 0, len);
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, buf, &l) == -1)
		buf[0] = '\0';
}

void
tcpconn_abort(int fd)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	(void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	close(fd);
}

/*
 * greeting: read an agent's ZMTP greeting to learn its mechanism (see
 * greeting.h for why and for the wire format).
 *
 * Deliberately not here: anything past the greeting.  No handshake is
 * attempted, so nothing is authenticated and no key is needed.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "controller/mgmt/greeting.h"

#define SIG_LEN		10	/* 0xFF, 8 bytes of length, 0x7F */
#define MECH_OFF	12	/* after the signature and the version */
#define MECH_LEN	20

static int64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait until FD is ready for EVENTS or DEADLINE (ms) passes; 0 or -1. */
static int
wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	int64_t left;

	while ((left = deadline - mono_ms()) > 0) {
		int n = poll(&p, 1, (int)left);

		if (n > 0)
			return 0;
		if (n == -1 && errno != EINTR)
			return -1;
	}
	errno = ETIMEDOUT;
	return -1;
}

/* A non-blocking TCP connection to HOST:PORT, connected by DEADLINE. */
static int
connect_to(const char *host, unsigned port, int64_t deadline, char *err,
    size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_INET,
	    .ai_socktype = SOCK_STREAM }, *ai;
	char service[8];
	int fd, rc, so = 0;
	socklen_t sl = sizeof(so);

	snprintf(service, sizeof(service), "%u", port);
	if ((rc = getaddrinfo(host, service, &hints, &ai)) != 0) {
		snprintf(err, errlen, "%s: %s", host, gai_strerror(rc));
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0);
	if (fd != -1 && connect(fd, ai->ai_addr, ai->ai_addrlen) == -1 &&
	    (errno != EINPROGRESS || wait_fd(fd, POLLOUT, deadline) == -1 ||
	    getsockopt(fd, SOL_SOCKET, SO_ERROR, &so, &sl) == -1 ||
	    (errno = so) != 0)) {
		snprintf(err, errlen, "connect %s:%u: %s", host, port,
		    strerror(errno));
		close(fd);
		fd = -1;
	} else if (fd == -1)
		snprintf(err, errlen, "socket: %s", strerror(errno));
	freeaddrinfo(ai);
	return fd;
}

/* Read LEN bytes into BUF by DEADLINE; 0, or -1 with errno. */
static int
read_full(int fd, uint8_t *buf, size_t len, int64_t deadline)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		if (wait_fd(fd, POLLIN, deadline) == -1)
			return -1;
		n = read(fd, buf + got, len - got);
		if (n == 0) {
			errno = ECONNRESET;
			return -1;
		}
		if (n == -1 && errno != EINTR && errno != EAGAIN)
			return -1;
		if (n > 0)
			got += (size_t)n;
	}
	return 0;
}

int
greeting_mechanism(const char *host, unsigned port, int timeout_ms,
    char *mech, char *err, size_t errlen)
{
	/* Our signature and major version 3: enough for the peer to go on. */
	static const uint8_t ours[SIG_LEN + 1] = { 0xff, 0, 0, 0, 0, 0, 0, 0,
	    1, 0x7f, 3 };
	uint8_t g[MECH_OFF + MECH_LEN];
	int64_t deadline = mono_ms() + timeout_ms;
	int fd, rc = -1;

	if ((fd = connect_to(host, port, deadline, err, errlen)) == -1)
		return -1;
	if (write(fd, ours, sizeof(ours)) != (ssize_t)sizeof(ours) ||
	    read_full(fd, g, sizeof(g), deadline) == -1)
		snprintf(err, errlen, "no ZMTP greeting from %s:%u: %s", host,
		    port, strerror(errno));
	else if (g[0] != 0xff || g[SIG_LEN - 1] != 0x7f || g[SIG_LEN] < 3)
		snprintf(err, errlen, "%s:%u does not speak ZMTP 3", host,
		    port);
	else {
		memcpy(mech, g + MECH_OFF, MECH_LEN);
		mech[MECH_LEN] = '\0';
		rc = 0;
	}
	close(fd);
	return rc;
}

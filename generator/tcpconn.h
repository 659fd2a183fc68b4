/*
 * tcpconn: the sockets of hoplab-gen's tcp mode, one connection at a
 * time: the sender's connect (with its congestion control), the
 * receiver's listening socket.
 * The loops that drive them are tcp.c's.
 */
#ifndef HOPLAB_GEN_TCPCONN_H
#define HOPLAB_GEN_TCPCONN_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include "tcp.h"

/*
 * A connected socket to C->peer from C->bind, C->cc set before the
 * connect (a kernel without it: ERR names it and the kernel's
 * tcp_available_congestion_control).  The fd (blocking), or -1 with ERR.
 */
int	tcpconn_connect(const struct tcp_config *c, char *err, size_t errlen);
/* A socket listening on C->peer for C->streams connections, or -1. */
int	tcpconn_listen(const struct tcp_config *c, char *err, size_t errlen);
/* FD's congestion control into BUF (LEN), "" if the kernel says none. */
void	tcpconn_cc(int fd, char *buf, size_t len);
/* Reset FD's connection (SO_LINGER 0) as it is closed: a cut download. */
void	tcpconn_abort(int fd);
/* "IP:PORT" of SA into BUF. */
const char *tcpconn_addr(const struct sockaddr_in *sa, char *buf, size_t len);

#endif

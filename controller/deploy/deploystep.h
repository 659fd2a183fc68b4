/*
 * deploystep: the steps of deploying one host, for deploy.c (see the
 * design comment there): the local files and their sha256, running
 * deploy/remote.sh over ssh, copying with scp, building on the target,
 * installing, and waiting for the agent's hello.
 *
 * Every function that can fail returns 0, or -1 with one line for the
 * user in MSG (ssh's complaint, or remote.sh's "error" lines).
 */
#ifndef HOPLAB_DEPLOYSTEP_H
#define HOPLAB_DEPLOYSTEP_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>

#include "inventory.h"
#include "keys.h"
#include "controller/deploy/sshrun.h"

#define EXIT_FAIL	1
#define EXIT_USAGE	2
#define OUT_MAX		65536
#define SSH_TIMEOUT_S	120	/* probe, copy, install, undeploy */
#define BUILD_TIMEOUT_S	1800	/* make on a slow target */
#define LIBDIR		"usr/local/lib/hoplab"

enum { IT_AGENT, IT_GEN, IT_ROUTER, IT_LINK, IT_UNIT, IT_ENV, IT_KEY,
    IT_AUTH, IT_N };

struct dstep_item {
	const char	*dest;		/* relative to the prefix */
	const char	*mode;
	int		 program;	/* built by make (bin/NAME) */
};

/* What may be installed; the staged name is the basename of DEST. */
extern const struct dstep_item dstep_items[IT_N];

/* The .deb of --deb (controller/deploy/debstep.h); path "" : none. */
struct debfile {
	char		 path[PATH_MAX];	/* as the user named it */
	char		 staged[PATH_MAX];	/* TMP/hoplab.deb, a link to it */
	char		 sha[65];
	char		 version[64];
	char		 arch[32];		/* dpkg's: amd64, arm64, all */
};

struct dopts {
	const char	*inventory;
	char		 keydir[PATH_MAX];	/* "" : from the inventory */
	char		 prefix[PATH_MAX];	/* "/" or a temporary root */
	char		 home[PATH_MAX];	/* hoplab's folder */
	char		 tmp[PATH_MAX];		/* local scratch folder */
	int		 build;			/* --build-on-target */
	int		 insecure;
	int		 insecure_net;		/* --insecure-on-network */
	int		 allow_exec;		/* --allow-exec (issue 14) */
	int		 timeout_s;		/* wait for the hello */
	int		 verbose;
	struct debfile	 deb;			/* --deb FILE */
	struct sshrun_conf ssh;
	volatile sig_atomic_t *stop;
};

struct dhost {
	struct ssh_target t;
	char		name[INV_NAME_MAX];	/* agent name (-N) */
	char		address[64];		/* where the agent listens */
	unsigned	port;
	char		pubkey[KEYS_Z85_LEN + 1];	/* from the inventory */
};

/* A local file to install: where it is and its sha256 ("" : absent). */
struct local {
	char		path[PATH_MAX];
	char		sha[65];
};

struct probe {
	char		arch[32];
	long		uid;
	int		systemd, cc, make;
	char		sha[IT_N][65];
	long		agent_pid;
	char		stage[PATH_MAX];
	char		dpkg[32];	/* dpkg's architecture, "-" : no dpkg */
	char		debver[64];	/* installed hoplab package, "-" : none */
	char		debsha[65];	/* of the .deb deploy installed, or "" */
	int		copied;		/* copied programs' manifest there */
	int		debmanifest;	/* deploy --deb's manifest there */
};

struct outcome {
	int		installed;	/* files written by remote.sh install */
	int		systemd;
	char		agent[16];	/* "started", "running" */
	long		pid;
	double		hello_s;
	char		version[32];
	char		package[64];	/* the version apt-get installed, or "" */
};

/* The prefix without its trailing slash: "" for "/". */
const char *dstep_root(const struct dopts *o);
/* Programs, unit and controller.pub: the files every host gets. */
int	dstep_locals(const struct dopts *o, struct local loc[IT_N]);
/* Write O->tmp/agent.env with the agent's options for H. */
int	dstep_env(const struct dopts *o, const struct dhost *h,
	    struct local *l);
/* Copy H's key pair to O->tmp/agent.key; its public half into PUB. */
int	dstep_key(const struct dopts *o, const struct dhost *h,
	    struct local *l, char *pub, char *msg, size_t msglen);
/*
 * Run deploy/remote.sh WORDS... on H (through sudo -n when SUDO) with
 * remote.sh fed on stdin; its stdout into OUT.
 */
int	dstep_remote(const struct dopts *o, const struct dhost *h, int sudo,
	    const char *const *words, int timeout_s, char *out, size_t outlen,
	    char *msg, size_t msglen);
/* The value after "KEY " on a line of OUT, into BUF; -1 when absent. */
int	dstep_field(const char *out, const char *key, char *buf, size_t len);
int	dstep_probe(const struct dopts *o, const struct dhost *h,
	    struct probe *pr, char *msg, size_t msglen);
int	dstep_build(const struct dopts *o, const struct dhost *h,
	    const struct probe *pr, const struct local loc[IT_N], char *msg,
	    size_t msglen);
/* scp the local FILES (NULL-terminated) into the folder STAGE on H. */
int	dstep_scp(const struct dopts *o, const struct dhost *h,
	    const char **files, const char *stage, char *msg, size_t msglen);
int	dstep_copy(const struct dopts *o, const struct dhost *h,
	    const struct probe *pr, const struct local loc[IT_N], int built,
	    int *ncopied, char *msg, size_t msglen);
int	dstep_install(const struct dopts *o, const struct dhost *h,
	    const struct probe *pr, const struct local loc[IT_N],
	    struct outcome *oc, char *msg, size_t msglen);
int	dstep_hello(const struct dopts *o, const struct dhost *h,
	    const char *pub, struct outcome *oc, char *msg, size_t msglen);
/* Remove the staging folder on H after a failure (best effort). */
void	dstep_cleanup(const struct dopts *o, const struct dhost *h,
	    const struct probe *pr);

#endif

/*
 * debstep: the package's part of `hoplab deploy --deb` (see debstep.h).
 * The .deb is read with dpkg-deb here, never unpacked; the target's
 * side is deploy/remote.sh (probe_deb, install-deb, purge_deb).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "controller/deploy/debstep.h"
#include "controller/deploy/sshrun.h"
#include "log.h"

#define DPKG_DEB	"/usr/bin/dpkg-deb"
#define DEB_STAGED	"hoplab.deb"	/* its name in the stage */

int
debstep_option(struct dopts *o, const char *arg)
{
	if (realpath(arg, o->deb.path) == NULL) {
		log_error("deploy: --deb %s: %s", arg, strerror(errno));
		o->deb.path[0] = '\0';
		return -1;
	}
	return 0;
}

/* The first line of TEXT, at most 200 characters, for a message. */
static const char *
first_line(char *text)
{
	char *e;

	while (*text == '\n')
		text++;
	if ((e = strchr(text, '\n')) != NULL)
		*e = '\0';
	if (strlen(text) > 200)
		text[200] = '\0';
	return text;
}

/* sha256sum of PATH into SHA. */
static int
deb_sha(const char *path, char sha[65])
{
	char *argv[] = { "/usr/bin/sha256sum", "--", (char *)path, NULL };
	char out[256], errtext[512];

	if (sshrun_exec(argv, NULL, 60, out, sizeof(out), errtext,
	    sizeof(errtext)) != 0 || strspn(out, "0123456789abcdef") != 64) {
		log_error("deploy: sha256sum %s: %s", path, first_line(errtext));
		return -1;
	}
	memcpy(sha, out, 64);
	sha[64] = '\0';
	return 0;
}

int
debstep_local(struct dopts *o, const char *who)
{
	struct debfile *d = &o->deb;
	char *argv[] = { DPKG_DEB, "--show", "--showformat",
	    "${Package} ${Version} ${Architecture}\n", "--", d->path, NULL };
	char out[512], errtext[2048], pkg[64] = "";
	int rc;

	if (access(DPKG_DEB, X_OK) == -1) {
		log_error("deploy: --deb needs dpkg-deb on this machine "
		    "(apt-get install dpkg): nothing deployed to %s", who);
		return -1;
	}
	rc = sshrun_exec(argv, NULL, 60, out, sizeof(out), errtext,
	    sizeof(errtext));
	if (rc != 0 || sscanf(out, "%63s %63s %31s", pkg, d->version,
	    d->arch) != 3) {
		log_error("deploy: --deb %s: not a Debian package (%s): nothing "
		    "deployed to %s", d->path, first_line(errtext), who);
		return -1;
	}
	if (strcmp(pkg, "hoplab") != 0) {
		log_error("deploy: --deb %s: the package %s, not hoplab: "
		    "nothing deployed to %s", d->path, pkg, who);
		return -1;
	}
	if (!sshrun_safe_word(d->version)) {
		log_error("deploy: --deb %s: version '%s' has characters "
		    "deploy does not pass to a shell", d->path, d->version);
		return -1;
	}
	snprintf(d->staged, sizeof(d->staged), "%s/" DEB_STAGED, o->tmp);
	unlink(d->staged);
	if (symlink(d->path, d->staged) == -1) {
		log_error("deploy: %s: %s", d->staged, strerror(errno));
		return -1;
	}
	return deb_sha(d->path, d->sha);
}

int
debstep_target(const struct dopts *o, const struct probe *pr, char *msg,
    size_t msglen)
{
	const struct debfile *d = &o->deb;

	if (strcmp(pr->dpkg, "-") == 0)
		snprintf(msg, msglen, "%s: the target has no dpkg (not a "
		    "Debian system?): deploy without --deb", d->path);
	else if (strcmp(d->arch, "all") != 0 && strcmp(d->arch, pr->dpkg) != 0)
		snprintf(msg, msglen, "%s is a package for %s, the target's "
		    "dpkg architecture is %s: build it there with make deb",
		    d->path, d->arch, pr->dpkg);
	else if (pr->copied)
		snprintf(msg, msglen, "hoplab was deployed there by copying "
		    "the programs (/" LIBDIR "/MANIFEST): hoplab undeploy "
		    "first, then deploy --deb %s", d->path);
	else if (strcmp(pr->debver, "-") != 0 && !pr->debmanifest)
		snprintf(msg, msglen, "hoplab %s is installed there, not by "
		    "hoplab deploy: remove it (apt-get remove hoplab) before "
		    "deploy --deb %s, so that undeploy never removes a "
		    "package it did not install", pr->debver, d->path);
	else
		return 0;
	return -1;
}

int
debstep_copy(const struct dopts *o, const struct dhost *h,
    const struct probe *pr, int *copied, char *msg, size_t msglen)
{
	const char *files[2] = { o->deb.staged, NULL };

	*copied = strcmp(pr->debver, o->deb.version) != 0 ||
	    strcmp(pr->debsha, o->deb.sha) != 0;
	if (!*copied)
		return 0;
	return dstep_scp(o, h, files, pr->stage, msg, msglen);
}

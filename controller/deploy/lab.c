/*
 * lab: run deploy/lab.sh for the controller.  lib/spawn runs /bin/sh with
 * the script and an explicit argv; the values passed are the controller's
 * own (a prefix validated by the caller and small integers) or a plan's
 * host and interface names, which the plan loader limited to letters,
 * digits and '_' (controller/plan/plantopo.h) and lab.sh checks again.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "controller/deploy/lab.h"
#include "spawn.h"

int
lab_home(char *buf, size_t len)
{
	char exe[PATH_MAX], *dir;
	const char *env = getenv("HOPLAB_HOME");
	ssize_t n;

	if (env != NULL && *env != '\0') {
		snprintf(buf, len, "%s", env);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n == -1)
		return -1;
	exe[n] = '\0';
	dir = dirname(exe);		/* .../bin */
	dir = dirname(dir);		/* ... */
	snprintf(buf, len, "%s", dir);
	return 0;
}

void
lab_inventory_path(const char *prefix, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s/inventory.yaml", LAB_STATE_ROOT, prefix);
}

static void
show_log(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		fputs(line, stderr);
	fclose(f);
}

/* deploy/lab.sh of hoplab's folder into SCRIPT; 0, or -1 with ERR. */
static int
lab_script(char *script, size_t len, char *err, size_t errlen)
{
	char home[PATH_MAX];

	if (lab_home(home, sizeof(home)) == -1) {
		snprintf(err, errlen, "cannot find hoplab's folder; set "
		    "HOPLAB_HOME");
		return -1;
	}
	snprintf(script, len, "%s/deploy/lab.sh", home);
	if (access(script, R_OK) == -1) {
		snprintf(err, errlen, "%s: %s (set HOPLAB_HOME to the hoplab "
		    "folder)", script, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The quiet run's log, made 0600 and exclusively by mkstemp(3) before
 * lab.sh writes to it (spawn opens it without changing its mode): a
 * name nobody can guess or plant a link at, though hoplab runs as root
 * in a world-writable folder (issue 17 item 11).  0, or -1 when it
 * cannot be made: the output then goes to the terminal.
 */
static int
quiet_log(char *path, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (tmp == NULL || tmp[0] != '/')
		tmp = "/tmp";
	if ((size_t)snprintf(path, len, "%s/hoplab-lab.XXXXXX", tmp) >= len)
		return -1;
	if ((fd = mkstemp(path)) == -1)
		return -1;
	close(fd);
	return 0;
}

int
lab_run(const char *prefix, int mgmt_k, const char *const *argv, int quiet,
    char *err, size_t errlen)
{
	char script[PATH_MAX + 32], logpath[PATH_MAX], k[16], how[64];
	const char *sub = argv[0] != NULL ? argv[0] : "";
	const char *args[LAB_MAX_ARGS + 8] = { "/bin/sh", script, "-p",
	    prefix };
	struct spawn_opts so = { .inherit_output = 1 };
	struct spawn_result r = { 0 };
	size_t n = 4;

	if (lab_script(script, sizeof(script), err, errlen) == -1)
		return -1;
	if (mgmt_k >= 0) {
		snprintf(k, sizeof(k), "%d", mgmt_k);
		args[n++] = "-k";
		args[n++] = k;
	}
	while (*argv != NULL && n < LAB_MAX_ARGS + 7)
		args[n++] = *argv++;
	args[n] = NULL;
	if (quiet && quiet_log(logpath, sizeof(logpath)) == 0)
		so = (struct spawn_opts){ .log_path = logpath };
	if (spawn_run(args[0], (char *const *)args, &so, &r, err, errlen) ==
	    -1) {
		if (so.log_path != NULL)
			unlink(logpath);
		return -1;
	}
	if (so.log_path != NULL && r.status != 0)
		show_log(logpath);
	if (so.log_path != NULL)
		unlink(logpath);
	if (r.status == 0)
		return 0;
	snprintf(err, errlen, "%s %s failed (%s)", script, sub,
	    spawn_status_text(r.status, how, sizeof(how)));
	return WIFEXITED(r.status) ? WEXITSTATUS(r.status) : 128;
}

int
lab_wire(const char *prefix, size_t n, char *err, size_t errlen)
{
	char count[16];
	const char *argv[] = { "wire", count, NULL };

	snprintf(count, sizeof(count), "%zu", n);
	return lab_run(prefix, -1, argv, 1, err, errlen);
}

void
lab_switch_args(const struct plantopo *t, const char **argv, size_t *n)
{
	size_t h;

	for (h = 0; h < t->nhosts; h++)
		if (t->hosts[h].kind == PLANTOPO_SWITCH) {
			argv[(*n)++] = "--switch";
			argv[(*n)++] = t->hosts[h].name;
		}
}

int
lab_links(const char *prefix, const struct plantopo *t, int quiet,
    char *err, size_t errlen)
{
	static char spec[PLANTOPO_MAX_LINKS][2 * (PLANTOPO_NAME_MAX + 16)];
	const char *argv[LAB_MAX_ARGS + 1];
	size_t i, n = 0;

	argv[n++] = "links";
	lab_switch_args(t, argv, &n);
	for (i = 0; i < t->nlinks; i++) {
		const struct plantopo_link *l = &t->links[i];

		snprintf(spec[i], sizeof(spec[i]), "%s:%s-%s:%s",
		    t->hosts[l->end[0].host].name, l->end[0].iface,
		    t->hosts[l->end[1].host].name, l->end[1].iface);
		argv[n++] = spec[i];
	}
	argv[n] = NULL;
	return lab_run(prefix, -1, argv, quiet, err, errlen);
}

int
lab_up_plan(const char *prefix, int mgmt_k, const struct plan *plan,
    int quiet, char *err, size_t errlen)
{
	const char *argv[LAB_MAX_ARGS + 1];
	size_t i, n = 0;
	int rc;

	argv[n++] = "up";
	if (plan->topo.enabled) {
		argv[n++] = "--hosts";
		for (i = 0; i < plan->topo.nhosts; i++)
			argv[n++] = plan->topo.hosts[i].name;
	} else
		for (i = 0; i < plan->nchain; i++)
			argv[n++] = plan->chain[i];
	argv[n] = NULL;
	if ((rc = lab_run(prefix, mgmt_k, argv, quiet, err, errlen)) != 0 ||
	    !plan->topo.enabled)
		return rc;
	return lab_links(prefix, &plan->topo, quiet, err, errlen);
}

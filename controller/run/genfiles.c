/*
 * genfiles: shipping the files of a generator's distributions.
 *
 * The plan check read each file from the plan's folder (planflow.c); here
 * the same files are read again, by the same rules (lib/datafile.c:
 * plain names, regular files, no links), and put into GenParams.files.
 * The agent writes them into the role's own folder and starts hoplab-gen
 * with --data-dir there.  A set larger than GENFILES_BYTES is not shipped
 * (a message is bounded at 1 MiB): the generator's agent then reads the
 * names from its data folder, as for a StartRole without files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/run/genfiles.h"
#include "datafile.h"
#include "dist.h"

/* Already among GP's files? */
static int
have(const Hoplab__GenParams *gp, const char *name)
{
	size_t i;

	for (i = 0; i < gp->n_files; i++)
		if (strcmp(gp->files[i]->name, name) == 0)
			return 1;
	return 0;
}

/* Read NAME of DIR into a new ExecFile; *TOTAL grows.  NULL with ERR. */
static Hoplab__ExecFile *
read_one(const char *dir, const char *name, size_t *total, char *err,
    size_t errlen)
{
	Hoplab__ExecFile *f;
	char path[4096 + DATAFILE_NAME_MAX];
	size_t cap = 0, n;
	uint8_t *buf = NULL, *nb;
	FILE *in;

	if ((in = datafile_open(dir, name, path, sizeof(path), err,
	    errlen)) == NULL)
		return NULL;
	if ((f = calloc(1, sizeof(*f))) == NULL)
		goto nomem;
	hoplab__exec_file__init(f);
	if ((f->name = strdup(name)) == NULL)
		goto nomem;
	for (;;) {
		if (f->data.len == cap) {
			cap = cap ? cap * 2 : 65536;
			if ((nb = realloc(buf, cap)) == NULL)
				goto nomem;
			buf = nb;
		}
		n = fread(buf + f->data.len, 1, cap - f->data.len, in);
		f->data.len += n;
		if (n == 0 || *total + f->data.len > GENFILES_BYTES)
			break;
	}
	fclose(in);
	f->data.data = buf;
	*total += f->data.len;
	return f;
nomem:
	fclose(in);
	free(buf);
	if (f != NULL && f->name != NULL && f->name[0] != '\0')
		free(f->name);
	free(f);
	snprintf(err, errlen, "%s: out of memory", path);
	return NULL;
}

/* Add the file SPEC names (if any) to GP. */
static int
add(const char *dir, Hoplab__GenParams *gp, const char *spec,
    size_t *total, char *err, size_t errlen)
{
	const char *name = dist_file(spec);
	Hoplab__ExecFile *f;

	if (name == NULL || have(gp, name))
		return 0;
	if (gp->n_files == GENFILES_MAX) {
		snprintf(err, errlen, "more than %d files in one generator's "
		    "distributions", GENFILES_MAX);
		return -1;
	}
	if ((f = read_one(dir, name, total, err, errlen)) == NULL)
		return -1;
	gp->files[gp->n_files++] = f;
	return 0;
}

int
genfiles_attach(const char *dir, Hoplab__GenParams *gp, int *note,
    char *err, size_t errlen)
{
	const Hoplab__FlowSpec *fs;
	size_t i, total = 0;
	int rc = 0;

	if (note != NULL)
		*note = 0;
	gp->files = NULL;
	gp->n_files = 0;
	for (i = 0; i < gp->n_flows && rc == 0; i++) {
		fs = gp->flows[i];
		if (dist_file(fs->idt_dist) == NULL &&
		    dist_file(fs->frame_dist) == NULL &&
		    dist_file(fs->burst_dist) == NULL &&
		    dist_file(fs->off_dist) == NULL)
			continue;
		if (gp->files == NULL && (gp->files = calloc(GENFILES_MAX,
		    sizeof(*gp->files))) == NULL) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (add(dir, gp, fs->idt_dist, &total, err, errlen) == -1 ||
		    add(dir, gp, fs->frame_dist, &total, err, errlen) == -1 ||
		    add(dir, gp, fs->burst_dist, &total, err, errlen) == -1 ||
		    add(dir, gp, fs->off_dist, &total, err, errlen) == -1)
			rc = -1;
	}
	if (rc == 0 && total > GENFILES_BYTES) {
		genfiles_free(gp);	/* too big: the agent's data folder */
		if (note != NULL)
			*note = 1;
	}
	return rc == 0 ? 0 : -1;
}

void
genfiles_free(Hoplab__GenParams *gp)
{
	size_t i;

	for (i = 0; i < gp->n_files; i++) {
		free(gp->files[i]->name);
		free(gp->files[i]->data.data);
		free(gp->files[i]);
	}
	free(gp->files);
	gp->files = NULL;
	gp->n_files = 0;
}

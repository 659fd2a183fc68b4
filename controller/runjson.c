/*
 * runjson: run.json, the record of how a run was made: the plan as run
 * (its path and full text), hoplab's versions, the hosts with their
 * software versions and clock offsets, start and end times, and the
 * outcome.  Written to a temporary file and renamed, so a reader never
 * sees half of it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "msg.h"
#include "results.h"

static void
json_str(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* The plan file's text, or NULL; the caller frees it. */
static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long len;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
	    len < 1 << 20 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)len + 1)) != NULL) {
		len = (long)fread(buf, 1, (size_t)len, f);
		buf[len] = '\0';
	}
	fclose(f);
	return buf;
}

static void
write_hosts(FILE *f, const struct run_host *hosts, size_t nhosts)
{
	size_t i;

	fputs("  \"hosts\": [\n", f);
	for (i = 0; i < nhosts; i++) {
		fputs("    {\"name\": ", f);
		json_str(f, hosts[i].name);
		fputs(", \"address\": ", f);
		json_str(f, hosts[i].address);
		fputs(", \"hostname\": ", f);
		json_str(f, hosts[i].hostname);
		fputs(", \"version\": ", f);
		json_str(f, hosts[i].version);
		fprintf(f, ", \"clock_offset_ns\": %lld}%s\n",
		    (long long)hosts[i].clock_offset_ns,
		    i + 1 < nhosts ? "," : "");
	}
	fputs("  ],\n", f);
}

static void
write_body(FILE *f, const char *dir, const struct plan *plan,
    const struct run_host *hosts, size_t nhosts, const char *status)
{
	char when[40], host[64];
	char *text = slurp(plan->path);

	if (gethostname(host, sizeof(host)) == -1)
		strcpy(host, "?");
	host[sizeof(host) - 1] = '\0';
	fputs("{\n  \"results_dir\": ", f);
	json_str(f, dir);
	fputs(",\n  \"status\": ", f);
	json_str(f, status);
	fprintf(f, ",\n  \"hoplab_version\": \"%s\",\n  \"proto_version\": %d,"
	    "\n  \"controller_host\": ", HOPLAB_VERSION, HOPLAB_PROTO_VERSION);
	json_str(f, host);
	fputs(",\n  \"written_utc\": ", f);
	json_str(f, clock_format_utc(clock_real_ns(), 0, when, sizeof(when)));
	fputs(",\n  \"frame_size\": \"Ethernet frame incl. FCS (RFC 2544)\","
	    "\n  \"delay\": \"one-way, generator tx and rx on one clock\",\n",
	    f);
	write_hosts(f, hosts, nhosts);
	fputs("  \"plan\": {\"name\": ", f);
	json_str(f, plan->name);
	fputs(", \"path\": ", f);
	json_str(f, plan->path);
	fputs(", \"text\": ", f);
	json_str(f, text != NULL ? text : "");
	fputs("}\n}\n", f);
	free(text);
}

int
results_write_run_json(struct results *res, const struct plan *plan,
    const struct run_host *hosts, size_t nhosts, const char *status,
    char *err, size_t errlen)
{
	char path[PATH_MAX + 16], tmp[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.json", results_dir(res));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((f = fopen(tmp, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	write_body(f, results_dir(res), plan, hosts, nhosts, status);
	if (fclose(f) == EOF || rename(tmp, path) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

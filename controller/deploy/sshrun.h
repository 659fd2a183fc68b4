/*
 * sshrun: run the ordinary OpenSSH client (ssh, scp) for `hoplab deploy`.
 *
 * The controller never links an ssh library: it runs /usr/bin/ssh and
 * /usr/bin/scp through lib/spawn with an explicit argv, in batch mode (no
 * password prompts), with a connect timeout and host keys accepted on
 * first use into a known_hosts file of hoplab's own (OpenSSH's
 * StrictHostKeyChecking=accept-new: a changed key is still refused).
 * Targets are "[user@]host", checked here so that nothing a user types
 * can become an ssh option or a remote shell word.
 */
#ifndef HOPLAB_SSHRUN_H
#define HOPLAB_SSHRUN_H

#include <limits.h>
#include <stddef.h>

#define SSHRUN_SSH		"/usr/bin/ssh"
#define SSHRUN_SCP		"/usr/bin/scp"
#define SSHRUN_MAX_ARGS		64
#define SSHRUN_CONNECT_TIMEOUT	10	/* seconds, ssh's ConnectTimeout */

struct ssh_target {
	char	user[33];	/* "" : ssh's default (ssh_config, $USER) */
	char	host[254];	/* IPv4 literal or RFC 1123 host name */
	char	spec[300];	/* "user@host" or "host", for ssh's argv */
};

struct sshrun_conf {
	char	known_hosts[PATH_MAX];	/* UserKnownHostsFile */
	char	key[PATH_MAX];		/* -i FILE, "" for ssh's defaults */
	unsigned port;			/* -p, 0 for ssh's default */
	int	verbose;		/* print each command to stderr */
};

/* An argv under construction; strings are copied into STORE. */
struct sshrun_argv {
	char	*v[SSHRUN_MAX_ARGS + 1];	/* NULL-terminated */
	int	n;
	char	store[8192];
	size_t	used;
};

/*
 * Parse "[user@]host" into T.  The user is [A-Za-z0-9._-] starting with a
 * letter, digit or '_'; the host an IPv4 literal or an RFC 1123 host name.
 * Returns 0, or -1 with ERR saying what is wrong.
 */
int	sshrun_parse_target(const char *s, struct ssh_target *t, char *err,
	    size_t errlen);
/*
 * 1 when S can be passed as one word to the remote shell unquoted: it is
 * not empty and made only of [A-Za-z0-9._/:=+,-].  The argv given to
 * sshrun_ssh_argv() is checked with it; values that must not look like
 * options (targets, paths) are checked by their parsers.
 */
int	sshrun_safe_word(const char *s);
/*
 * Fill A with the ssh command for C and T running REMOTE (a NULL-terminated
 * list of safe words).  Returns 0, or -1 with ERR (an unsafe word, too many
 * arguments).
 */
int	sshrun_ssh_argv(const struct sshrun_conf *c, const struct ssh_target *t,
	    const char *const *remote, struct sshrun_argv *a, char *err,
	    size_t errlen);
/*
 * Fill A with the scp command copying the local FILES (NULL-terminated)
 * into the folder DESTDIR (a safe word) on T.
 */
int	sshrun_scp_argv(const struct sshrun_conf *c, const struct ssh_target *t,
	    const char *const *files, const char *destdir, struct sshrun_argv *a,
	    char *err, size_t errlen);
/*
 * Run ARGV (argv[0] an absolute path) with stdin from STDIN_PATH (NULL:
 * /dev/null), collecting stdout into OUT and stderr into ERRTEXT (both
 * NUL-terminated, cut at their sizes), through lib/spawn.  Kills the
 * child after TIMEOUT_S seconds (ERRTEXT then says so).  Returns the exit
 * status (0..255), 256 + signal when it was killed, or 127 (a shell's
 * "cannot execute") with spawn's reason in ERRTEXT when it could not be
 * started.
 */
int	sshrun_exec(char *const argv[], const char *stdin_path, int timeout_s,
	    char *out, size_t outlen, char *errtext, size_t errlen);
/*
 * Turn what ssh or scp printed on stderr and its STATUS into one short
 * line for the user: the last non-empty stderr line, "ssh: " prefixed
 * when it is not already ("ssh: connect to host h port 22: Connection
 * refused"), or "exit status N" when stderr was empty.
 */
void	sshrun_failure(const char *errtext, int status, char *buf, size_t len);

#endif

/*
 * fztmp: the private folder of one fuzz target's process (tests/fuzz/),
 * for the parsers that read files: each input is written there under a
 * fixed name, so that the real open-and-read code runs on it.  The
 * folder (mkdtemp under TMPDIR or /tmp, mode 0700) and its files are
 * removed when the process exits.
 */
#ifndef HOPLAB_FUZZ_FZTMP_H
#define HOPLAB_FUZZ_FZTMP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The folder, created on the first call; aborts if it cannot be. */
const char *fztmp_dir(void);
/*
 * Write the SIZE bytes of DATA to the folder's NAME with MODE (replacing
 * the file of the previous input) and return its path (static storage,
 * one per NAME slot: at most FZTMP_FILES names).  Aborts on failure.
 */
const char *fztmp_file(const char *name, const uint8_t *data, size_t size,
	    mode_t mode);

#define FZTMP_FILES	4

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/* Where the commands that print records find ftc's libtraceevent plugins. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"

/*
 * Plugins to load after the system's: FTC_PLUGIN_DIR (set but empty: none),
 * else those shipped next to the binary (./plugins). The library reads no
 * environment: the choice is made here and passed to the reader's or the live
 * reader's options (report, stream, top).
 */
const char *cmd_plugin_dir(char *dir, size_t size)
{
	const char *env = getenv("FTC_PLUGIN_DIR");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env)
		return *env ? env : NULL;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	snprintf(dir, size, "%s/plugins", exe);
	return access(dir, R_OK) == 0 ? dir : NULL;
}

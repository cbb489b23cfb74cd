// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of libftc's error reporting and tracefs path helpers. */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "ftc.h"

int main(void)
{
	char *p;

	CHECK("error returns -1", ftc_error(EINVAL, "bad value '%s' in %s", "x", "f") == -1);
	CHECK("error sets errno", errno == EINVAL);
	CHECK_STR("error message", ftc_strerror(), "bad value 'x' in f");
	CHECK_STR("version", ftc_version(), FTC_VERSION);

	p = ftc_tracefs_path("inst", "trace_clock");
	if (!p) {
		SKIP("instance path", "tracefs is not mounted");
		return CHECK_DONE();
	}
	CHECK("instance path", strstr(p, "/instances/inst/trace_clock") != NULL);
	free(p);
	p = ftc_tracefs_path(NULL, "trace_clock");
	CHECK("top path", p && !strstr(p, "instances") && strstr(p, "/trace_clock"));
	free(p);
	return CHECK_DONE();
}

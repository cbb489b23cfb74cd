// SPDX-License-Identifier: LGPL-2.1-or-later
/* The last error message, per thread, for commands to show the user. */
#include <errno.h>
#include <stdio.h>

#include "ftc.h"

static _Thread_local char last_error[512];

const char *ftc_version(void)
{
	return FTC_VERSION;
}

const char *ftc_strerror(void)
{
	return last_error[0] ? last_error : "no error recorded";
}

int ftc_verror(int err, const char *fmt, va_list ap)
{
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	errno = err;
	return -1;
}

int ftc_error(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ftc_verror(err, fmt, ap);
	va_end(ap);
	errno = err;
	return -1;
}

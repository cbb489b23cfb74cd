// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The size check of the options structures and of the sized value types
 * (opts.h): what an older or a newer caller may pass, and the message
 * when it may not.
 */
#include <errno.h>
#include <string.h>

#include "ftc.h"
#include "opts.h"

int ftc_opts_copy(void *dst, size_t dst_size, const void *opts, size_t known, const char *name)
{
	const unsigned char *p = opts;
	size_t size;

	memset(dst, 0, dst_size);
	memcpy(dst, &dst_size, sizeof(dst_size));
	if (!opts)
		return 0;
	memcpy(&size, opts, sizeof(size));
	/* 0 is the classic: a struct zeroed but its size never set. */
	if (size < sizeof(size_t))
		return ftc_error(EINVAL, "%s: size %zu is too small: set .size to sizeof(%s) "
				 "(FTC_OPTS_INIT)", name, size, name);
	if (size > FTC_OPTS_MAX_SIZE)
		return ftc_error(EINVAL, "%s: size %zu is not the size of an options structure: "
				 "set .size to sizeof(%s) (FTC_OPTS_INIT)", name, size, name);
	/* past the last member, up to our own size, is padding: no initializer must zero it */
	if (known < dst_size)
		known = dst_size;
	for (size_t i = known; i < size; i++)
		if (p[i])
			return ftc_error(EINVAL, "%s: size %zu is larger than the %zu bytes this "
					 "libftc knows, and its byte %zu is not 0: a member of "
					 "a newer libftc that this one cannot honour", name, size,
					 known, i);
	memcpy(dst, opts, size < dst_size ? size : dst_size);
	memcpy(dst, &dst_size, sizeof(dst_size));
	return 0;
}

int ftc_sized_fill(void *out, const void *full, size_t full_size, const char *name)
{
	unsigned char *o = out;
	size_t size;

	memcpy(&size, out, sizeof(size));
	if (size < sizeof(size_t) || size > FTC_OPTS_MAX_SIZE)
		return ftc_error(EINVAL, "%s: size %zu is not the size of the structure: set "
				 ".size to sizeof(%s) (FTC_OPTS_INIT)", name, size, name);
	memcpy(o + sizeof(size), (const unsigned char *)full + sizeof(size),
	       (size < full_size ? size : full_size) - sizeof(size));
	if (size > full_size)
		memset(o + full_size, 0, size - full_size);
	return 0;
}

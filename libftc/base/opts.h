/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The options structures of the public headers (struct ftc_*_opts) start
 * with the size the caller compiled them with (FTC_OPTS_INIT, ftc-api.h),
 * as libbpf's do, so that members can be added at their end without a new
 * soname: a caller built against an older header passes a smaller size and
 * gets 0 for the members it did not know; a caller built against a newer
 * header passes a larger size, which is fine as long as the members this
 * library does not know are 0 (it cannot honour them otherwise).
 */
#ifndef FTC_OPTS_H
#define FTC_OPTS_H

#include <stddef.h>

/* No options structure is this large: a size above it was never set. */
#define FTC_OPTS_MAX_SIZE	4096

#define ftc_offsetofend(type, member) \
	(offsetof(type, member) + sizeof(((type *)0)->member))

/*
 * Copies the caller's opts into dst (dst_size bytes, zeroed first): the
 * bytes that fit in both. known is where the last member this library
 * knows ends; a larger size must have only zero bytes past it and past
 * dst_size: the tail padding between is the caller's compiler's to leave
 * as it likes (FTC_OPTS_INIT is a brace initializer, which need not zero
 * padding), so a member added later must start at or past the struct's
 * old size, where an older library sees it. NULL opts leaves dst all
 * defaults. Returns 0, or -1 with EINVAL and a message
 * naming the structure and the size.
 */
int ftc_opts_copy(void *dst, size_t dst_size, const void *opts, size_t known, const char *name);

/* The same for a struct TYPE whose last member is LAST. */
#define FTC_OPTS_COPY(dst, opts, type, last) \
	ftc_opts_copy(dst, sizeof(*(dst)), opts, ftc_offsetofend(struct type, last), \
		      "struct " #type)

/*
 * The other way, for the sized value types the library fills (struct
 * ftc_*_stats): the caller's out says in its size member how large its
 * struct is; out gets the bytes of full (full_size, this library's
 * struct) that fit in both, 0 past them, and keeps its size. Returns 0,
 * or -1 with EINVAL and a message for a size never set.
 */
int ftc_sized_fill(void *out, const void *full, size_t full_size, const char *name);

#define FTC_SIZED_FILL(out, full, type) \
	ftc_sized_fill(out, full, sizeof(*(full)), "struct " #type)

#endif

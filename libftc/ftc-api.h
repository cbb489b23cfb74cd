/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * FTC_API marks the functions of libftc's ABI. The library is built with
 * -fvisibility=hidden: a function without the mark stays inside it, so
 * libftc.so exports the public headers' functions and nothing else (checked
 * by tests/host/exports.sh), and a program's own helpers cannot clash with
 * ours. Every public header includes this one.
 */
#ifndef FTC_API_H
#define FTC_API_H

#ifndef FTC_API
#define FTC_API __attribute__((visibility("default")))
#endif

/*
 * Options structures (struct ftc_*_opts) begin with size_t size, which the
 * caller sets to the sizeof the struct it was compiled with. libftc reads
 * the members that fit in that size (those past it count as 0, so a
 * program built against an older header keeps working) and refuses, with
 * EINVAL, a size below sizeof(size_t) or a larger struct whose members
 * unknown to this libftc are not 0. Zero the whole struct and set the
 * size, which FTC_OPTS_INIT does:
 *
 *	struct ftc_reader_opts o = FTC_OPTS_INIT(ftc_reader_opts, .flags = f);
 *
 * (no comma after the last member). Members are only ever added at the
 * end. A NULL options pointer stands for every default.
 *
 * The value types the library fills with figures that grow (struct
 * ftc_*_stats) begin with size_t size as well: the caller sets it the
 * same way and gets the members that fit in it, 0 for those past what
 * this libftc knows.
 */
#define FTC_OPTS_INIT(...) FTC_OPTS_INIT_(__VA_ARGS__, )
#define FTC_OPTS_INIT_(type, ...) { .size = sizeof(struct type), __VA_ARGS__ }

#endif

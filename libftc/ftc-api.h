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

#endif

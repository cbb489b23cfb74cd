/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every ftc plugin shares. A plugin is a libtraceevent plugin
 * (TEP_PLUGIN_LOADER and friends) when built as a .so; ftc-static cannot
 * dlopen, so there the same sources are compiled with FTC_PLUGIN_STATIC
 * and their loaders get names of their own, which static.c calls.
 */
#ifndef FTC_PLUGIN_H
#define FTC_PLUGIN_H

#include <stdbool.h>
#include <event-parse.h>

#ifdef FTC_PLUGIN_STATIC
#define FTC_PLUGIN_LOAD(name)	ftc_plugin_load_##name
#define FTC_PLUGIN_UNLOAD(name)	ftc_plugin_unload_##name
#define FTC_PLUGIN_PURE(name)	ftc_plugin_pure_##name
#define FTC_PLUGIN_EXPORT
#else
#define FTC_PLUGIN_LOAD(name)	TEP_PLUGIN_LOADER
#define FTC_PLUGIN_UNLOAD(name)	TEP_PLUGIN_UNLOADER
#define FTC_PLUGIN_PURE(name)	ftc_plugin_pure
#define FTC_PLUGIN_EXPORT	__attribute__((visibility("default")))
#endif

/*
 * FTC_PLUGIN_PURE(name)(handler): true when handler is one of the plugin's
 * and prints from the record's payload (and the file) alone, registering
 * nothing: ftc report then keeps its text in its memo and skips it for
 * records it leaves out (libftc/reader/reader-tep.c finds the function).
 */
bool ftc_plugin_pure(void *handler);

/* The static plugins, by name; load and unload return 0 or -1. */
int ftc_plugin_load_syscalls(struct tep_handle *tep);
int ftc_plugin_unload_syscalls(struct tep_handle *tep);
int ftc_plugin_load_signal(struct tep_handle *tep);
int ftc_plugin_unload_signal(struct tep_handle *tep);
bool ftc_plugin_pure_syscalls(void *handler);
bool ftc_plugin_pure_signal(void *handler);

#endif

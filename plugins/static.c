// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc-static cannot dlopen: its plugins are linked in and registered
 * here, on every tep libftc makes (libftc calls these through weak
 * references, so that only a binary linking this file has them).
 */
#include "ftc-plugin.h"

int ftc_static_plugins_load(struct tep_handle *tep);
void ftc_static_plugins_unload(struct tep_handle *tep);
bool ftc_static_plugins_pure(void *handler);

int ftc_static_plugins_load(struct tep_handle *tep)
{
	if (ftc_plugin_load_syscalls(tep) < 0)
		return -1;
	if (ftc_plugin_load_signal(tep) < 0) {
		ftc_plugin_unload_syscalls(tep);
		return -1;
	}
	return 0;
}

void ftc_static_plugins_unload(struct tep_handle *tep)
{
	ftc_plugin_unload_signal(tep);
	ftc_plugin_unload_syscalls(tep);
}

bool ftc_static_plugins_pure(void *handler)
{
	return ftc_plugin_pure_syscalls(handler) || ftc_plugin_pure_signal(handler);
}

// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Probes of what newer kernels add to the ring buffer and its tracers: the
 * memory-mapped buffer (6.10), a persistent buffer holding the previous
 * boot (6.12), and the real-time latency tracers (listed, not started: a
 * latency tracer starts threads on every CPU).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-tracefs-info.h"
#include "probe.h"

/* The head of the kernel's meta page (uapi linux/trace_mmap.h, 6.10). */
struct meta_head {
	uint32_t meta_page_size, meta_struct_len, subbuf_size, nr_subbufs;
};

/* Mapping pins the buffer's size: tried in the private instance only. */
int ftc_probe_mmap_ring(struct ftc_probe *p, struct ftc_cap *cap)
{
	const char *s = ftc_probe_scratch(p);
	long page = sysconf(_SC_PAGESIZE);
	struct meta_head m;
	void *map;
	int fd, err;

	if (!s)
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT, "not tried: no private instance "
				   "to map a buffer of");
	fd = ftc_tracefs_open(s, "per_cpu/cpu0/trace_pipe_raw", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return ftc_cap_from_errno(cap, -fd, "per_cpu/cpu0/trace_pipe_raw: opening");
	map = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
	err = map == MAP_FAILED ? errno : 0;
	close(fd);
	if (err == ENODEV || err == EINVAL || err == ENOTTY)
		return ftc_cap_set(cap, FTC_CAP_ABSENT, err, "mmap of trace_pipe_raw: %s (the "
				   "buffer maps from Linux 6.10)", strerror(err));
	if (err)
		return ftc_cap_from_errno(cap, err, "mmap of trace_pipe_raw");
	memcpy(&m, map, sizeof(m));
	munmap(map, (size_t)page);
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "trace_pipe_raw maps: a meta page, %u sub-buffers "
			   "of %u KB (in a private instance)", m.nr_subbufs, m.subbuf_size / 1024);
}

/* An instance the kernel mapped at boot (trace_instance=NAME@...) has last_boot_info. */
int ftc_probe_persistent(struct ftc_probe *p, struct ftc_cap *cap)
{
	char **list = ftc_info_instances(), file[300];
	const char *found = NULL;
	bool previous = false;

	for (int i = 0; list && list[i] && !found; i++) {
		snprintf(file, sizeof(file), "instances/%s/last_boot_info", list[i]);
		if (ftc_probe_file_exists(NULL, file)) {
			found = list[i];
			previous = ftc_info_last_boot(found, NULL) == 1;
		}
	}
	if (!found) {
		ftc_list_free(list);
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT, "no instance has last_boot_info: "
				   "boot with what `ftc boot-args --persistent NAME` prints "
				   "(Linux 6.12+)");
	}
	ftc_cap_set(cap, FTC_CAP_OK, 0, "instance %s is persistent%s", found,
		    previous ? " and holds the previous boot's records (ftc extract -B it)" : "");
	ftc_list_free(list);
	return 0;
}

/* timerlat, osnoise, hwlat: in available_tracers, or not built in. */
int ftc_probe_listed_tracer(struct ftc_probe *p, struct ftc_cap *cap)
{
	const char *tracer = ftc_cap_name(cap->id);
	char *list = NULL;
	int ret = ftc_probe_file_read(NULL, "available_tracers", 4096, &list);
	bool listed = !ret && ftc_probe_word_in(list, tracer);

	free(list);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "available_tracers: reading");
	if (!listed)
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT, "available_tracers: no '%s' (not "
				   "built into this kernel; Debian's PREEMPT_RT flavour has it)",
				   tracer);
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "listed in available_tracers (not started: it "
			   "runs threads on every CPU)");
}

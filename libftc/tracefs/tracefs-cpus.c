// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * CPU sets in the kernel's two spellings: the hex mask of tracing_cpumask
 * ("ff", "00000001,00000000": 32-bit groups, CPU 0 last) and the list of
 * /sys/devices/system/cpu/online and of users ("0-3,6"), plus the CPUs a
 * buffer has a per_cpu directory for.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <tracefs.h>
#include <unistd.h>

#include "ftc.h"
#include "tracefs-layer.h"

/* CPUs that tracing_cpumask lets through, among those the kernel knows. */
int ftc_tracefs_cpumask_cpus(const char *instance, int **cpus)
{
	int n = get_nprocs_conf(), count = 0, err, ret;
	size_t size = CPU_ALLOC_SIZE(n);
	cpu_set_t *set = CPU_ALLOC(n);
	struct tracefs_instance *ti = NULL;
	char *path = ftc_tracefs_path(instance, "tracing_cpumask");
	int *out = calloc((size_t)n, sizeof(*out));

	if (!set || !path || !out) {
		ret = path ? ftc_error(ENOMEM, "out of memory") : -1;
		goto out;
	}
	CPU_ZERO_S(size, set);
	err = -ftc_tracefs_instance(instance, &ti);
	if (!err && tracefs_instance_get_affinity_set(ti, set, size) < 0)
		err = errno ? errno : EIO;
	if (err) {
		ret = ftc_error(err, "%s: %s", path, strerror(err));
		goto out;
	}
	for (int cpu = 0; cpu < n; cpu++)
		if (CPU_ISSET_S(cpu, size, set))
			out[count++] = cpu;
	*cpus = out;
	out = NULL;
	ret = count;
out:
	tracefs_instance_free(ti);
	CPU_FREE(set);
	free(path);
	free(out);
	return ret;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int push_cpu(int **cpus, int *n, long cpu)
{
	int *c;

	for (int i = 0; i < *n; i++)
		if ((*cpus)[i] == cpu)
			return 0;
	c = realloc(*cpus, (size_t)(*n + 1) * sizeof(int));
	if (!c)
		return ftc_error(ENOMEM, "out of memory");
	c[(*n)++] = (int)cpu;
	*cpus = c;
	return 0;
}

int ftc_info_percpu_cpus(const char *instance, int **cpus)
{
	char **names;
	int n = 0, ret = ftc_tracefs_list(instance, "per_cpu", &names);

	*cpus = NULL;
	for (int i = 0; i < ret && ret >= 0; i++) {
		int cpu;

		if (sscanf(names[i], "cpu%d", &cpu) == 1 && cpu >= 0 &&
		    push_cpu(cpus, &n, cpu) < 0)
			ret = -1;
	}
	tracefs_list_free(names);
	if (ret < 0) {
		free(*cpus);
		*cpus = NULL;
		return -1;
	}
	if (n)
		qsort(*cpus, (size_t)n, sizeof(int), cmp_int);
	return n;
}

char *ftc_cpumask_format(const int *cpus, int n)
{
	int max = -1, len = 0;
	unsigned int *words;
	char *out;

	for (int i = 0; i < n; i++)
		max = cpus[i] > max ? cpus[i] : max;
	if (max < 0)
		return NULL;
	words = calloc((size_t)max / 32 + 1, sizeof(*words));
	out = malloc(((size_t)max / 32 + 1) * 9 + 1);
	if (!words || !out) {
		free(words);
		free(out);
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	for (int i = 0; i < n; i++)
		if (cpus[i] >= 0)
			words[cpus[i] / 32] |= 1u << (cpus[i] % 32);
	for (int w = max / 32; w >= 0; w--)
		len += sprintf(out + len, w == max / 32 ? "%x" : ",%08x", words[w]);
	free(words);
	return out;
}

static void read_online(char *buf, size_t size)
{
	char *text = NULL;

	if (ftc_path_read_max("/sys/devices/system/cpu/online", size - 1, &text) == 0 && *text) {
		snprintf(buf, size, "%.*s", (int)strcspn(text, "\n"), text);
		free(text);
		return;
	}
	free(text);
	snprintf(buf, size, "0-%ld", sysconf(_SC_NPROCESSORS_ONLN) - 1);
}

struct cpu_set {
	int *cpus;
	int n;
};

static int add_range(unsigned long first, unsigned long last, void *ctx)
{
	struct cpu_set *set = ctx;

	for (unsigned long c = first; c <= last; c++)
		if (push_cpu(&set->cpus, &set->n, (long)c) < 0)
			return -1;
	return 0;
}

int ftc_cpulist_parse(const char *list, int **cpus)
{
	char online[256];
	struct cpu_set set = { NULL, 0 };
	long max = sysconf(_SC_NPROCESSORS_CONF);

	*cpus = NULL;
	if (!list) {
		read_online(online, sizeof(online));
		list = online;
	}
	if (ftc_list_parse(list, (unsigned long)max - 1, FTC_LIST_MANY | FTC_LIST_RANGES,
			   add_range, &set) < 0) {
		free(set.cpus);
		if (errno == ENOMEM)
			return -1;
		return ftc_error(EINVAL, "bad CPU list '%s': use numbers and ranges below %ld, "
				 "e.g. 0-1,3", list, max);
	}
	*cpus = set.cpus;
	return set.n;
}

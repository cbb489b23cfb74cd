// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftclab: the module the lab traces as its developer would. A call chain
 * ftclab_run -> ftclab_step_a -> ftclab_step_b runs once at load, N times
 * for each "N" written to /proc/ftclab, and every period_ms milliseconds
 * when that parameter is not 0 (off by default, so counts stay exact).
 * Each link of the chain emits the ftclab:ftclab_step event (a string,
 * an array, flags and a symbolic value); each run ends with
 * ftclab:ftclab_done. Writing "warn" raises WARN_ON_ONCE(1) from
 * ftclab_warn, the one way the lab has to provoke a warning from user space
 * (traceoff_on_warning; the 6.1 guest has no LKDTM). Writing "sN" calls
 * ftclab_sleep N times, each asleep 5 ms on a high-resolution timer: a
 * function of known latency for ftc funclatency. Writing "hang" never
 * returns: ftclab_hang spins with preemption off until the soft lockup
 * watchdog panics the kernel (with softlockup_panic), the hang whose trace
 * a persistent ring buffer keeps across the reboot.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <linux/kernel.h>

#define CREATE_TRACE_POINTS
#include "ftclab_trace.h"

static unsigned int period_ms;
module_param(period_ms, uint, 0644);
MODULE_PARM_DESC(period_ms, "run the chain every period_ms ms from a work item (0: never)");

static unsigned int ftclab_iter;
static struct delayed_work ftclab_work;
static struct proc_dir_entry *ftclab_proc;

/*
 * noinline: each link must stay a function of its own to be traced; not
 * static, or gcc may clone one (ftclab_run.isra.0) and rename it.
 */
u32 ftclab_run(void);
u32 ftclab_step_a(u32 x);
u32 ftclab_step_b(u32 x);
void ftclab_warn(void);
void ftclab_sleep(void);
void ftclab_hang(void);

noinline u32 ftclab_step_b(u32 x)
{
	unsigned int vals[FTCLAB_NVALS] = { x, x * 2, x * 3, 0xdeadbeef };

	trace_ftclab_step("step_b", ftclab_iter, vals,
			  FTCLAB_F_LEAF | (x & 1 ? FTCLAB_F_ODD : 0), FTCLAB_K_STEP_B);
	return x * 3 + 1;
}

noinline u32 ftclab_step_a(u32 x)
{
	unsigned int vals[FTCLAB_NVALS] = { x, 1, 2, 3 };

	trace_ftclab_step("step_a", ftclab_iter, vals,
			  x & 1 ? FTCLAB_F_ODD : 0, FTCLAB_K_STEP_A);
	return ftclab_step_b(x + 1);
}

noinline u32 ftclab_run(void)
{
	unsigned int vals[FTCLAB_NVALS] = { 0 };
	u32 r;

	ftclab_iter++;
	trace_ftclab_step("run", ftclab_iter, vals, FTCLAB_F_ROOT, FTCLAB_K_RUN);
	r = ftclab_step_a(ftclab_iter);
	trace_ftclab_done(ftclab_iter, r);
	return r;
}

/* Once per load, as WARN_ON_ONCE is: the first "warn" is the one that counts. */
noinline void ftclab_warn(void)
{
	WARN_ON_ONCE(1);
}

static void ftclab_work_fn(struct work_struct *w)
{
	ftclab_run();
	if (READ_ONCE(period_ms))
		schedule_delayed_work(&ftclab_work, msecs_to_jiffies(period_ms));
}

/* 5 ms: a timer's, not a jiffy's (msleep(5) is two ticks or more at 250 Hz). */
noinline void ftclab_sleep(void)
{
	usleep_range(5000, 5000);
}

noinline void ftclab_hang(void)
{
	preempt_disable();
	for (;;)
		cpu_relax();
}

/* "sN": ftclab_sleep N times; -1 when the word is not that. */
static ssize_t sleeps(const char *word)
{
	unsigned int n;

	if (word[0] != 's' || kstrtouint(word + 1, 10, &n) || n > 1000)
		return -1;
	while (n--)
		ftclab_sleep();
	return 0;
}

/* Writing N runs the chain N times; writing 0 (re)arms the work item. */
static ssize_t ftclab_write(struct file *f, const char __user *buf, size_t len, loff_t *pos)
{
	unsigned int n, i;
	char word[8];
	int err;

	if (len >= 2 && len < sizeof(word) && !copy_from_user(word, buf, len)) {
		word[len] = 0;
		if (len > 1 && word[len - 1] == '\n')
			word[len - 1] = 0;
		if (sysfs_streq(word, "warn")) {
			ftclab_warn();
			return len;
		}
		if (sysfs_streq(word, "hang"))
			ftclab_hang();
		if (sleeps(word) == 0)
			return len;
	}
	err = kstrtouint_from_user(buf, len, 0, &n);
	if (err)
		return err;
	if (n > 1000000)
		return -EINVAL;
	for (i = 0; i < n; i++)
		ftclab_run();
	if (!n && period_ms)
		mod_delayed_work(system_wq, &ftclab_work, msecs_to_jiffies(period_ms));
	return len;
}

static ssize_t ftclab_read(struct file *f, char __user *buf, size_t len, loff_t *pos)
{
	char s[32];
	int n = scnprintf(s, sizeof(s), "%u\n", ftclab_iter);

	return simple_read_from_buffer(buf, len, pos, s, n);
}

static const struct proc_ops ftclab_ops = {
	.proc_read = ftclab_read,
	.proc_write = ftclab_write,
};

static int __init ftclab_init(void)
{
	ftclab_proc = proc_create("ftclab", 0644, NULL, &ftclab_ops);
	if (!ftclab_proc)
		return -ENOMEM;
	INIT_DELAYED_WORK(&ftclab_work, ftclab_work_fn);
	ftclab_run();
	if (period_ms)
		schedule_delayed_work(&ftclab_work, msecs_to_jiffies(period_ms));
	return 0;
}

static void __exit ftclab_exit(void)
{
	WRITE_ONCE(period_ms, 0);
	cancel_delayed_work_sync(&ftclab_work);
	proc_remove(ftclab_proc);
}

module_init(ftclab_init);
module_exit(ftclab_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftc lab: a module to trace");

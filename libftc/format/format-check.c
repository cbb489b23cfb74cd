// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A record is checked against its event format before libtraceevent sees
 * it. libtraceevent trusts the sizes it reads from the record: a record
 * shorter than its fixed fields makes a "char buf[]" field's length
 * negative (a 4 GB malloc and memcpy), and a __data_loc word can point
 * anywhere. The event's shape (how long a record must be, which fields are
 * dynamic) is worked out once per event and kept, so the check per record
 * is a compare, plus a few for events with dynamic fields.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "format.h"

#define MAX_ARG_DEPTH	64	/* print args nest this deep in no real format */
#define MAX_DIVISORS	8	/* fields a print format divides by */

struct dyn_field {
	struct tep_format_field *fd;
	bool needs_nul;		/* printed with %s through __get_str(): strlen'ed */
};

struct ftc_rec_shape {
	struct tep_event *ev;
	int min_size;		/* every fixed field ends within this */
	struct tep_format_field *min_field;	/* the field that ends there */
	bool bad_format;	/* a field libtraceevent cannot read safely */
	bool bad_divisor;	/* a divisor that is 0 or cannot be checked */
	bool bad_bprint;	/* ftrace:bprint without the fields it is printed from */
	int ndiv;
	struct tep_format_field *div[MAX_DIVISORS];	/* fields divided by */
	int ndyn;
	struct dyn_field dyn[];
};

/*
 * ftrace:kernel_stack records hold as many callers as the stack had (its
 * size field), not the 8 its format declares. The function plugin prints
 * them up to the record's end; without it, libtraceevent reads all 8.
 */
static bool short_stack_ok(const struct tep_event *ev, const struct tep_format_field *fd)
{
	return ev->handler && ev->system && !strcmp(ev->system, "ftrace") &&
	       !strcmp(ev->name, "kernel_stack") && !strcmp(fd->name, "caller");
}

static void note_fixed(struct ftc_rec_shape *sh, struct tep_format_field *fd)
{
	long end;

	if (fd->offset < 0 || fd->size < 0) {
		sh->bad_format = true;
		sh->min_field = fd;
		return;
	}
	/* A flexible array ("char buf[]", size 0) must at least start in the record. */
	end = (long)fd->offset + (short_stack_ok(sh->ev, fd) ? 0 : fd->size);
	if (end > sh->min_size && !sh->bad_format) {
		sh->min_size = (int)(end > INT32_MAX ? INT32_MAX : end);
		sh->min_field = fd;
	}
}

static void mark_nul(struct ftc_rec_shape *sh, struct tep_format_field *fd)
{
	for (int i = 0; fd && i < sh->ndyn; i++)
		if (sh->dyn[i].fd == fd)
			sh->dyn[i].needs_nul = true;
}

/*
 * libtraceevent 1.7 evaluates "/" and "%" in print args as they stand: a
 * zero divisor kills the process with SIGFPE (the fuzzer made a format
 * with "0x20%ps0x40", which reads as 0x20 % 0). A constant divisor must
 * not be 0 and a field divisor is checked in each record; any other (no
 * real format has one) makes the format unusable.
 */
static void note_divisor(struct ftc_rec_shape *sh, struct tep_print_arg *d)
{
	struct tep_format_field *fd = NULL;

	while (d && d->type == TEP_PRINT_TYPE)
		d = d->typecast.item;
	if (d && d->type == TEP_PRINT_ATOM && d->atom.atom &&
	    strtoull(d->atom.atom, NULL, 0))
		return;
	if (d && d->type == TEP_PRINT_FIELD)
		fd = d->field.field ? d->field.field :
		     d->field.name ? tep_find_any_field(sh->ev, d->field.name) : NULL;
	if (fd && sh->ndiv < MAX_DIVISORS)
		sh->div[sh->ndiv++] = fd;
	else
		sh->bad_divisor = true;
}

static bool is_division(const struct tep_print_arg *a)
{
	return a->op.op && (!strcmp(a->op.op, "/") || !strcmp(a->op.op, "%"));
}

/*
 * Finds the __get_str() arguments (libtraceevent prints those with a bare
 * %s) and the divisors.
 */
static void walk_args(struct ftc_rec_shape *sh, struct tep_print_arg *a, int depth)
{
	for (; a && depth < MAX_ARG_DEPTH; a = a->next) {
		switch (a->type) {
		case TEP_PRINT_STRING:
			if (a->string.string)
				mark_nul(sh, tep_find_any_field(sh->ev, a->string.string));
			break;
		case TEP_PRINT_TYPE:
			walk_args(sh, a->typecast.item, depth + 1);
			break;
		case TEP_PRINT_OP:
			if (is_division(a))
				note_divisor(sh, a->op.right);
			walk_args(sh, a->op.left, depth + 1);
			walk_args(sh, a->op.right, depth + 1);
			break;
		case TEP_PRINT_FUNC:
			walk_args(sh, a->func.args, depth + 1);
			break;
		case TEP_PRINT_FLAGS:
			walk_args(sh, a->flags.field, depth + 1);
			break;
		case TEP_PRINT_SYMBOL:
			walk_args(sh, a->symbol.field, depth + 1);
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			walk_args(sh, a->hex.field, depth + 1);
			walk_args(sh, a->hex.size, depth + 1);
			break;
		case TEP_PRINT_INT_ARRAY:
			walk_args(sh, a->int_array.field, depth + 1);
			walk_args(sh, a->int_array.count, depth + 1);
			walk_args(sh, a->int_array.el_size, depth + 1);
			break;
		default:
			break;
		}
	}
}

static bool loc_size_ok(const struct tep_format_field *fd)
{
	return fd->size == 1 || fd->size == 2 || fd->size == 4 || fd->size == 8;
}

static int count_fields(struct tep_format_field *fd)
{
	int n = 0;

	for (; fd; fd = fd->next)
		n++;
	return n;
}

/*
 * libtraceevent prints ftrace:bprint through its own fields (the format's
 * address in "fmt", the arguments in "buf", the caller in "ip"), not its
 * print format, and dereferences what it finds without a check: an event
 * of that name without them (a damaged file) would crash it.
 */
static bool bprint_fields_ok(struct tep_event *ev)
{
	static const char *const need[] = { "ip", "fmt", "buf" };

	if (!(ev->flags & TEP_EVENT_FL_ISBPRINT))
		return true;
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!tep_find_field(ev, need[i]))
			return false;
	return true;
}

static struct ftc_rec_shape *shape_new(struct tep_event *ev)
{
	int n = count_fields(ev->format.common_fields) + count_fields(ev->format.fields);
	struct ftc_rec_shape *sh = calloc(1, sizeof(*sh) + (size_t)n * sizeof(sh->dyn[0]));
	struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };

	if (!sh)
		return NULL;
	sh->ev = ev;
	for (int l = 0; l < 2; l++)
		for (struct tep_format_field *fd = lists[l]; fd; fd = fd->next) {
			note_fixed(sh, fd);
			if (!(fd->flags & TEP_FIELD_IS_DYNAMIC))
				continue;
			sh->dyn[sh->ndyn++].fd = fd;
			if (!loc_size_ok(fd)) {
				sh->bad_format = true;
				sh->min_field = fd;
			}
		}
	sh->bad_bprint = !bprint_fields_ok(ev);
	walk_args(sh, ev->print_fmt.args, 0);
	return sh;
}

#define MAX_CACHED_ID	(1 << 20)

/* The shape of ev, made on first use and kept by event id (NULL: *tmp holds it). */
static struct ftc_rec_shape *shape_of(struct ftc_format *f, struct tep_event *ev,
				      struct ftc_rec_shape **tmp)
{
	struct ftc_rec_shape **tab;
	int id = ev->id, n;

	if (id >= 0 && id < f->nshapes && f->shapes[id] && f->shapes[id]->ev == ev)
		return f->shapes[id];
	if (id < 0 || id >= MAX_CACHED_ID)
		return *tmp = shape_new(ev);
	if (id >= f->nshapes) {
		n = id + 1 > 2 * f->nshapes ? id + 1 : 2 * f->nshapes;
		tab = realloc(f->shapes, (size_t)n * sizeof(*tab));
		if (!tab)
			return *tmp = shape_new(ev);
		memset(tab + f->nshapes, 0, (size_t)(n - f->nshapes) * sizeof(*tab));
		f->shapes = tab;
		f->nshapes = n;
	}
	free(f->shapes[id]);
	f->shapes[id] = shape_new(ev);
	return f->shapes[id];
}

static const char *loc_kind(const struct tep_format_field *fd)
{
	return fd->flags & TEP_FIELD_IS_RELATIVE ? "__rel_loc" : "__data_loc";
}

static int check_dyn(struct ftc_format *f, const struct dyn_field *d, struct tep_record *rec,
		     char *why, size_t n)
{
	const struct tep_format_field *fd = d->fd;
	const char *data = rec->data;
	unsigned int loc, off, len;

	/* libtraceevent reads the word at the field's own size. */
	loc = (unsigned int)tep_read_number(f->r->tep, data + fd->offset, fd->size);
	off = loc & 0xffff;
	len = loc >> 16;
	if (fd->flags & TEP_FIELD_IS_RELATIVE)
		off += (unsigned int)(fd->offset + fd->size);
	if ((unsigned long)off + len > (unsigned long)rec->size) {
		snprintf(why, n, "%s field '%s' at %u+%u exceeds the record's %d bytes",
			 loc_kind(fd), fd->name, off, len, rec->size);
		return -1;
	}
	if (d->needs_nul && !memchr(data + off, '\0', len)) {
		snprintf(why, n, "%s string '%s' at %u+%u has no terminating NUL",
			 loc_kind(fd), fd->name, off, len);
		return -1;
	}
	return 0;
}

/* libtraceevent reads a divisor field as a number of 1, 2, 4 or 8 bytes, else 0. */
static int check_divisors(const struct ftc_rec_shape *sh, struct tep_record *rec, char *why,
			  size_t n)
{
	static const char zero[8];

	for (int i = 0; i < sh->ndiv; i++) {
		const struct tep_format_field *fd = sh->div[i];

		if (fd->offset >= 0 && loc_size_ok(fd) && fd->offset + fd->size <= rec->size &&
		    memcmp((char *)rec->data + fd->offset, zero, (size_t)fd->size))
			continue;
		snprintf(why, n, "the print format divides by field '%s', which is 0", fd->name);
		return -1;
	}
	return 0;
}

static int check(struct ftc_format *f, const struct ftc_rec_shape *sh, struct tep_record *rec,
		 char *why, size_t n)
{
	const struct tep_format_field *fd;

	if (sh->bad_divisor) {
		snprintf(why, n, "the print format divides by 0 or by an expression");
		return -1;
	}

	if (sh->bad_bprint) {
		snprintf(why, n, "is printed from fields ip, fmt and buf; its format lacks one");
		return -1;
	}
	if (sh->bad_format) {
		fd = sh->min_field;
		snprintf(why, n, "field '%s' of the format has offset %d size %d", fd->name,
			 fd->offset, fd->size);
		return -1;
	}
	if (rec->size < sh->min_size) {
		fd = sh->min_field;
		snprintf(why, n, "field '%s' at %d+%d exceeds the record's %d bytes", fd->name,
			 fd->offset, fd->size, rec->size);
		return -1;
	}
	for (int i = 0; i < sh->ndyn; i++)
		if (check_dyn(f, &sh->dyn[i], rec, why, n) < 0)
			return -1;
	return check_divisors(sh, rec, why, n);
}

int ftc_format_check(struct ftc_format *f, struct tep_record *rec, struct tep_event *ev,
		     char *why, size_t n)
{
	struct ftc_rec_shape *tmp = NULL, *sh = shape_of(f, ev, &tmp);
	int ret;

	if (!sh && !tmp) {
		snprintf(why, n, "no memory to check it");
		return -1;
	}
	ret = check(f, sh ? sh : tmp, rec, why, n);
	free(tmp);
	return ret;
}

void ftc_format_check_free(struct ftc_format *f)
{
	for (int i = 0; i < f->nshapes; i++)
		free(f->shapes[i]);
	free(f->shapes);
	f->shapes = NULL;
	f->nshapes = 0;
}

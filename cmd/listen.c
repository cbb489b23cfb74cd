// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc listen: the host's end of an off-board capture. A board with little
 * storage runs `ftc record -N HOST:PORT` (or --send to a device that
 * reaches this port); each connection's stream becomes an ordinary
 * trace.dat here, the very bytes a local capture would have written
 * (libftc/writer/stream.h). One capture at a time: a second connection
 * meanwhile is closed at once with a message here, as the stream carries
 * nothing back to say why.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "output.h"
#include "signals.h"
#include "ftc.h"
#include "ftc-control.h"
#include "ftc-stream.h"
#include "ftc-writer.h"

#define READ_BUF	(64u << 10)

enum {
	OPT_BIND = 2000,
	OPT_ONCE,
};

static const struct cmd_option listen_options[] = {
	FTC_HELP_OPTION,
	{ 'p', "port", "PORT", "the TCP port to listen on (0: any free one, printed)", 'p' },
	{ 'o', "output", "NAME", "name the files NAME.HOST:PORT.dat (default trace)", 'o' },
	{ 'd', "dir", "DIR", "write the files into DIR (default .)", 'd' },
	{ 'l', "log", "FILE", "append the messages to FILE instead of stderr", 'l' },
	{ 0, "bind", "ADDR", "listen on ADDR only (e.g. 127.0.0.1; default every address)",
	  OPT_BIND },
	{ 0, "once", NULL, "exit after the first capture, with its status", OPT_ONCE },
	{ 0 }
};

struct listener {
	const char *port, *prefix, *dir, *bind;
	bool once;
	FILE *log;
	int lfd;
	/* the capture being received */
	int cfd, out;
	char peer[NI_MAXHOST + NI_MAXSERV + 2];
	char *path;
	struct ftc_stream_recv *recv;
	char *buf;
};

static int check_port(const char *port)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(port, &end, 10);
	return !*port || *end || errno || n < 0 || n > 65535 ? -1 : 0;
}

static int listen_opt(int id, const char *arg, void *ctx)
{
	struct listener *l = ctx;
	struct addrinfo *ai;
	struct stat st;

	switch (id) {
	case 'p':
		if (check_port(arg) < 0)
			return cmd_bad_value("not a TCP port (0 to 65535; 0 picks a free one)");
		l->port = arg;
		return 0;
	case 'o':
		if (strchr(arg, '/'))
			return cmd_bad_value("a file name prefix, not a path (the folder is -d DIR)");
		l->prefix = arg;
		return 0;
	case 'd':
		if (stat(arg, &st) < 0 || !S_ISDIR(st.st_mode))
			return cmd_bad_value("not a directory (make it first, or leave -d out for "
					     "the current one)");
		l->dir = arg;
		return 0;
	case 'l':
		l->log = fopen(arg, "a");
		if (!l->log)
			return cmd_bad_value("cannot open it for appending: %s", strerror(errno));
		setvbuf(l->log, NULL, _IOLBF, 0);
		return 0;
	case OPT_BIND:
		if (getaddrinfo(arg, NULL, &(struct addrinfo){ .ai_flags = AI_PASSIVE }, &ai))
			return cmd_bad_value("not an address of this machine's (e.g. 127.0.0.1 "
					     "or ::1)");
		freeaddrinfo(ai);
		l->bind = arg;
		return 0;
	case OPT_ONCE: l->once = true; return 0;
	}
	return 0;
}

static int listen_run(int argc, char **argv);

const struct command cmd_listen = {
	.name = "listen",
	.summary = "receive traces that `ftc record -N` sends from another machine",
	.synopsis = "-p PORT [-d DIR] [-o NAME] [-l FILE] [--bind ADDR] [--once]",
	.options = listen_options,
	.run = listen_run,
};

static void say(struct listener *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct listener *l, const char *fmt, ...)
{
	FILE *f = l->log ? l->log : stderr;
	va_list ap;

	fprintf(f, "ftc listen: ");
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fflush(f);
}


static void print_bound(struct listener *l)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char host[NI_MAXHOST], serv[NI_MAXSERV];

	if (getsockname(l->lfd, (struct sockaddr *)&ss, &len) < 0 ||
	    getnameinfo((struct sockaddr *)&ss, len, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV))
		return;
	/* On stdout, for scripts that asked for any port. */
	printf("listening on %s port %s\n", host, serv);
	cmd_output_flush();
}

static int open_listener(struct listener *l)
{
	struct addrinfo hints = { .ai_family = l->bind ? AF_UNSPEC : AF_INET6,
				  .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
	struct addrinfo *res;
	int one = 1, err = getaddrinfo(l->bind, l->port, &hints, &res);

	if (err && !l->bind) {	/* no IPv6 here: every IPv4 address */
		hints.ai_family = AF_INET;
		err = getaddrinfo(NULL, l->port, &hints, &res);
	}
	if (err) {
		cmd_error(&cmd_listen, "--bind '%s': %s", l->bind ? l->bind : "", gai_strerror(err));
		return -1;
	}
	l->lfd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
	if (l->lfd >= 0)
		setsockopt(l->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (l->lfd < 0 || bind(l->lfd, res->ai_addr, res->ai_addrlen) < 0 ||
	    listen(l->lfd, 4) < 0) {
		cmd_error(&cmd_listen, "port %s%s%s: %s", l->port, l->bind ? " on " : "",
			  l->bind ? l->bind : "", strerror(errno));
		freeaddrinfo(res);
		return -1;
	}
	freeaddrinfo(res);
	print_bound(l);
	return 0;
}

/*
 * The dual-stack socket sees an IPv4 peer as ::ffff:a.b.c.d: name it as the
 * board was addressed, and keep the file name short.
 */
static const char *unmapped(const char *host)
{
	static const char prefix[] = "::ffff:";

	if (!strncasecmp(host, prefix, sizeof(prefix) - 1) && strchr(host, '.'))
		return host + sizeof(prefix) - 1;
	return host;
}

static void peer_name(int fd, char *buf, size_t size)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char host[NI_MAXHOST], serv[NI_MAXSERV];

	if (getpeername(fd, (struct sockaddr *)&ss, &len) < 0 ||
	    getnameinfo((struct sockaddr *)&ss, len, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(buf, size, "unknown");
		return;
	}
	snprintf(buf, size, "%s:%s", unmapped(host), serv);
}

/* A new capture: its file is made now, and dropped if nothing usable comes. */
static int start_client(struct listener *l, int fd)
{
	char old[PATH_MAX];
	int aside;

	l->cfd = fd;
	peer_name(fd, l->peer, sizeof(l->peer));
	if (asprintf(&l->path, "%s/%s.%s.dat", l->dir, l->prefix, l->peer) < 0) {
		l->path = NULL;
		say(l, "out of memory");
		return -1;
	}
	aside = cmd_output_set_aside(&cmd_listen, l->path, ".old", old, sizeof(old));
	if (aside < 0)
		return -1;
	if (aside)
		say(l, "kept the previous %s as %s", l->path, old);
	l->out = open(l->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (l->out < 0) {
		say(l, "%s: cannot create the file for %s: %s (check -d DIR)", l->path, l->peer,
		    strerror(errno));
		return -1;
	}
	l->recv = ftc_stream_recv_new(l->out, l->path);
	if (!l->recv) {
		say(l, "%s", ftc_strerror());
		return -1;
	}
	say(l, "connection from %s: writing %s", l->peer, l->path);
	return 0;
}

/* A cut stream leaves gaps between the CPU regions: close them as ftc restore would. */
static void repair(struct listener *l)
{
	int changed;

	if (ftc_writer_repair(l->path, &changed) < 0)
		say(l, "%s: left as it came (readable up to the last checkpoint): %s", l->path,
		    ftc_strerror());
}

/* Ends the capture; returns its exit status. */
static int end_client(struct listener *l, int how, const char *why)
{
	uint64_t bytes = l->recv ? ftc_stream_recv_bytes(l->recv) : 0;
	const char *text = "";
	int ret = FTC_EXIT_FAIL;

	if (how == 1 && ftc_stream_recv_status(l->recv, &text) == 0) {
		say(l, "%s: complete, %.1f MB from %s", l->path, (double)bytes / 1e6, l->peer);
		ret = FTC_EXIT_OK;
	} else if (how == 1) {
		say(l, "%s: the recorder on %s failed: %s (the file holds what it sent)", l->path,
		    l->peer, text);
	} else if (bytes) {
		say(l, "%s: %s; the capture from %s is cut short: the file holds what arrived",
		    l->path, why, l->peer);
	} else {
		say(l, "%s: %s; nothing usable came from %s: no file kept", l->path, why, l->peer);
	}
	if (l->out >= 0)
		close(l->out);
	if (how != 1 && bytes && l->path)
		repair(l);
	else if (how != 1 && l->path)
		ftc_writer_unlink(l->path);	/* a regular file: never a device at that name */
	if (l->cfd >= 0)
		close(l->cfd);	/* tells the recorder its file is complete */
	ftc_stream_recv_free(l->recv);
	free(l->path);
	l->recv = NULL;
	l->path = NULL;
	l->cfd = l->out = -1;
	return ret;
}

/* Reads what the client sent; returns -1 to go on, else the capture's status. */
static int serve_client(struct listener *l)
{
	ssize_t n = read(l->cfd, l->buf, READ_BUF);
	char why[600];
	int r;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return -1;
	if (n < 0) {
		snprintf(why, sizeof(why), "reading the connection: %s", strerror(errno));
		return end_client(l, 0, why);
	}
	if (n == 0)
		return end_client(l, 0, "the connection closed before the end of the capture");
	r = ftc_stream_recv_feed(l->recv, l->buf, (size_t)n);
	if (r < 0) {
		snprintf(why, sizeof(why), "%s; connection closed", ftc_strerror());
		return end_client(l, 0, why);
	}
	return r == 1 ? end_client(l, 1, NULL) : -1;
}

static void accept_one(struct listener *l)
{
	char peer[NI_MAXHOST + NI_MAXSERV + 2];
	int fd = accept4(l->lfd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (l->cfd >= 0) {
		peer_name(fd, peer, sizeof(peer));
		say(l, "refused a connection from %s: the capture from %s is being received "
		    "(one at a time; connection closed)", peer, l->peer);
		close(fd);
		return;
	}
	if (start_client(l, fd) < 0) {
		if (l->out >= 0)
			close(l->out);
		free(l->path);
		ftc_stream_recv_free(l->recv);
		l->recv = NULL;
		l->path = NULL;
		l->out = -1;
		close(fd);
		l->cfd = -1;
	}
}

static int serve(struct listener *l)
{
	int status = FTC_EXIT_OK;

	for (;;) {
		struct pollfd p[2] = { { .fd = l->lfd, .events = POLLIN },
				       { .fd = l->cfd, .events = POLLIN } };
		int r;

		if (cmd_signal_caught()) {
			if (l->cfd >= 0)
				end_client(l, 0, "interrupted");
			return FTC_EXIT_INTERRUPTED;
		}
		r = poll(p, l->cfd >= 0 ? 2 : 1, -1);
		if (r < 0 && errno != EINTR) {
			cmd_error(&cmd_listen, "poll: %s", strerror(errno));
			return FTC_EXIT_FAIL;
		}
		if (r <= 0)
			continue;
		if (l->cfd >= 0 && p[1].revents) {
			int st = serve_client(l);

			if (st >= 0 && l->once)
				return st;
			if (st > 0)
				status = st;
		}
		if (p[0].revents & POLLIN)
			accept_one(l);
	}
	return status;
}

static int listen_run(int argc, char **argv)
{
	struct listener l = { .prefix = "trace", .dir = ".", .lfd = -1, .cfd = -1, .out = -1 };
	int ret = cmd_options_parse(&cmd_listen, argc, argv, listen_opt, &l);

	if (ret < 0)
		goto out;
	if (ret < argc) {
		cmd_error(&cmd_listen, "'%s': listen takes no operand (see ftc listen --help)",
			  argv[ret]);
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	if (!l.port) {
		cmd_error(&cmd_listen, "no port: give -p PORT (e.g. -p 12345, or -p 0 for any)");
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	l.buf = malloc(READ_BUF);
	if (!l.buf) {
		cmd_error(&cmd_listen, "out of memory");
		ret = FTC_EXIT_FAIL;
		goto out;
	}
	if (open_listener(&l) < 0) {
		ret = FTC_EXIT_FAIL;
		goto out;
	}
	cmd_signals_catch();
	ret = serve(&l);
	close(l.lfd);
out:
	if (l.log)
		fclose(l.log);
	free(l.buf);
	return ret < 0 ? cmd_options_exit(ret) : ret;
}

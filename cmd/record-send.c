// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where ftc record sends its trace when the board keeps no file: a TCP
 * connection to `ftc listen` (-N), or a descriptor or device (--send),
 * e.g. a virtio-serial port or a second UART that QEMU or a cable
 * carries to the host, where `ftc listen` reads it.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "ftc.h"
#include "record-send.h"

/* HOST:PORT or [ADDR]:PORT split in place; 0 or -1. */
static int split_host(char *s, char **host, char **port)
{
	char *colon = strrchr(s, ':');

	if (!colon || !colon[1] || colon == s)
		return -1;
	*colon = 0;
	*port = colon + 1;
	*host = s;
	if (s[0] == '[') {
		size_t n = strlen(s);

		if (n < 3 || s[n - 1] != ']')
			return -1;
		s[n - 1] = 0;
		*host = s + 1;
	}
	return 0;
}

static int connect_tcp(const char *dest)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *a;
	char *copy = strdup(dest), *host, *port;
	int fd = -1, err, last = ECONNREFUSED;

	if (!copy)
		return ftc_error(ENOMEM, "out of memory");
	if (split_host(copy, &host, &port) < 0) {
		free(copy);
		return ftc_error(EINVAL, "-N '%s': not HOST:PORT (e.g. -N 127.0.0.1:12345, "
				 "IPv6 as [::1]:12345)", dest);
	}
	err = getaddrinfo(host, port, &hints, &res);
	if (err) {
		ftc_error(EINVAL, "-N '%s': %s", dest, gai_strerror(err));
		free(copy);
		return -1;
	}
	for (a = res; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) < 0) {
			last = errno;
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	free(copy);
	if (fd < 0)
		return ftc_error(last, "-N %s: cannot connect: %s (is `ftc listen -p PORT` "
				 "running there?)", dest, strerror(last));
	return fd;
}

static int open_fd(const char *dest)
{
	char *end;
	long n = strtol(dest + 3, &end, 10);

	if (end == dest + 3 || *end || n < 0 || n > 1 << 20)
		return ftc_error(EINVAL, "--send '%s': not fd:N with a descriptor number", dest);
	if (fcntl((int)n, F_GETFD) < 0)
		return ftc_error(EBADF, "--send %s: descriptor %ld is not open (give it to ftc, "
				 "e.g. 3>PATH)", dest, n);
	fcntl((int)n, F_SETFD, FD_CLOEXEC);	/* the traced command must not hold it */
	return (int)n;
}

/* Serial lines pass bytes as they are: no echo, no CR/LF changes. */
static int make_raw(int fd, const char *dest)
{
	struct termios t;

	if (tcgetattr(fd, &t) < 0)
		return 0;	/* not a tty after all */
	cfmakeraw(&t);
	if (tcsetattr(fd, TCSANOW, &t) < 0)
		return ftc_error(errno, "--send %s: cannot set raw mode: %s", dest,
				 strerror(errno));
	return 0;
}

static int open_path(const char *dest)
{
	struct stat st;
	int fd;

	if (stat(dest, &st) == 0 && S_ISREG(st.st_mode))
		return ftc_error(EINVAL, "--send %s: a regular file: streams go to a device, FIFO "
				 "or fd:N (write a file with -o)", dest);
	fd = open(dest, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return ftc_error(errno, "--send %s: %s", dest, strerror(errno));
	if (isatty(fd) && make_raw(fd, dest) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int record_send_open(const char *dest, int tcp)
{
	if (tcp)
		return connect_tcp(dest);
	if (!strncmp(dest, "fd:", 3))
		return open_fd(dest);
	return open_path(dest);
}

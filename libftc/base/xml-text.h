/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Text inside an SVG (xml-text.c): the flame graph's and the heat map's. */
#ifndef FTC_XML_TEXT_H
#define FTC_XML_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* len bytes of s as XML character data: markup escaped, control bytes dropped. */
void ftc_xml_text(FILE *f, const char *s, size_t len);

#endif

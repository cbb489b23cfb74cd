// SPDX-License-Identifier: LGPL-2.1-or-later
#include "xml-text.h"

void ftc_xml_text(FILE *f, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			/* XML 1.0 has no escape for them */
			if ((unsigned char)s[i] >= 0x20)
				fputc(s[i], f);
		}
	}
}

/* xmlcheck.c: `xmlcheck FILE...`: exit 0 when every file is well-formed
 * XML (xml_check.h), else name the first that is not and why, exit 1; for
 * the CLI tests, which cannot count on xmllint. */
#include <stdio.h>
#include <stdlib.h>

#include "xml_check.h"

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *fp = fopen(argv[i], "rb");
		char *buf = NULL, why[256];
		size_t n = 0, cap = 0, k;

		if (fp == NULL) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (cap - n < 65536) {
				cap = cap * 2 + 65536;
				if ((buf = realloc(buf, cap)) == NULL)
					return 2;
			}
			k = fread(buf + n, 1, cap - n, fp);
			n += k;
		} while (k > 0);
		fclose(fp);
		if (xml_check(buf, n, why, sizeof why) < 0) {
			printf("%s: %s\n", argv[i], why);
			free(buf);
			return 1;
		}
		free(buf);
	}
	return 0;
}

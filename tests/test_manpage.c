/* test_manpage.c: man/rsweep.1 and completion/rsweep.bash held to the code
 * they describe: the option table, the commands, the CSV columns, the test
 * catalogue, the report's CSV columns and the exit statuses.
 *
 * The page's conventions (see the comment at its top): an option is an
 * ".It Fl" item in the subsection "rsweep CMD" of each command it belongs
 * to, or once in "Options of every command" when every command takes it;
 * ".It Fl c , Fl \-clients Ar N" gives short name, long name and argument;
 * "Default: VALUE." and "Command line only." are sentences of the item. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/infile.h"
#include "cli/cmd.h"
#include "results/csv.h"
#include "stats/knee.h"
#include "cli/opts.h"
#include "report/report.h"
#include "workload/workload.h"
#include "base/xalloc.h"

#define MAN_PATH RS_TOP_SRCDIR "/man/rsweep.1"
#define COMPLETION_PATH RS_TOP_SRCDIR "/completion/rsweep.bash"
#define COMMON_SUB "Options of every command"
#define MAN_MAX_TOK 48

/* ---- the page, split into lines and mdoc words ---- */

struct man_line {
	unsigned no;              /* 1-based */
	int macro;                /* a control line (".Xx ...") */
	char *text;               /* escapes resolved; a macro line without its '.' */
	char *tok[MAN_MAX_TOK];   /* words of text, pointing into words */
	char *words;
	int ntok;
	char sec[64];             /* the .Sh it lies under */
	char sub[64];             /* the .Ss it lies under, "" before any */
};

struct man {
	struct man_line *v;
	size_t n;
};

/* Resolve the escapes this page uses: \- \& \e \(xx \*(xx; others lose
 * their backslash. */
static void man_unescape(const char *s, size_t n, char *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 >= n) {
			out[k++] = s[i];
			continue;
		}
		i++;
		if (s[i] == '-')
			out[k++] = '-';
		else if (s[i] == 'e')
			out[k++] = '\\';
		else if (s[i] == '&')
			;
		else if (s[i] == '(' && i + 2 < n)
			i += 2, out[k++] = '?';
		else
			out[k++] = s[i];
	}
	out[k] = '\0';
}

/* Split text into words; "double quotes" group, as in mdoc. */
static void man_split(struct man_line *l)
{
	char *p = l->words = xstrdup(l->text);

	l->ntok = 0;
	while (*p && l->ntok < MAN_MAX_TOK) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		if (*p == '"') {
			char *w = ++p, *q = p;

			while (*p && !(*p == '"' && p[1] != '"')) {
				if (*p == '"')
					p++;
				*q++ = *p++;
			}
			if (*p)
				p++;
			*q = '\0';
			l->tok[l->ntok++] = w;
			continue;
		}
		l->tok[l->ntok++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
}

static void man_parse(const char *buf, struct man *m)
{
	char sec[64] = "", sub[64] = "";
	unsigned no = 0;

	memset(m, 0, sizeof *m);
	for (const char *p = buf; *p;) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		struct man_line *l;

		no++;
		if (n >= 3 && strncmp(p, ".\\\"", 3) == 0) {
			p += n + (end != NULL);
			continue;     /* a comment */
		}
		m->v = xreallocarray(m->v, m->n + 1, sizeof *m->v);
		l = &m->v[m->n++];
		memset(l, 0, sizeof *l);
		l->no = no;
		l->macro = n > 0 && p[0] == '.';
		l->text = xmalloc(n + 1);
		man_unescape(p + l->macro, n - (size_t)l->macro, l->text);
		man_split(l);
		if (l->macro && l->ntok > 0 && strcmp(l->tok[0], "Sh") == 0) {
			snprintf(sec, sizeof sec, "%s", l->text + 3);
			sub[0] = '\0';
		} else if (l->macro && l->ntok > 0 && strcmp(l->tok[0], "Ss") == 0) {
			snprintf(sub, sizeof sub, "%s", l->text + 3);
		}
		memcpy(l->sec, sec, sizeof sec);
		memcpy(l->sub, sub, sizeof sub);
		p += n + (end != NULL);
	}
}

static void man_free(struct man *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].text);
		free(m->v[i].words);
	}
	free(m->v);
	memset(m, 0, sizeof *m);
}

static int is_macro(const struct man_line *l, const char *name)
{
	return l->macro && l->ntok > 0 && strcmp(l->tok[0], name) == 0;
}

/* mdoc macros that may follow others on a line; a word that is one of
 * these ends the words of the macro before it. */
static int man_callable(const char *w)
{
	static const char *const names[] = {
		"Ac", "Ao", "Ap", "Aq", "Ar", "Bc", "Bo", "Bq", "Brc", "Bro", "Brq", "Cm", "Dc",
		"Do", "Dq", "Dv", "Ec", "Em", "Eo", "Er", "Ev", "Fa", "Fl", "Ic", "Li", "Lk", "Ms",
		"Nm", "No", "Ns", "Oc", "Oo", "Op", "Pa", "Pc", "Pf", "Po", "Pq", "Qc", "Ql", "Qo",
		"Qq", "Sc", "So", "Sq", "Sx", "Sy", "Ta", "Va", "Vt", "Xc", "Xo", "Xr", NULL,
	};

	for (size_t i = 0; names[i]; i++)
		if (strcmp(w, names[i]) == 0)
			return 1;
	return 0;
}

static int man_delimiter(const char *w)
{
	return strlen(w) == 1 && strchr("|,.;:()[]=", w[0]) != NULL;
}

/* ---- problems, collected so one run names them all ---- */

struct problems {
	char *text;
	size_t len;
	unsigned n;
};

static void problem(struct problems *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void problem(struct problems *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	n = strlen(msg);
	p->text = xrealloc(p->text, p->len + n + 3);
	memcpy(p->text + p->len, msg, n);
	p->len += n;
	memcpy(p->text + p->len, "\n", 2);
	p->len++;
	p->n++;
}

static const char *problems_text(const struct problems *p)
{
	return p->text ? p->text : "";
}

static void problems_free(struct problems *p)
{
	free(p->text);
	memset(p, 0, sizeof *p);
}

/* ---- the code's side ---- */

static unsigned cmds_all(void)
{
	unsigned all = 0;

	for (unsigned b = 1; b < (1u << 16); b <<= 1)
		if (strcmp(opts_cmd_name((enum opts_cmd)b), "?") != 0)
			all |= b;
	return all;
}

/* The commands a subsection documents options for: "rsweep run" -> run,
 * COMMON_SUB -> every command, anything else -> none. */
static unsigned sub_cmds(const char *sub)
{
	enum opts_cmd cmd;

	if (strcmp(sub, COMMON_SUB) == 0)
		return cmds_all();
	if (strncmp(sub, "rsweep ", 7) == 0 && opts_cmd_parse(sub + 7, &cmd) == 0)
		return (unsigned)cmd;
	return 0;
}

static int table_find(const char *name)
{
	size_t n;
	const struct opt_def *t = opts_table(&n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The row of name that commands cmds take (a name may serve two commands
 * that share none: report's and export's --format), else table_find's. */
static int table_find_for(const char *name, unsigned cmds)
{
	size_t n;
	const struct opt_def *t = opts_table(&n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0 && (t[i].cmds & cmds))
			return (int)i;
	return table_find(name);
}

static int table_find_short(int c)
{
	size_t n;
	const struct opt_def *t = opts_table(&n);

	for (size_t i = 0; i < n; i++)
		if (t[i].short_name == c)
			return (int)i;
	return -1;
}

/* ---- option items ---- */

struct man_opt {
	const struct man_line *at;
	int short_name;
	char name[64];
	char arg[32];
	int optional;             /* Op before the Ar: --opt[=ARG] */
	size_t first, end;        /* body lines [first, end) */
	char *body;               /* the body's text, one line per line */
};

struct man_opts {
	struct man_opt *v;
	size_t n;
};

/* Read ".It Fl c , Fl \-clients Ar N" into o; problems go to pr. */
static void opt_header(const struct man_line *l, struct man_opt *o, struct problems *pr)
{
	int in_fl = 0, nlong = 0;

	for (int i = 1; i < l->ntok; i++) {
		const char *w = l->tok[i];

		if (man_callable(w)) {
			in_fl = strcmp(w, "Fl") == 0;
			if (strcmp(w, "Op") == 0)
				o->optional = 1;
			if (strcmp(w, "Ar") == 0 && i + 1 < l->ntok) {
				if (o->arg[0])
					problem(pr, "line %u: two arguments in one item", l->no);
				snprintf(o->arg, sizeof o->arg, "%s", l->tok[++i]);
			}
			continue;
		}
		if (man_delimiter(w) || !in_fl)
			continue;
		if (w[0] == '-') {
			nlong++;
			snprintf(o->name, sizeof o->name, "%s", w + 1);
		} else if (strlen(w) == 1) {
			if (o->short_name)
				problem(pr, "line %u: two short names in one item", l->no);
			o->short_name = w[0];
		} else {
			problem(pr, "line %u: '%s' after Fl is neither -X nor --name", l->no, w);
		}
	}
	if (nlong != 1)
		problem(pr, "line %u: an option item names %d long options (want 1, as "
			"\".It Fl c , Fl \\-clients Ar N\")", l->no, nlong);
}

/* Every ".It Fl" item of the page with its body. */
static void man_opts_collect(const struct man *m, struct man_opts *out, struct problems *pr)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < m->n; i++) {
		const struct man_line *l = &m->v[i];
		struct man_opt *o;
		size_t j, len = 0;
		int depth = 0;

		if (!is_macro(l, "It") || l->ntok < 2 || strcmp(l->tok[1], "Fl") != 0)
			continue;
		out->v = xreallocarray(out->v, out->n + 1, sizeof *out->v);
		o = &out->v[out->n++];
		memset(o, 0, sizeof *o);
		o->at = l;
		opt_header(l, o, pr);
		/* The body ends at the next item or the end of this list, nested
		 * lists (of choices, say) included. */
		for (j = i + 1; j < m->n; j++) {
			const struct man_line *b = &m->v[j];

			if (is_macro(b, "Bl"))
				depth++;
			else if (is_macro(b, "El") && depth-- == 0)
				break;
			else if ((is_macro(b, "It") && depth == 0) || is_macro(b, "Ss") ||
				 is_macro(b, "Sh"))
				break;
		}
		o->first = i + 1;
		o->end = j;
		o->body = xstrdup("");
		for (size_t k = o->first; k < o->end; k++) {
			size_t n = strlen(m->v[k].text);

			o->body = xrealloc(o->body, len + n + 2);
			memcpy(o->body + len, m->v[k].text, n);
			len += n;
			memcpy(o->body + len, "\n", 2);
			len++;
		}
	}
}

static void man_opts_free(struct man_opts *o)
{
	for (size_t i = 0; i < o->n; i++)
		free(o->v[i].body);
	free(o->v);
	memset(o, 0, sizeof *o);
}

/* ---- the checks; each returns its problems in pr ---- */

/* Table -> page: each option in the subsection of each of its commands (or
 * once in the common one), exactly once. */
static void check_table_in_page(const struct man_opts *mo, struct problems *pr)
{
	size_t n;
	const struct opt_def *t = opts_table(&n);
	unsigned all = cmds_all();

	for (size_t i = 0; i < n; i++) {
		for (unsigned b = 1; b <= all; b <<= 1) {
			char want[64];
			unsigned found = 0;

			if (!(b & all) || !(t[i].cmds & b))
				continue;
			if (t[i].cmds == all) {
				if (b != 1)
					break;        /* the common subsection: check once */
				snprintf(want, sizeof want, "%s", COMMON_SUB);
			} else {
				snprintf(want, sizeof want, "rsweep %s", opts_cmd_name((enum opts_cmd)b));
			}
			for (size_t k = 0; k < mo->n; k++)
				found += strcmp(mo->v[k].name, t[i].name) == 0 &&
					 strcmp(mo->v[k].at->sub, want) == 0;
			if (found != 1)
				problem(pr, "--%s is documented %u times under \"%s\" (want once)",
					t[i].name, found, want);
		}
	}
}

/* Page -> table: every item is an option of its subsection's commands, with
 * the table's short name and argument, in the table's order. */
static void check_page_in_table(const struct man_opts *mo, struct problems *pr)
{
	size_t n;
	const struct opt_def *t = opts_table(&n);
	unsigned all = cmds_all();
	int last = -1;
	const char *last_sub = "";

	for (size_t k = 0; k < mo->n; k++) {
		const struct man_opt *o = &mo->v[k];
		unsigned line = o->at->no, cmds = sub_cmds(o->at->sub);
		int i = table_find_for(o->name, cmds);
		const struct opt_def *d;

		if (i < 0) {
			problem(pr, "line %u: --%s is documented but is not in the option table",
				line, o->name);
			continue;
		}
		d = &t[i];
		if (cmds == 0)
			problem(pr, "line %u: --%s is documented under \"%s\", which is no command's "
				"subsection", line, o->name, o->at->sub);
		else if (cmds == all && d->cmds != all)
			problem(pr, "line %u: --%s is under \"%s\" but not every command takes it",
				line, o->name, COMMON_SUB);
		else if (cmds != all && (!(d->cmds & cmds) || d->cmds == all))
			problem(pr, "line %u: --%s is under \"%s\" but the table gives it to other "
				"commands", line, o->name, o->at->sub);
		if (o->short_name != d->short_name)
			problem(pr, "line %u: --%s: the page's short name is '%c', the table's '%c'",
				line, o->name, o->short_name ? o->short_name : ' ',
				d->short_name ? d->short_name : ' ');
		if (strcmp(o->arg, d->arg ? d->arg : "") != 0)
			problem(pr, "line %u: --%s: the page's argument is '%s', the table's '%s'",
				line, o->name, o->arg, d->arg ? d->arg : "");
		if (o->optional != (d->type == OT_OPTSTRING))
			problem(pr, "line %u: --%s: the argument is %s in the table but %s in the page",
				line, o->name, d->type == OT_OPTSTRING ? "optional" : "not optional",
				o->optional ? "optional" : "not optional");
		if (strcmp(last_sub, o->at->sub) != 0)
			last = -1;
		if (i <= last)
			problem(pr, "line %u: --%s comes before --%s in the table: keep its order",
				line, o->name, t[last].name);
		last = i;
		last_sub = o->at->sub;
	}
}

/* def appears after "Default: " and is not the start of a longer number. */
static int body_has_default(const char *body, const char *def)
{
	size_t n = strlen(def);

	for (const char *p = body; (p = strstr(p, "Default: ")) != NULL; p++) {
		const char *v = p + 9, *after = v + n;

		if (strncmp(v, def, n) != 0)
			continue;
		if (*after == '.' && (after[1] >= '0' && after[1] <= '9'))
			continue;
		if ((*after >= '0' && *after <= '9') || (*after >= 'a' && *after <= 'z') ||
		    (*after >= 'A' && *after <= 'Z'))
			continue;
		return 1;
	}
	return 0;
}

/* The words of the body name choice with Cm. */
static int body_has_choice(const struct man *m, const struct man_opt *o, const char *choice,
			   size_t n)
{
	for (size_t k = o->first; k < o->end; k++)
		for (int i = 0; i + 1 < m->v[k].ntok; i++)
			if (strcmp(m->v[k].tok[i], "Cm") == 0 && strlen(m->v[k].tok[i + 1]) == n &&
			    strncmp(m->v[k].tok[i + 1], choice, n) == 0)
				return 1;
	return 0;
}

/* Each item gives the table's default, names every choice, and says
 * "Command line only." exactly when the option is not a file key. */
static void check_texts(const struct man *m, const struct man_opts *mo, struct problems *pr)
{
	size_t n;
	const struct opt_def *t = opts_table(&n);

	for (size_t k = 0; k < mo->n; k++) {
		const struct man_opt *o = &mo->v[k];
		int i = table_find_for(o->name, sub_cmds(o->at->sub)), cl;
		const struct opt_def *d;

		if (i < 0)
			continue;             /* check_page_in_table says so */
		d = &t[i];
		if (d->def && !body_has_default(o->body, d->def))
			problem(pr, "line %u: --%s: the text lacks \"Default: %s.\"", o->at->no, d->name,
				d->def);
		/* Without a table default the page may say what happens
		 * ("Default: the host name."), but not give a value. */
		if (!d->def && strstr(o->body, "Default: ") &&
		    strstr(o->body, "Default: ")[9] >= '0' && strstr(o->body, "Default: ")[9] <= '9')
			problem(pr, "line %u: --%s has no default in the table but the page gives one",
				o->at->no, d->name);
		for (const char *c = opts_choices(d); c && *c;) {
			size_t len = strcspn(c, "|");

			if (!body_has_choice(m, o, c, len))
				problem(pr, "line %u: --%s: the choice '%.*s' is not named (.Cm %.*s)",
					o->at->no, d->name, (int)len, c, (int)len, c);
			c += len + (c[len] == '|');
		}
		cl = strstr(o->body, "Command line only.") != NULL;
		if (cl && d->in_file)
			problem(pr, "line %u: --%s says \"Command line only.\" but files accept it",
				o->at->no, d->name);
		if (!cl && !d->in_file)
			problem(pr, "line %u: --%s is refused in files: say \"Command line only.\"",
				o->at->no, d->name);
	}
}

/* Every "Fl" word anywhere names an option of the table (or is "--"). */
static void check_fl_references(const struct man *m, struct problems *pr)
{
	for (size_t k = 0; k < m->n; k++) {
		const struct man_line *l = &m->v[k];
		int in_fl = 0;

		if (!l->macro)
			continue;
		for (int i = 0; i < l->ntok; i++) {
			const char *w = l->tok[i];

			if (man_callable(w) || (i == 0 && strcmp(w, "It") == 0)) {
				in_fl = strcmp(w, "Fl") == 0;
				continue;
			}
			if (!in_fl || man_delimiter(w))
				continue;
			if (w[0] == '-') {
				if (w[1] != '\0' && table_find(w + 1) < 0)
					problem(pr, "line %u: Fl -%s is no option of rsweep", l->no, w);
			} else if (strlen(w) != 1 || table_find_short(w[0]) < 0) {
				problem(pr, "line %u: Fl %s is no option of rsweep", l->no, w);
			}
		}
	}
}

/* Command lines in EXAMPLES use options their command takes. */
static void check_examples(const struct man *m, struct problems *pr)
{
	size_t n;
	const struct opt_def *t = opts_table(&n);
	unsigned cmd = 0;
	int cont = 0;

	for (size_t k = 0; k < m->n; k++) {
		const struct man_line *l = &m->v[k];
		int i = 0, stop = 0;

		if (strcmp(l->sec, "EXAMPLES") != 0 || l->macro)
			continue;
		if (!cont) {
			cmd = 0;
			for (; i < l->ntok && strcmp(l->tok[i], "rsweep") != 0; i++)
				;
			if (i + 1 < l->ntok) {
				enum opts_cmd c;

				if (opts_cmd_parse(l->tok[i + 1], &c) == 0)
					cmd = (unsigned)c;
				i += 2;
			}
		}
		cont = l->ntok > 0 && strcmp(l->tok[l->ntok - 1], "\\") == 0;
		for (; cmd && !stop && i < l->ntok; i++) {
			const char *w = l->tok[i];
			int found = 0;

			if (strcmp(w, "--") == 0) {
				stop = 1;         /* a custom command follows */
				cont = 0;
				continue;
			}
			if (w[0] != '-' || w[1] == '\0')
				continue;
			for (size_t j = 0; j < n && !found; j++) {
				size_t len = strcspn(w + 2, "=");

				if (!(t[j].cmds & cmd))
					continue;
				if (w[1] == '-')
					found = strlen(t[j].name) == len && strncmp(t[j].name, w + 2, len) == 0;
				else
					found = w[2] == '\0' && t[j].short_name == w[1];
			}
			if (!found)
				problem(pr, "line %u: the example gives %s to rsweep %s, which has no such "
					"option", l->no, w, opts_cmd_name((enum opts_cmd)cmd));
		}
	}
}

static int man_has_sub(const struct man *m, const char *sub)
{
	for (size_t k = 0; k < m->n; k++)
		if (is_macro(&m->v[k], "Ss") && strcmp(m->v[k].text + 3, sub) == 0)
			return 1;
	return 0;
}

static int man_has_sec(const struct man *m, const char *sec)
{
	for (size_t k = 0; k < m->n; k++)
		if (is_macro(&m->v[k], "Sh") && strcmp(m->v[k].text + 3, sec) == 0)
			return 1;
	return 0;
}

/* Whether macro line words "A B" (e.g. "Cm run", "Xr redis-benchmark")
 * appear in section sec ("" = anywhere). */
static int man_has_words(const struct man *m, const char *sec, const char *a, const char *b)
{
	for (size_t k = 0; k < m->n; k++) {
		const struct man_line *l = &m->v[k];

		if (!l->macro || (sec[0] && strcmp(l->sec, sec) != 0))
			continue;
		for (int i = 0; i + 1 < l->ntok; i++)
			if (strcmp(l->tok[i], a) == 0 && strcmp(l->tok[i + 1], b) == 0)
				return 1;
	}
	return 0;
}

/* The sections issue #6 asks for, a SYNOPSIS line and a subsection per
 * command, the environment, the exit statuses of cmd.h. */
static void check_structure(const struct man *m, struct problems *pr)
{
	static const char *const secs[] = {
		"NAME", "SYNOPSIS", "DESCRIPTION", "ENVIRONMENT", "FILES", "EXIT STATUS",
		"EXAMPLES", "SEE ALSO", NULL,
	};
	static const char *const subs[] = {
		COMMON_SUB, "Sweep files", "Plot files", "Result CSV files", "rsweep help", NULL,
	};
	static const int statuses[] = { RS_OK, RS_FAILED, RS_BAD_INPUT, RS_INTERRUPTED };
	unsigned all = cmds_all();

	for (size_t i = 0; secs[i]; i++)
		if (!man_has_sec(m, secs[i]))
			problem(pr, "no section %s", secs[i]);
	for (size_t i = 0; subs[i]; i++)
		if (!man_has_sub(m, subs[i]))
			problem(pr, "no subsection \"%s\"", subs[i]);
	for (unsigned b = 1; b <= all; b <<= 1) {
		char sub[64];
		const char *name = opts_cmd_name((enum opts_cmd)b);

		if (!(b & all))
			continue;
		snprintf(sub, sizeof sub, "rsweep %s", name);
		if (!man_has_sub(m, sub))
			problem(pr, "the command %s has no subsection \"%s\"", name, sub);
		if (!man_has_words(m, "SYNOPSIS", "Cm", name))
			problem(pr, "the command %s is not in the SYNOPSIS", name);
	}
	for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++) {
		char num[16];

		snprintf(num, sizeof num, "%d", statuses[i]);
		if (!man_has_words(m, "EXIT STATUS", "It", num))
			problem(pr, "EXIT STATUS lacks status %s", num);
	}
	if (!man_has_words(m, "ENVIRONMENT", "It", "Ev") ||
	    !man_has_words(m, "ENVIRONMENT", "Ev", "REDISCLI_AUTH") ||
	    !man_has_words(m, "ENVIRONMENT", "Ev", "TMPDIR"))
		problem(pr, "ENVIRONMENT lacks REDISCLI_AUTH or TMPDIR");
	if (!man_has_words(m, "SEE ALSO", "Xr", "redis-benchmark") ||
	    !man_has_words(m, "SEE ALSO", "Xr", "redis-server"))
		problem(pr, "SEE ALSO lacks redis-benchmark(1) or redis-server(1)");
}

/* "Result CSV files" lists csv_header()'s columns, in its order. */
static void check_csv_columns(const struct man *m, struct problems *pr)
{
	char *hdr = xstrdup(csv_header()), *save = NULL;
	const char *col;
	size_t k = 0;

	hdr[strcspn(hdr, "\r\n")] = '\0';
	for (col = strtok_r(hdr, ",", &save); col; col = strtok_r(NULL, ",", &save)) {
		const struct man_line *l = NULL;

		for (; k < m->n; k++)
			if (strcmp(m->v[k].sub, "Result CSV files") == 0 && is_macro(&m->v[k], "It") &&
			    m->v[k].ntok >= 3 && strcmp(m->v[k].tok[1], "Li") == 0) {
				l = &m->v[k++];
				break;
			}
		if (l == NULL) {
			problem(pr, "the CSV column %s is not listed under \"Result CSV files\"", col);
			continue;
		}
		if (strcmp(l->tok[2], col) != 0)
			problem(pr, "line %u: the CSV column here is %s, the page says %s", l->no, col,
				l->tok[2]);
	}
	for (; k < m->n; k++)
		if (strcmp(m->v[k].sub, "Result CSV files") == 0 && is_macro(&m->v[k], "It") &&
		    m->v[k].ntok >= 3 && strcmp(m->v[k].tok[1], "Li") == 0)
			problem(pr, "line %u: the CSV has no column %s", m->v[k].no, m->v[k].tok[2]);
	free(hdr);
}

/* The report's csv format: its leading columns, named in order by Li
 * under "rsweep report". */
static void check_report_columns(const struct man *m, struct problems *pr)
{
	char *lead = xstrdup(REPORT_CSV_HEADER), *save = NULL;
	const char **words = NULL;
	size_t nw = 0, at = 0;

	for (size_t k = 0; k < m->n; k++) {
		const struct man_line *l = &m->v[k];
		int in_li = 0;

		if (strcmp(l->sub, "rsweep report") != 0 || !l->macro)
			continue;
		for (int i = 0; i < l->ntok; i++) {
			if (man_callable(l->tok[i])) {
				in_li = strcmp(l->tok[i], "Li") == 0;
			} else if (in_li && !man_delimiter(l->tok[i])) {
				words = xreallocarray(words, nw + 1, sizeof *words);
				words[nw++] = l->tok[i];
			}
		}
	}
	for (const char *col = strtok_r(lead, ",", &save); col; col = strtok_r(NULL, ",", &save)) {
		size_t j = at;

		while (j < nw && strcmp(words[j], col) != 0)
			j++;
		if (j == nw)
			problem(pr, "the report's csv column %s is not named (in order) under "
				"\"rsweep report\"", col);
		else
			at = j + 1;
	}
	free(words);
	free(lead);
}

/* Whether name (any case) is a word of a "Cm" item in subsection sub. */
static int man_test_named(const struct man *m, const char *name)
{
	for (size_t k = 0; k < m->n; k++) {
		const struct man_line *l = &m->v[k];

		if (strcmp(l->sub, "Tests") != 0 || !is_macro(l, "It") || l->ntok < 3 ||
		    strcmp(l->tok[1], "Cm") != 0)
			continue;
		for (int i = 2; i < l->ntok; i++)
			if (strcasecmp(l->tok[i], name) == 0)
				return 1;
	}
	return 0;
}

/* The "Tests" list names every test of the catalogue, and no other. */
static void check_tests(const struct man *m, struct problems *pr)
{
	const char *const *names = workload_names();

	for (size_t i = 0; names[i]; i++)
		if (!man_test_named(m, names[i]))
			problem(pr, "the test %s is not described under \"Tests\"", names[i]);
	for (size_t k = 0; k < m->n; k++) {
		const struct man_line *l = &m->v[k];

		if (strcmp(l->sub, "Tests") != 0 || !is_macro(l, "It") || l->ntok < 3 ||
		    strcmp(l->tok[1], "Cm") != 0)
			continue;
		for (int i = 2; i < l->ntok; i++) {
			size_t j;

			if (man_delimiter(l->tok[i]))
				continue;
			for (j = 0; names[j] && strcmp(names[j], l->tok[i]) != 0; j++)
				;
			if (names[j] == NULL)
				problem(pr, "line %u: %s is not a test of the catalogue", l->no, l->tok[i]);
		}
	}
}

/* The verdict rule as the page states it: the band from KNEE_CMP_BAND, its
 * edges, and each verdict by the name the report prints (knee_verdict_of
 * decides them; the page must say the same). */
static void check_verdicts(const char *buf, struct problems *pr)
{
	static const enum knee_verdict v[] = { KNEE_FASTER, KNEE_SLOWER, KNEE_SAME, KNEE_CANNOT_TELL,
					       KNEE_FASTER_UNSURE, KNEE_SLOWER_UNSURE };
	char want[128];

	snprintf(want, sizeof want, "the noise band is 1\\(+-%.0f%%", 100 * KNEE_CMP_BAND);
	if (strstr(buf, want) == NULL)
		problem(pr, "the verdict rule does not state the band: \"%s\"", want);
	snprintf(want, sizeof want, "wholly above %.2f is\n.Cm %s", 1 + KNEE_CMP_BAND,
		 knee_verdict_name(knee_verdict_of(1 + 2 * KNEE_CMP_BAND, 1.5)));
	if (strstr(buf, want) == NULL)
		problem(pr, "the verdict rule does not say \"%s\"", want);
	snprintf(want, sizeof want, "wholly below %.2f is\n.Cm %s", 1 - KNEE_CMP_BAND,
		 knee_verdict_name(knee_verdict_of(0.5, 1 - 2 * KNEE_CMP_BAND)));
	if (strstr(buf, want) == NULL)
		problem(pr, "the verdict rule does not say \"%s\"", want);
	snprintf(want, sizeof want, "wholly within the band is\n.Cm %s",
		 knee_verdict_name(knee_verdict_of(1 - KNEE_CMP_BAND / 2, 1 + KNEE_CMP_BAND / 2)));
	if (strstr(buf, want) == NULL)
		problem(pr, "the verdict rule does not say \"%s\"", want);
	snprintf(want, sizeof want, "excludes 1 but reaches into the band is\n.Cm %s",
		 knee_verdict_name(knee_verdict_of(1.01, 1.5)));
	if (strstr(buf, want) == NULL)
		problem(pr, "the verdict rule does not say \"%s\"", want);
	snprintf(want, sizeof want, "holds 1 and reaches past the band is\n.Cm %s",
		 knee_verdict_name(knee_verdict_of(0.8, 1.1)));
	if (strstr(buf, want) == NULL)
		problem(pr, "the verdict rule does not say \"%s\"", want);
	for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
		snprintf(want, sizeof want, ".Cm %s", knee_verdict_name(v[i]));
		if (strstr(buf, want) == NULL)
			problem(pr, "the verdict \"%s\" is not in the page", knee_verdict_name(v[i]));
	}
	if (strstr(buf, "reaches past the band is never\n.Cm same") == NULL)
		problem(pr, "the page does not say an interval past the band is never same");
}

/* Run every check of the page text buf. */
static void check_page(const char *buf, struct problems *pr)
{
	struct man m;
	struct man_opts mo;

	man_parse(buf, &m);
	man_opts_collect(&m, &mo, pr);
	check_table_in_page(&mo, pr);
	check_page_in_table(&mo, pr);
	check_texts(&m, &mo, pr);
	check_fl_references(&m, pr);
	check_examples(&m, pr);
	check_structure(&m, pr);
	check_csv_columns(&m, pr);
	check_report_columns(&m, pr);
	check_tests(&m, pr);
	check_verdicts(buf, pr);
	man_opts_free(&mo);
	man_free(&m);
}

static char *read_page(void)
{
	char *buf;
	size_t len;
	struct rs_err err;

	cr_assert_eq(infile_slurp(MAN_PATH, (size_t)1 << 22, &buf, &len, &err), 0, "%s", err.msg);
	return buf;
}

/* A copy of s with its one occurrence of a replaced by b. */
static char *mutate(const char *s, const char *a, const char *b)
{
	const char *p = strstr(s, a);
	size_t n = strlen(s), na = strlen(a), nb = strlen(b);
	char *out;

	cr_assert_not_null(p, "the page no longer holds \"%s\": update this test", a);
	cr_assert_null(strstr(p + 1, a), "\"%s\" is not unique in the page", a);
	out = xmalloc(n - na + nb + 1);
	memcpy(out, s, (size_t)(p - s));
	memcpy(out + (p - s), b, nb);
	memcpy(out + (p - s) + nb, p + na, n - (size_t)(p - s) - na + 1);
	return out;
}

/* ---- the tests ---- */

Test(manpage, agrees_with_the_option_table_and_the_code)
{
	char *buf = read_page();
	struct problems pr = { 0 };

	check_page(buf, &pr);
	cr_expect_eq(pr.n, 0, "man/rsweep.1 has drifted from the code:\n%s", problems_text(&pr));
	problems_free(&pr);
	free(buf);
}

/* The checks must fail when the page drifts: one mutation per kind. */
static void expect_caught(const char *buf, const char *a, const char *b, const char *what)
{
	char *bad = mutate(buf, a, b);
	struct problems pr = { 0 };

	check_page(bad, &pr);
	cr_expect(pr.n > 0 && strstr(problems_text(&pr), what) != NULL,
		  "replacing \"%s\" with \"%s\" should report \"%s\"; got:\n%s", a, b, what,
		  problems_text(&pr));
	problems_free(&pr);
	free(bad);
}

Test(manpage, catches_drift)
{
	char *buf = read_page();

	expect_caught(buf, ".It Fl \\-seed Ar N\n", ".It Fl \\-seeds Ar N\n",
		      "--seed is documented 0 times");
	expect_caught(buf, ".It Fl \\-seed Ar N\n", ".It Fl \\-seeds Ar N\n",
		      "--seeds is documented but is not in the option table");
	expect_caught(buf, ".It Fl \\-repeat Ar K\n", ".It Fl \\-repeat Ar N\n",
		      "the page's argument is 'N', the table's 'K'");
	expect_caught(buf, ".It Fl \\-spawn Ns Op = Ns Ar PATH\n", ".It Fl \\-spawn Ar PATH\n",
		      "optional in the table");
	expect_caught(buf, ".It Fl P , Fl \\-pipeline Ar DEPTHS\nThe one", ".It Fl \\-pipeline Ar DEPTHS\nThe one",
		      "short name");
	expect_caught(buf, "65535.\nDefault: 6379.", "65535.\nDefault: 6380.", "Default: 6379.");
	expect_caught(buf, ".Cm shuffled\n(a random", ".Cm random\n(a random", "'shuffled'");
	expect_caught(buf, "with it.\nCommand line only.\n.It Fl \\-resume",
		      "with it.\n.It Fl \\-resume",
		      "Command line only.");
	expect_caught(buf, ".It Li p999_ms\n", ".It Li p99_9ms\n", "p999_ms");
	expect_caught(buf, ".Ss rsweep import\n", ".Ss rsweep importing\n", "no subsection");
	expect_caught(buf, "-P 1..256:x2 --repeat 3", "-P 1..256:x2 --repeats 3", "--repeats");
	expect_caught(buf, ".It Cm SPOP\n", ".It Cm SPOPP\n", "SPOPP is not a test");
	expect_caught(buf, ".It 130\n", ".It 131\n", "status 130");
	expect_caught(buf, "wholly below 0.97 is\n.Cm slower", "wholly below 0.97 is\n.Cm same",
		      "wholly below 0.97");
	expect_caught(buf, "the noise band is 1\\(+-3%", "the noise band is 1\\(+-5%", "the band");
	free(buf);
}

/* An option that several commands take has one definition: --knee is the
 * fitted level's fraction for plot and report alike (knee.h). */
Test(manpage, one_definition_of_the_saturation_depth)
{
	char *buf = read_page();
	const char *def = "The saturation depth is the smallest depth whose fitted level reaches\n";
	size_t n = 0;

	for (const char *p = buf; (p = strstr(p, def)) != NULL; p++)
		n++;
	cr_expect_eq(n, 2, "--knee under plot and report: %zu items say \"%s\"", n, def);
	cr_expect_null(strstr(buf, "smallest depth whose median reaches"));
	free(buf);
}

/* The completion's static list of test names is the catalogue, lower case,
 * plus the groups "ping" and "lrange". */
Test(completion, test_names_are_the_catalogue)
{
	const char *const *names = workload_names();
	char *buf, *line, *list, *save = NULL, *end;
	size_t len, nwords = 0, ncat = 0;
	struct rs_err err;

	cr_assert_eq(infile_slurp(COMPLETION_PATH, (size_t)1 << 20, &buf, &len, &err), 0, "%s", err.msg);
	line = strstr(buf, "\n_rsweep_tests='");
	cr_assert_not_null(line, "completion/rsweep.bash has no line _rsweep_tests='...'");
	list = line + strlen("\n_rsweep_tests='");
	end = strchr(list, '\'');
	cr_assert_not_null(end);
	*end = '\0';
	for (const char *w = strtok_r(list, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		int known = strcmp(w, "ping") == 0 || strcmp(w, "lrange") == 0;

		for (size_t i = 0; names[i] && !known; i++)
			known = strcasecmp(names[i], w) == 0;
		for (const char *c = w; *c; c++)
			cr_expect(!(*c >= 'A' && *c <= 'Z'), "completion test name %s is not lower case", w);
		cr_expect(known, "the completion offers the test %s, which rsweep does not have", w);
		nwords++;
	}
	for (size_t i = 0; names[i]; i++)
		ncat++;
	cr_expect_eq(nwords, ncat + 2, "the completion offers %zu test names; the catalogue has %zu "
		     "tests plus ping and lrange", nwords, ncat);
	free(buf);
}

/* log.h: what a command says on stderr besides its one fatal error: notes,
 * warnings, and the -v chatter.  One place, so that every message has the
 * same form ("rsweep plot: note: ...") and -v is decided once. */
#ifndef RS_LOG_H
#define RS_LOG_H

enum rs_log_level {
	RS_LOG_INFO,              /* "who: msg": a summary the user reads */
	RS_LOG_NOTE,              /* "who: note: msg": something left out or assumed */
	RS_LOG_WARN,              /* "who: warning: msg" */
	RS_LOG_DEBUG,             /* "who: msg", printed with -v only */
};

/* Name the messages' author ("rsweep plot") and whether -v was given.
 * who is copied. */
void rs_log_init(const char *who, int verbose);

/* Print one line, prefixed as its level says, to stderr.  Nothing to
 * return: a message that cannot be printed has nowhere else to go. */
void rs_log(enum rs_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* For the rooms that never print (the sweep, its guard, its plan): format
 * one note (at most 511 bytes) and hand it to their caller's callback
 * (NULL: nowhere). */
void rs_note_to(void (*on_note)(void *ud, const char *msg), void *ud, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif

/* rs_strict_posix.h: config.h includes it under the portability check
 * (configure --enable-portability-check) to take back the extensions
 * AC_USE_SYSTEM_EXTENSIONS turned on: the shared rooms then see strict
 * POSIX.1-2008 (-D_POSIX_C_SOURCE=200809L) and C, nothing more.  (The
 * __STDC_WANT_* macros stay: they are C's own optional parts, on every
 * system, and GCC refuses to undefine them.) */
#undef _ALL_SOURCE
#undef _DARWIN_C_SOURCE
#undef _DEFAULT_SOURCE
#undef _GNU_SOURCE
#undef _HPUX_ALT_XOPEN_SOCKET_API
#undef _NETBSD_SOURCE
#undef _OPENBSD_SOURCE
#undef _POSIX_PTHREAD_SEMANTICS
#undef _TANDEM_SOURCE
#undef __EXTENSIONS__

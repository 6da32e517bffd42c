/* mach-o/dyld.h, for the portability check (configure --enable-portability-check):
 * a system-specific header in a shared room stops the build. */
#error "<mach-o/dyld.h> is system-specific: use it in src/base/platform.c or an event-loop back-end (src/ev_*.c) only"

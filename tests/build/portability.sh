#!/bin/sh
# portability.sh TARBALL: configure --enable-portability-check builds the
# whole tool, and then stops a system-specific call in a shared room: an
# epoll_create1 added to src/base/num.c, with its header or without, fails the
# build, and so does a GNU-only string function; the same epoll call in
# the platform room builds.  Builds from the distribution tarball, so it is
# slow: it runs from .ci/run, not from make check.
set -eu
check=portability
. "$(dirname "$0")/lib.sh"
cd "$src"
./configure --enable-portability-check --enable-werror >configure.log 2>&1 ||
	fail "configure: $(tail -5 configure.log)"
make -j2 V=1 >make.log 2>&1 || fail "the portability check fails on the tree as it is: $(grep -m5 error: make.log)"
grep -- "-o src/base/num.o " make.log | grep -q -- "-D_POSIX_C_SOURCE=200809L" ||
	bad "src/base/num.o was not built with strict POSIX feature macros"
grep -q -- "-o src/base/librsweep_sys_a-platform.o " make.log || bad "no src/base/librsweep_sys_a-platform.o in the build"
grep -- "-o src/base/librsweep_sys_a-platform.o " make.log | grep -q -- "-D_POSIX_C_SOURCE" &&
	bad "the platform room was built with strict POSIX feature macros too"

# probe FILE OBJECT TEXT: FILE with TEXT added, OBJECT rebuilt; the make
# log in probe.log, FILE as it was afterwards.  Returns make's status.
probe() {
	cp "$1" "$T/saved.c"
	printf '%s\n' "$3" >>"$1"
	rm -f "$2"
	make "$2" >probe.log 2>&1 && rc=0 || rc=$?
	cp "$T/saved.c" "$1"
	return $rc
}
epoll='int rs_probe(void);
int rs_probe(void) { return epoll_create1(0); }'

probe src/base/num.c src/base/num.o "#include <sys/epoll.h>
$epoll" && bad "epoll_create1 with <sys/epoll.h> in src/base/num.c builds under the check"
grep -q "sys/epoll.h> is system-specific" probe.log ||
	bad "the failure does not name <sys/epoll.h>: $(grep -m3 error probe.log)"
probe src/base/num.c src/base/num.o "$epoll" && bad "epoll_create1 without its header in src/base/num.c builds under the check"
grep -q "implicit declaration of function .epoll_create1" probe.log ||
	bad "the failure does not name epoll_create1: $(grep -m3 error probe.log)"
probe src/base/num.c src/base/num.o '#include <string.h>
const char *rs_probe(const char *s);
const char *rs_probe(const char *s) { return strchrnul(s, 0x2c); }' &&
	bad "strchrnul (GNU) in src/base/num.c builds under the check"
probe src/base/platform.c src/base/librsweep_sys_a-platform.o "#include <sys/epoll.h>
$epoll" || bad "epoll_create1 in the platform room does not build: $(grep -m3 error probe.log)"
[ "$failed" = 0 ] || exit 1
echo "ok"

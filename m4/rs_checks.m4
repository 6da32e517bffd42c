# rs_checks.m4: rsweep's own configure helpers.

# RS_REQUIRE_PKG(VAR, MODULE, DEBIAN-PACKAGE)
# A required pkg-config module; missing, configure stops and names the package to install.
AC_DEFUN([RS_REQUIRE_PKG], [
  PKG_CHECK_MODULES([$1], [$2], [],
    [AC_MSG_ERROR([$2 not found (pkg-config): install the Debian package $3])])
])

# RS_CHECK_CFLAGS: the warnings every build uses, kept only where the compiler knows them.
AC_DEFUN([RS_CHECK_CFLAGS], [
  WARN_CFLAGS=
  for rs_flag in -Wall -Wextra -Wformat=2 -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
                 -Wpointer-arith -Wcast-qual -Wvla -Wundef -Wnull-dereference; do
    AC_MSG_CHECKING([whether $CC accepts $rs_flag])
    rs_save_cflags=$CFLAGS
    CFLAGS="$CFLAGS -Werror $rs_flag"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
      [AC_MSG_RESULT([yes]); WARN_CFLAGS="$WARN_CFLAGS $rs_flag"], [AC_MSG_RESULT([no])])
    CFLAGS=$rs_save_cflags
  done
  AC_SUBST([WARN_CFLAGS])
])

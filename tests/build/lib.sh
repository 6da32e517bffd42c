# lib.sh: what the slow build checks share.  Sourced with the tarball as
# $1 and the check's name in $check: unpacks the tarball into a fresh temp
# directory $T (removed on exit), sets $src to the unpacked tree, and gives
# fail (stop now) and bad (note a failure, go on; `exit $failed` at the end).
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-$check.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
failed=0
bad() {
	echo "FAIL: $*" >&2
	failed=1
}
tar -C "$T" -xzf "$tarball"
for src in "$T"/rsweep-*; do :; done
[ -x "$src/configure" ] || fail "$tarball holds no rsweep-*/configure"
